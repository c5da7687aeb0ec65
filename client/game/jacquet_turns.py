"""The Jacquet turns of a replayed log: the position before each roll, the dice, the play.

Both the analysis of a log (``tablier analyze``, :mod:`client.commands.analyze_log`) and the
replay screen's coach (:mod:`client.widgets.coach`) take the plays to judge from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.bot.analysis import Turn
from engine.jacquet import Moved, Passed, Rolled


def jacquet_turns(steps: Sequence[tuple[Any, Any]]) -> list[Turn]:
    """Every roll of a Jacquet replay: position before it, dice, the play made (or a pass).

    A roll whose play never came (the log ends, or the player resigned) is left out.
    """
    return [turn for _index, turn in indexed_jacquet_turns(steps)]


def indexed_jacquet_turns(steps: Sequence[tuple[Any, Any]]) -> list[tuple[int, Turn]]:
    """:func:`jacquet_turns`, each with the index of the step that completed it (where a
    replay shows the play made)."""
    turns: list[tuple[int, Turn]] = []
    pending: Turn | None = None
    for index, (before, step) in enumerate(steps):
        moves = []
        for event in step.events:
            if isinstance(event, Rolled):
                pending = Turn(before.game, event.seat, before.position, event.dice, (),
                               before.options.bearoff)  # fmt: skip
            elif isinstance(event, Passed) and pending is not None:
                turns.append((index, pending))
                pending = None
            elif isinstance(event, Moved):
                moves.append(event.move)
        if moves and pending is not None:
            turns.append((index, Turn(pending.game, pending.seat, pending.position, pending.dice,
                                      tuple(moves), pending.bearoff)))  # fmt: skip
            pending = None
    return turns
