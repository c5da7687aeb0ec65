"""Level 4: the equity network at one ply with a move filter, and two plies where time allows.

Every candidate play is first judged at one ply: the equity, for me, of the position it
leaves the other side to roll from (:func:`engine.bot.equity.probabilities`, seen from his
side and flipped). The best few (``candidates``, only those within ``margin`` of the best —
GNU Backgammon's move filter) are then searched a ply deeper: for each of the 21 rolls the
other side makes the reply that is best for him at one ply, and the candidate is worth the
average, over the 36 throws, of what those replies leave me. A node budget (positions
judged at the second ply) bounds the work: the best one-ply candidate is searched first, a
candidate whose search the budget cuts short is dropped, and the candidates that were fully
searched decide — the best one-ply play, if even it could not be searched.

:func:`rank` returns every candidate with its probabilities, equity and the ply that judged
it, best first: the computer player takes the first, the analysis compares the play made
with it (:mod:`engine.bot.analysis`).

>>> from engine.bot.board import apply_moves, initial_side, successors
>>> mine = apply_moves(initial_side(), [(1, 21)])  # my postillon is home: all may move
>>> his = apply_moves(initial_side(), [(1, 9)])
>>> children = successors(mine, his, (6, 1))
>>> ranked = rank(his, children, limits=NetLimits(margin=ONE))  # every candidate in reach
>>> sorted(c.index for c in ranked) == list(range(len(children))), len(children) > 2
(True, True)
>>> ranked[0].ply, ranked[0].equity >= ranked[1].equity
(2, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.bot.board import OFF, Side, postillon_blocked, successors
from engine.bot.equity import ONE, Oracle, oracle, probabilities
from engine.bot.net import NETWORK, POINTS, Network, flipped, outcome_equity
from engine.bot.rolls import ROLLS


@dataclass(frozen=True, slots=True)
class NetLimits:
    """How far level 4 looks: the move filter and the second ply's node budget."""

    plies: int = 2
    """1: the network's one-ply judgement alone; 2: the filtered candidates a ply deeper."""
    candidates: int = 4
    """At most this many plays, the best at one ply, are searched at the second."""
    margin: int = ONE * 10 // 100
    """...and only those within this much equity (micro-points) of the best."""
    nodes: int = 4_000
    """Positions judged at the second ply; a candidate that would pass it is not searched."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One play's value for the side making it: ``index`` in the caller's list of children,
    its outcome ``probabilities`` (millionths, :data:`~engine.bot.net.OUTCOMES`), their
    ``equity`` (micro-points) and the ``ply`` that judged it."""

    index: int
    probabilities: tuple[int, ...]
    equity: int
    ply: int


def one_ply(other: Side, child: Side, network: Network = NETWORK) -> tuple[int, ...]:
    """My outcome probabilities after a play leaving my side as ``child``, him to roll."""
    return flipped(probabilities(other, child, network))


def _two_ply(
    other: Side, child: Side, network: Network, budget: list[int]
) -> tuple[int, ...] | None:
    """My probabilities averaged over his 21 rolls and best replies (``None``: budget out)."""
    if child[OFF] == 15 or postillon_blocked(other, child):
        return one_ply(other, child, network)
    total = [0] * len(POINTS)
    mine_sum = network.side_sum(child, 0)
    for roll, weight in ROLLS:
        replies = successors(other, child, roll)
        budget[0] -= len(replies)
        if budget[0] < 0:
            return None
        best: tuple[int, ...] | None = None
        best_equity = 0
        for reply in replies:
            if oracle(child, reply) is Oracle.NETWORK:
                mine = network.from_sums(
                    mine_sum, network.side_sum(reply, 1), network.cross_sum(child, reply)
                )
            else:
                mine = probabilities(child, reply, network)
            value = outcome_equity(mine)
            if best is None or value < best_equity:
                best, best_equity = mine, value
        assert best is not None
        for k, p in enumerate(best):
            total[k] += weight * p
    averaged = [value // 36 for value in total]
    averaged[averaged.index(max(averaged))] += ONE - sum(averaged)
    return tuple(averaged)


def rank(
    other: Side,
    children: Sequence[Side],
    *,
    limits: NetLimits | None = None,
    network: Network = NETWORK,
    include: Sequence[int] = (),
    deadline: Callable[[], bool] | None = None,
) -> list[Candidate]:
    """Every child as a :class:`Candidate`, best first (ties: lower index first).

    ``children[i]`` is the mover's side after the i-th play; ``other`` is the side that rolls
    next. ``include`` names children to search at the second ply whatever the filter says
    (the analysis adds the play that was made), budget permitting; ``deadline``, if given, is
    polled before each second-ply search.
    """
    limits = limits or NetLimits()
    first = [
        Candidate(i, p, outcome_equity(p), 1)
        for i, p in enumerate(one_ply(other, child, network) for child in children)
    ]
    ranked = sorted(first, key=lambda c: (-c.equity, c.index))
    if limits.plies < 2 or len(children) < 2:
        return ranked
    best = ranked[0].equity
    shortlist = [c.index for c in ranked[: limits.candidates] if c.equity >= best - limits.margin]
    shortlist += [i for i in include if i not in shortlist]
    budget = [limits.nodes]
    deeper: dict[int, Candidate] = {}
    for index in shortlist:
        if deeper and deadline is not None and deadline():
            break
        found = _two_ply(other, children[index], network, budget)
        if found is None:
            break
        deeper[index] = Candidate(index, found, outcome_equity(found), 2)
    if len(deeper) < 2:
        return ranked
    searched = sorted(deeper.values(), key=lambda c: (-c.equity, c.index))
    return searched + [c for c in ranked if c.index not in deeper]
