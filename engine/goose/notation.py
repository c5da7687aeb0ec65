"""Throws as text: ``6-3`` for one throw, ``6-3,4-5`` for a sequence (the CLI's ``--dice``).

>>> parse_throws("6-3, 4-5")
((6, 3), (4, 5))
>>> format_throws(((6, 3), (4, 5)))
'6-3,4-5'
>>> parse_throw("7-2")
Traceback (most recent call last):
...
engine.errors.NotationError: '7-2' is not a throw: a die shows 1 to 6, not 7
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.errors import NotationError

_FACES = "123456"


def parse_throw(text: str) -> tuple[int, int]:
    """Parse one throw, two faces joined by a hyphen: ``"6-3"`` → ``(6, 3)``."""
    parts = text.strip().split("-")
    if len(parts) != 2:
        raise NotationError(f"{text!r} is not a throw: write two dice joined by '-', like 6-3")
    for part in parts:
        face = part.strip()
        if not face.isdigit():
            raise NotationError(f"{text!r} is not a throw: {face!r} is not a die's face")
        if face not in _FACES or len(face) != 1:
            raise NotationError(f"{text!r} is not a throw: a die shows 1 to 6, not {face}")
    return (int(parts[0]), int(parts[1]))


def format_throw(dice: tuple[int, int]) -> str:
    """Format one throw: ``(6, 3)`` → ``"6-3"``."""
    return f"{dice[0]}-{dice[1]}"


def parse_throws(throws: str | Sequence[str]) -> tuple[tuple[int, int], ...]:
    """Parse comma-separated throws (``"6-3,4-5"``) or a list of single throws
    (``["6-3", "4-5"]``); blank text is no throws. Errors say which throw is wrong.

    >>> parse_throws(["6-3", "6-0"])
    Traceback (most recent call last):
    ...
    engine.errors.NotationError: throw 2: '6-0' is not a throw: a die shows 1 to 6, not 0
    """
    if isinstance(throws, str):
        throws = throws.split(",") if throws.strip() else []
    parsed = []
    for number, text in enumerate(throws, start=1):
        if not isinstance(text, str):
            raise NotationError(f"throw {number}: {text!r} is not a throw written like 6-3")
        try:
            parsed.append(parse_throw(text))
        except NotationError as error:
            raise NotationError(f"throw {number}: {error}") from None
    return tuple(parsed)


def format_throws(throws: Iterable[tuple[int, int]]) -> str:
    """Format throws comma-separated, the inverse of :func:`parse_throws`."""
    return ",".join(format_throw(dice) for dice in throws)
