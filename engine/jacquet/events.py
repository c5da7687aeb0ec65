"""What happened, in order: the events a Jacquet transition returns.

Clients animate and narrate from these alone, so each carries everything it says:
the seat it concerns, the dice, the move, the points scored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from engine.jacquet.move import Move


@dataclass(frozen=True, slots=True)
class OpeningThrown:
    """Each side threw one die for the start of game ``game``; ``starter`` is ``None``
    on a tie (they throw again)."""

    game: int
    white_die: int
    black_die: int
    starter: int | None


@dataclass(frozen=True, slots=True)
class Rolled:
    """``seat`` threw ``dice`` for his turn."""

    seat: int
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Moved:
    """``seat`` moved one checker by one die (``bear_off``: it left the board)."""

    seat: int
    move: Move
    bear_off: bool


@dataclass(frozen=True, slots=True)
class Passed:
    """``seat`` could play nothing with ``dice``; the dice are lost."""

    seat: int
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class PostillonBlocked:
    """``seat``'s postillon can never reach his last quarter: ``winner`` scores
    ``points`` (4); ``score`` is the match score after it."""

    seat: int
    winner: int
    points: int
    score: tuple[int, int]


@dataclass(frozen=True, slots=True)
class GameWon:
    """``winner`` bore off his 15th checker; ``multiplier`` (1-4) by the loser's rearmost
    checker, ``points`` added to his score, ``score`` the match score after it."""

    winner: int
    multiplier: int
    points: int
    score: tuple[int, int]


@dataclass(frozen=True, slots=True)
class MatchWon:
    """``winner`` reached the match length; ``score`` is the final (white, black) score."""

    winner: int
    score: tuple[int, int]


JacquetEvent: TypeAlias = (
    OpeningThrown | Rolled | Moved | Passed | PostillonBlocked | GameWon | MatchWon
)
