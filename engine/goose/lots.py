"""The lots for the order of play (RULES 1.3): highest point first, ties throw again.

Lot throws move nobody and cost nothing; once one seat is highest, play starts with him
and goes round the seats in order.
"""

from __future__ import annotations

from dataclasses import replace

from engine.goose.events import GooseEvent, LotThrown, LotTied, OrderDecided
from engine.goose.state import GooseState, Outcome


def throw_lot(state: GooseState, dice: tuple[int, int]) -> Outcome:
    """Record ``state.to_move``'s lot *dice* (already validated); settle the round if complete."""
    seat = state.to_move
    point = dice[0] + dice[1]
    points = (*state.lot_points, point)
    contenders = state.contenders
    events: list[GooseEvent] = [LotThrown(seat, dice, point)]
    if len(points) < len(contenders):
        return Outcome(
            replace(state, lot_points=points, to_move=contenders[len(points)]), tuple(events)
        )
    best = max(points)
    tied = tuple(s for s, p in zip(contenders, points, strict=True) if p == best)
    if len(tied) > 1:
        events.append(LotTied(tied, best))
        return Outcome(
            replace(state, contenders=tied, lot_points=(), to_move=tied[0]), tuple(events)
        )
    events.append(OrderDecided(tied[0]))
    return Outcome(
        replace(state, phase="play", contenders=(), lot_points=(), to_move=tied[0]),
        tuple(events),
    )
