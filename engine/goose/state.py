"""The state of a Goose game: immutable, canonical, and able to say what it awaits.

States come from :func:`engine.goose.new_game` and the transitions in
:mod:`engine.goose.game`; callers read them, never build them.

The ledger: ``paid[seat]`` is every token the seat put in (ante included) and ``pot`` is
their sum — it never shrinks. When the game ends, ``payouts[seat]`` is what each seat took
out of it (the whole pot for the winner; equal shares when blocked), so a seat's balance is
``payouts[seat] - paid[seat]`` and ``pot - sum(payouts)`` is what nobody could claim.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.awaiting import Finished, MissTurn, ThrowDice
from engine.canonical import Canonical
from engine.goose.events import GooseEvent
from engine.goose.options import GooseOptions

Phase = Literal["lots", "play", "over"]
Result = Literal["win", "blocked"]
SeatStatus = Literal["free", "inn", "well", "prison"]
"""``free`` throws when his turn comes; ``inn`` misses his next turn, then is free;
``well`` and ``prison`` miss every turn until another player's throw frees them."""

FREE: SeatStatus = "free"
DICE_PER_THROW = 2


@dataclass(frozen=True, slots=True)
class GooseState:
    """One moment of a Goose game. Per-seat tuples are indexed by seat (0 … players - 1).

    ``contenders`` and ``lot_points`` describe the current round of lots (RULES 1.3): the
    seats throwing in it, and the points thrown so far, in seat order. ``turn_number`` counts
    the turns taken or missed since play began.
    """

    options: GooseOptions
    phase: Phase
    squares: tuple[int, ...]
    status: tuple[SeatStatus, ...]
    paid: tuple[int, ...]
    payouts: tuple[int, ...]
    pot: int
    to_move: int
    turn_number: int
    contenders: tuple[int, ...]
    lot_points: tuple[int, ...]
    winner: int | None
    result: Result | None

    @property
    def awaiting(self) -> ThrowDice | MissTurn | Finished:
        """What the game needs next: dice for ``to_move``, a missed turn, or nothing."""
        if self.phase == "over":
            return Finished()
        status = self.status[self.to_move]
        if status == FREE:
            return ThrowDice(self.to_move, DICE_PER_THROW)
        return MissTurn(self.to_move, status)

    @property
    def balances(self) -> tuple[int, ...]:
        """Each seat's net tokens: what it took out of the pot minus what it put in."""
        return tuple(out - put for out, put in zip(self.payouts, self.paid, strict=True))

    def canonical(self) -> Canonical:
        """Every field as nested tuples of int/str/None, for canonical bytes and hashing."""
        return (
            "goose",
            self.options.canonical(),
            self.phase,
            self.squares,
            self.status,
            self.paid,
            self.payouts,
            self.pot,
            self.to_move,
            self.turn_number,
            self.contenders,
            self.lot_points,
            self.winner,
            self.result,
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    """A transition's result: the new state and what happened, in order."""

    state: GooseState
    events: tuple[GooseEvent, ...]
