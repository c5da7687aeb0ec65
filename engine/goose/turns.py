"""A turn of play: one throw moved, geese repeated, bounce, hazard and meeting (RULES 1.4-1.7),
or a missed turn (RULES 1.8).

These functions trust their caller (:mod:`engine.goose.game`) to have checked that the state
awaits exactly this; they are the single place where the rules of a turn live.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from engine.goose import board
from engine.goose.events import (
    Blocked,
    Bounced,
    Bridge,
    Death,
    GooseEvent,
    GooseRepeat,
    Hazard,
    Held,
    Inn,
    Labyrinth,
    Met,
    MissedTurn,
    MissReason,
    Moved,
    OpeningNine,
    Paid,
    PaymentReason,
    Prison,
    Released,
    Thrown,
    Trap,
    Well,
    Won,
)
from engine.goose.state import FREE, GooseState, Outcome, Result, SeatStatus

_HAZARDS: Final[dict[int, tuple[Callable[[int], Hazard], PaymentReason]]] = {
    board.BRIDGE: (Bridge, "bridge"),
    board.INN: (Inn, "inn"),
    board.WELL: (Well, "well"),
    board.LABYRINTH: (Labyrinth, "labyrinth"),
    board.PRISON: (Prison, "prison"),
    board.DEATH: (Death, "death"),
}
_TRANSFERS: Final[dict[int, int]] = {
    board.BRIDGE: board.BRIDGE_EXIT,
    board.LABYRINTH: board.LABYRINTH_EXIT,
    board.DEATH: board.DEATH_EXIT,
}
_TRAPS: Final[dict[int, Trap]] = {board.WELL: "well", board.PRISON: "prison"}
_HELD: Final[tuple[SeatStatus, ...]] = tuple(_TRAPS.values())
# Why a seat that is not free misses its turn (its status, typed as a reason).
_MISS_REASONS: Final[dict[SeatStatus, MissReason]] = {
    "inn": "inn",
    "well": "well",
    "prison": "prison",
}


def count(seat: int, start: int, point: int, events: list[GooseEvent]) -> int:
    """Count *point* pips from *start*, bouncing at 63 and repeating on geese; return the end.

    Appends a :class:`Moved` for every count (and :class:`Bounced`, :class:`GooseRepeat`).

    >>> events = []
    >>> count(0, 10, 4, events), [type(e).__name__ for e in events]
    (22, ['Moved', 'GooseRepeat', 'Moved', 'GooseRepeat', 'Moved'])
    >>> count(0, 60, 7, []), count(0, 57, 9, [])
    (52, 60)
    """
    square = start
    forward = True
    while True:
        if not forward:
            end = square - point
            path = tuple(range(square - 1, end - 1, -1))
            events.append(Moved(seat, square, end, point, path))
        elif square + point <= board.GOAL:
            end = square + point
            events.append(Moved(seat, square, end, point, tuple(range(square + 1, end + 1))))
        else:
            excess = square + point - board.GOAL
            end = board.GOAL - excess
            path = tuple(range(square + 1, board.GOAL + 1)) + tuple(
                range(board.GOAL - 1, end - 1, -1)
            )
            events.append(Moved(seat, square, end, point, path))
            events.append(Bounced(seat, excess, end))
            forward = False
        if not board.is_goose(end):
            return end
        events.append(GooseRepeat(seat, end, point, forward))
        square = end


class _Table:
    """The board while one throw is worked out: mutable copies of the state's tuples."""

    __slots__ = ("events", "fee", "paid", "pot", "squares", "state", "status")

    def __init__(self, state: GooseState, events: list[GooseEvent]) -> None:
        self.state = state
        self.events = events
        self.fee = state.options.fee
        self.squares = list(state.squares)
        self.status = list(state.status)
        self.paid = list(state.paid)
        self.pot = state.pot

    def pay_fee(self, seat: int, reason: PaymentReason) -> None:
        if self.fee:
            self.paid[seat] += self.fee
            self.pot += self.fee
            self.events.append(Paid(seat, self.fee, reason))

    def outcome(
        self, payouts: tuple[int, ...] | None = None, result: Result | None = None
    ) -> Outcome:
        """The state after this throw: the turn passes on, unless the game just ended."""
        state = self.state
        seat = state.to_move
        over = result is not None
        return Outcome(
            GooseState(
                options=state.options,
                phase="over" if over else "play",
                squares=tuple(self.squares),
                status=tuple(self.status),
                paid=tuple(self.paid),
                payouts=state.payouts if payouts is None else payouts,
                pot=self.pot,
                to_move=seat if over else (seat + 1) % state.options.players,
                turn_number=state.turn_number + 1,
                contenders=(),
                lot_points=(),
                winner=seat if result == "win" else None,
                result=result,
            ),
            tuple(self.events),
        )


