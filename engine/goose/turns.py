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
_HELD: Final[tuple[SeatStatus, ...]] = ("well", "prison")
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


def take_throw(state: GooseState, dice: tuple[int, int]) -> Outcome:
    """Play *dice* (already validated) for ``state.to_move``, who is free to throw."""
    options = state.options
    seat = state.to_move
    fee = options.fee
    squares = list(state.squares)
    status = list(state.status)
    paid = list(state.paid)
    pot = state.pot
    start = squares[seat]
    point = dice[0] + dice[1]
    events: list[GooseEvent] = [Thrown(seat, dice, point)]

    opening = board.OPENING_NINES.get(dice) if start == board.START else None
    if opening is not None:
        end = opening
        events.append(OpeningNine(seat, dice, end))
    else:
        end = count(seat, start, point, events)

    if end == board.GOAL:
        squares[seat] = end
        events.append(Won(seat, pot))
        payouts = [0] * options.players
        payouts[seat] = pot
        return _next(state, events, squares, status, paid, pot, payouts, seat, "win")

    hazard = _HAZARDS.get(end)
    if hazard is not None:
        make_event, reason = hazard
        events.append(make_event(seat))
        if fee:
            paid[seat] += fee
            pot += fee
            events.append(Paid(seat, fee, reason))
        trap = _TRAPS.get(end)
        if trap is not None:
            for other, other_status in enumerate(status):
                if other_status == trap:
                    status[other] = FREE
                    squares[other] = start
                    events.append(Released(other, trap, seat, start))
            status[seat] = trap
            events.append(Held(seat, trap, end))
        elif end == board.INN:
            status[seat] = "inn"
        end = _TRANSFERS.get(end, end)
    squares[seat] = end

    if options.rules == "daumont" and end != board.START and end not in _TRAPS:
        for other, square in enumerate(squares):
            if square == end and other != seat:
                left_inn = status[other] == "inn"
                status[other] = FREE
                squares[other] = start
                events.append(Met(seat, other, end, start, left_inn))
                if fee:
                    paid[other] += fee
                    pot += fee
                    events.append(Paid(other, fee, "met"))

    if all(seat_status in _HELD for seat_status in status):
        shares = pot // options.players
        unclaimed = pot - shares * options.players
        events.append(Blocked((shares,) * options.players, unclaimed))
        payouts = [shares] * options.players
        return _next(state, events, squares, status, paid, pot, payouts, None, "blocked")
    return _next(state, events, squares, status, paid, pot, None, None, None)


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


def _next(
    state: GooseState,
    events: list[GooseEvent],
    squares: list[int],
    status: list[SeatStatus],
    paid: list[int],
    pot: int,
    payouts: list[int] | None,
    winner: int | None,
    result: Result | None,
) -> Outcome:
    """The state after a throw: the turn passes to the next seat unless the game ended."""
    seat = state.to_move
    return Outcome(
        GooseState(
            options=state.options,
            phase="play" if result is None else "over",
            squares=tuple(squares),
            status=tuple(status),
            paid=tuple(paid),
            payouts=state.payouts if payouts is None else tuple(payouts),
            pot=pot,
            to_move=seat if result is not None else (seat + 1) % state.options.players,
            turn_number=state.turn_number + 1,
            contenders=(),
            lot_points=(),
            winner=winner,
            result=result,
        ),
        tuple(events),
    )
