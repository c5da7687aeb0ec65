"""What a game state is waiting for next: the one question every caller asks.

The protocol session, the local game loop and the replay all drive a game the same way:
look at ``state.awaiting`` and supply exactly that input.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ThrowDice:
    """``seat`` must throw ``count`` six-sided dice; pass them to the game's ``throw``."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class ChoosePlay:
    """Jacquet: ``seat`` must choose one of ``legal_plays`` for ``dice``."""

    seat: int
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class MissTurn:
    """Goose: ``seat`` misses this turn (``reason``: "inn", "well" or "prison"); no dice."""

    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class Finished:
    """The game (for Jacquet: the whole match) is over; the state says how."""


Awaiting = ThrowDice | ChoosePlay | MissTurn | Finished