def take_throw(state: GooseState, dice: tuple[int, int]) -> Outcome:
    """Play *dice* (already validated) for ``state.to_move``, who is free to throw."""
    seat = state.to_move
    start = state.squares[seat]
    point = dice[0] + dice[1]
    events: list[GooseEvent] = [Thrown(seat, dice, point)]

    opening = board.OPENING_NINES.get(dice) if start == board.START else None
    if opening is not None:
        end = opening
        events.append(OpeningNine(seat, dice, end))
    else:
        end = count(seat, start, point, events)
    table = _Table(state, events)
    players = state.options.players

    if end == board.GOAL:
        table.squares[seat] = end
        events.append(Won(seat, table.pot))
        payouts = tuple(table.pot if other == seat else 0 for other in range(players))
        return table.outcome(payouts, "win")

    hazard = _HAZARDS.get(end)
    if hazard is not None:
        make_event, reason = hazard
        events.append(make_event(seat))
        table.pay_fee(seat, reason)
        end = _TRANSFERS.get(end, end)
    table.squares[seat] = end

    trap = _TRAPS.get(end)
    if trap is not None:
        _hold(table, seat, trap, start, end)
        if all(seat_status in _HELD for seat_status in table.status):
            shares = table.pot // players
            events.append(Blocked((shares,) * players, table.pot - shares * players))
            return table.outcome((shares,) * players, "blocked")
    elif end != board.START:
        if end == board.INN:
            table.status[seat] = "inn"
        if state.options.rules == "daumont":
            _meet(table, seat, start, end)
    return table.outcome()


def _hold(table: _Table, seat: int, trap: Trap, start: int, end: int) -> None:
    """RULES 1.5: whoever was held in *trap* is placed on *start*; *seat* is held instead."""
    for other, other_status in enumerate(table.status):
        if other_status == trap:
            table.status[other] = FREE
            table.squares[other] = start
            table.events.append(Released(other, trap, seat, start))
    table.status[seat] = trap
    table.events.append(Held(seat, trap, end))


def _meet(table: _Table, seat: int, start: int, end: int) -> None:
    """Daumont (RULES 1.6): whoever stands on *end* pays the fee and is placed on *start*,
    no longer waiting at the inn."""
    for other, square in enumerate(table.squares):
        if square == end and other != seat:
            left_inn = table.status[other] == "inn"
            table.status[other] = FREE
            table.squares[other] = start
            table.events.append(Met(seat, other, end, start, left_inn))
            table.pay_fee(other, "met")


def skip_turn(state: GooseState) -> Outcome:
    """``state.to_move`` is at the inn or held: his turn passes and consumes no dice."""
    seat = state.to_move
    reason = _MISS_REASONS[state.status[seat]]
    status = state.status
    if reason == "inn":
        status = (*status[:seat], FREE, *status[seat + 1 :])
    return Outcome(
        GooseState(
            options=state.options,
            phase="play",
            squares=state.squares,
            status=status,
            paid=state.paid,
            payouts=state.payouts,
            pot=state.pot,
            to_move=(seat + 1) % state.options.players,
            turn_number=state.turn_number + 1,
            contenders=(),
            lot_points=(),
            winner=None,
            result=None,
        ),
        (MissedTurn(seat, reason),),
    )
