"""The Jacquet computer player: deterministic, four levels, pure like the rest of the engine.

>>> from engine.jacquet import Position, format_play
>>> format_play(choose_play(Position.initial(), (6, 5), level=3))
'1/7 7/12'

Levels (see :mod:`engine.bot.search` and :mod:`engine.bot.netsearch`): 1 = quick heuristic,
2 = best position by the full evaluation, 3 = two-ply expectimax over the 21 rolls with
pruning and a node budget, 4 = the equity network (:mod:`engine.bot.net`) at one ply with a
move filter, then two plies within a node budget. The
same position, dice, level, seed and options give the same play on every machine; the seed
only breaks exact ties. Nothing here reads a clock: a caller that wants a time limit passes
``deadline``, a callable returning True once time is up.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.bot.board import Side, apply_moves
from engine.bot.netsearch import NetLimits, rank
from engine.bot.search import SearchLimits, choose_index, tie_break
from engine.bot.weights import TUNED, Weights
from engine.jacquet import BearOff, Play, Position, legal_plays

LEVELS = (1, 2, 3, 4)
NET_LEVEL = 4
"""The level played by the equity network."""

__all__ = ["LEVELS", "NET_LEVEL", "NetLimits", "SearchLimits", "Weights", "choose_play", "sides_of"]


def sides_of(position: Position) -> tuple[Side, Side]:
    """The mover's and the other side's compact counts (:mod:`engine.bot.board`)."""
    mover = position.turn
    return (
        (0, *position.points(mover), position.borne_off(mover)),
        (0, *position.points(1 - mover), position.borne_off(1 - mover)),
    )


def choose_play(
    position: Position,
    dice: tuple[int, int],
    *,
    level: int = 1,
    seed: int = 0,
    bearoff: BearOff = "backgammon",
    weights: Weights = TUNED,
    limits: SearchLimits | None = None,
    net_limits: NetLimits | None = None,
    deadline: Callable[[], bool] | None = None,
) -> Play:
    """The computer's play for ``dice``: always one of ``legal_plays(position, dice, bearoff)``.

    ``level`` is 1 to 4; ``limits`` bounds level 3 (default :class:`SearchLimits`),
    ``net_limits`` level 4 (default :class:`NetLimits`), and ``deadline``, if given, is
    polled between the candidates level 3 or 4 searches deeply.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be 1, 2, 3 or 4, not {level!r}")
    plays = legal_plays(position, dice, bearoff)
    if len(plays) == 1:
        return plays[0]
    mover, other = sides_of(position)
    children = [
        apply_moves(mover, [(move.from_point, move.to_point) for move in play]) for play in plays
    ]
    if level == NET_LEVEL:
        ranked = rank(other, children, limits=net_limits, deadline=deadline)
        top = [c.index for c in ranked if c.equity == ranked[0].equity and c.ply == ranked[0].ply]
        return plays[tie_break(top, seed, mover, other)]
    index = choose_index(
        mover,
        other,
        children,
        level=level,
        seed=seed,
        bearoff=bearoff,
        weights=weights,
        limits=limits,
        deadline=deadline,
    )
    return plays[index]
