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

from collections.abc import Iterable

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


def parse_throws(text: str) -> tuple[tuple[int, int], ...]:
    """Parse comma-separated throws; an empty or blank text is no throws at all."""
    if not text.strip():
        return ()
    return tuple(parse_throw(item) for item in text.split(","))


def format_throws(throws: Iterable[tuple[int, int]]) -> str:
    """Format throws comma-separated, the inverse of :func:`parse_throws`."""
    return ",".join(format_throw(dice) for dice in throws)
