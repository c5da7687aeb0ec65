"""The JSON position format of the engine CLI and of other programs.

``{"turn": "white", "white": {"1": 14, "12": 1}, "black": {"1": 15}}``: points on each
side's own track (1-24); absent points are empty; borne-off checkers are 15 minus the
count on the board.

>>> text = {"turn": "black", "white": {"1": 14, "12": 1}, "black": {"1": 15}}
>>> position_to_json(position_from_json(text)) == text
True
"""

from __future__ import annotations

from typing import Any

from engine.errors import InvalidPositionError
from engine.jacquet.position import SIDE_NAMES, Position

_KEYS = ("turn", "white", "black")


def position_to_json(position: Position) -> dict[str, Any]:
    """The position as a JSON-ready dict; points with no checker are left out."""
    obj: dict[str, Any] = {"turn": SIDE_NAMES[position.turn]}
    for side, name in enumerate(SIDE_NAMES):
        obj[name] = {
            str(point): count for point, count in enumerate(position.points(side), start=1) if count
        }
    return obj


def position_from_json(obj: object) -> Position:
    """A validated :class:`Position` from the decoded JSON; :class:`InvalidPositionError`
    names the first problem found.
    """
    if not isinstance(obj, dict):
        raise InvalidPositionError("a position is a JSON object with turn, white and black")
    unknown = sorted(str(key) for key in obj if key not in _KEYS)
    if unknown:
        raise InvalidPositionError(f"unknown position key {unknown[0]!r}; expected {_KEYS}")
    missing = [key for key in _KEYS if key not in obj]
    if missing:
        raise InvalidPositionError(f"the position has no {missing[0]!r}")
    turn = obj["turn"]
    if turn not in SIDE_NAMES:
        raise InvalidPositionError(f'turn must be "white" or "black", not {turn!r}')
    white, black = (_side_points(name, obj[name]) for name in SIDE_NAMES)
    return Position.from_points(SIDE_NAMES.index(turn), white, black)


def _side_points(name: str, value: object) -> dict[int, int]:
    if not isinstance(value, dict):
        raise InvalidPositionError(f'{name} must map points to counts, like {{"1": 15}}')
    points: dict[int, int] = {}
    for key, count in value.items():
        if not (isinstance(key, str) and key.isascii() and key.isdigit() and key[0] != "0"):
            raise InvalidPositionError(f'{name} has point {key!r}; points are "1" to "24"')
        if isinstance(count, bool) or not isinstance(count, int):
            raise InvalidPositionError(
                f"{name}'s point {key} holds {count!r}; a count is a whole number"
            )
        points[int(key)] = count
    return points
