"""Text notation for plays and dice (RULES 2.8): parse and format, round-trip.

>>> play = parse_play("1/7 7/12")
>>> format_play(play)
'1/7 7/12'
>>> format_play(parse_play("21/off 24/off")), format_play(parse_play("-"))
('21/off 24/off', '-')
>>> parse_dice("6-5"), format_dice((6, 5))
((6, 5), '6-5')
"""

from __future__ import annotations

from engine.errors import IllegalMoveError, NotationError
from engine.jacquet.move import OFF, Move, Play

PASS = "-"


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


def format_move(move: Move) -> str:
    """``"1/7"``, or ``"21/off"`` for a bear-off."""
    to = "off" if move.to_point == OFF else str(move.to_point)
    return f"{move.from_point}/{to}"


def parse_move(text: str) -> Move:
    """The move ``"from/to"`` (``to`` may be ``off``); :class:`NotationError` if malformed."""
    source, slash, target = text.partition("/")
    if not slash or not _is_number(source) or not (_is_number(target) or target == "off"):
        raise NotationError(f"{text!r} is not a move; write from/to, e.g. 1/7 or 21/off")
    try:
        return Move(int(source), OFF if target == "off" else int(target))
    except IllegalMoveError as error:
        raise NotationError(f"{text!r}: {error}") from None


def format_play(play: Play) -> str:
    """Moves separated by spaces, in the order played; ``"-"`` for a pass."""
    return " ".join(format_move(move) for move in play) if play else PASS


def parse_play(text: str) -> Play:
    """Parse ``"1/7 7/12"``, ``"21/off"`` or ``"-"`` (a pass)."""
    words = text.split()
    if words == [PASS]:
        return ()
    if not words:
        raise NotationError("empty play; write moves like 1/7 7/12, or - to pass")
    return tuple(parse_move(word) for word in words)


def format_dice(dice: tuple[int, int]) -> str:
    """``"6-5"``."""
    return f"{dice[0]}-{dice[1]}"


def parse_dice(text: str) -> tuple[int, int]:
    """Parse ``"6-5"``: two dice of 1-6."""
    first, dash, second = text.strip().partition("-")
    if not dash or not _is_number(first) or not _is_number(second):
        raise NotationError(f"{text!r} is not a throw; write two dice like 6-5")
    dice = (int(first), int(second))
    for die in dice:
        if not 1 <= die <= 6:
            raise NotationError(f"a die shows 1 to 6, not {die}")
    return dice
