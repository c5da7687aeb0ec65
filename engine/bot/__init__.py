"""The Jacquet computer player: deterministic, three levels, pure like the rest of the engine.

>>> from engine.jacquet import Position, format_play
>>> format_play(choose_play(Position.initial(), (6, 5), level=3))
'1/7 7/12'

Levels (see :mod:`engine.bot.search`): 1 = quick heuristic, 2 = best position by the full
evaluation, 3 = two-ply expectimax over the 21 rolls with pruning and a node budget. The
same position, dice, level, seed and options give the same play on every machine; the seed
only breaks exact ties. Nothing here reads a clock: a caller that wants a time limit passes
``deadline``, a callable returning True once time is up.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.bot.board import Side, apply_moves
from engine.bot.search import SearchLimits, choose_index
from engine.bot.weights import TUNED, Weights
from engine.jacquet import BearOff, Play, Position, legal_plays

LEVELS = (1, 2, 3)

__all__ = ["LEVELS", "SearchLimits", "Weights", "choose_play", "sides_of"]


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
    deadline: Callable[[], bool] | None = None,
) -> Play:
    """The computer's play for ``dice``: always one of ``legal_plays(position, dice, bearoff)``.

    ``level`` is 1, 2 or 3; ``limits`` bounds level 3 (default :class:`SearchLimits`), and
    ``deadline``, if given, is polled between level 3's candidates.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be 1, 2 or 3, not {level!r}")
    plays = legal_plays(position, dice, bearoff)
    if len(plays) == 1:
        return plays[0]
    mover, other = sides_of(position)
    children = [
        apply_moves(mover, [(move.from_point, move.to_point) for move in play]) for play in plays
    ]
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
