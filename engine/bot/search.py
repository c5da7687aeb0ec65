"""Choosing among a turn's candidate plays: the three levels of the computer player.

The search works on compact sides (:mod:`engine.bot.board`); the caller supplies, in the
engine's ``legal_plays`` order, the side each legal play leads to, and gets back an index.

* Level 1 scores each play with the quick evaluation: the race with stragglers and the
  exact bear-off, the postillon and its block risk, x1-x4, immediate wins; none of the
  structural terms (closed points ahead, stacks).
* Level 2 scores each play with the full evaluation of the position it leads to.
* Level 3 is expectimax two plies deep: for each candidate, the other side's best reply to
  each of the 21 distinct rolls (weighted 1/36 for doubles, 2/36 otherwise), scored by the
  full evaluation with me to move. Candidates are pruned first by their level-2 score (the
  best few, and only those near the best), and a node budget — or a caller's ``deadline``
  callable — bounds the worst case: when it runs out, the candidates already searched decide.

Ties are broken by a draw from :class:`~engine.bot.prng.SplitMix64` seeded by ``seed`` and
the position, so the same inputs give the same play on every machine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.bot.board import OFF, Side, postillon_blocked, successors
from engine.bot.evaluate import WIN, evaluate, multiplier
from engine.bot.prng import SplitMix64, mix64
from engine.bot.rolls import ROLLS
from engine.bot.weights import TUNED, Weights


@dataclass(frozen=True, slots=True)
class SearchLimits:
    """How far level 3 may go: the candidates it expands and a node (evaluation) budget."""

    candidates: int = 8
    """At most this many plays, the best by level-2 score, are searched two plies deep."""
    margin: int = WIN // 2
    """...and only those within this much (micro-points) of the best level-2 score."""
    nodes: int = 8_000
    """Replies judged in the two-ply search, all candidates together. A candidate whose
    search would pass it is dropped, so the work (and the time) is bounded by the budget,
    not by how many replies the dice happen to allow; the candidates fully searched decide."""


def _reply_value(
    mine: Side, his: Side, bearoff: str, weights: Weights, budget: list[int]
) -> int | None:
    """Sum over the 21 rolls (x weight/36) of my value after his best reply, me to move;
    ``None`` if the budget runs out first."""
    if mine[OFF] == 15:
        return 36 * WIN * multiplier(his)
    if postillon_blocked(his, mine):
        return 36 * 4 * WIN
    total = 0
    for roll, weight in ROLLS:
        worst = 8 * WIN
        replies = successors(his, mine, roll, bearoff)
        budget[0] -= len(replies)
        if budget[0] < 0:
            return None
        for reply in replies:
            value = evaluate(mine, reply, weights)
            if value < worst:
                worst = value
        total += weight * worst
    return total


def _tie_break(scores: Sequence[int], best: int, seed: int, salt: int) -> int:
    tied = [i for i, score in enumerate(scores) if score == best]
    if len(tied) == 1:
        return tied[0]
    return tied[SplitMix64(mix64(seed) ^ salt).below(len(tied))]


def tie_break(tied: Sequence[int], seed: int, side: Side, other: Side) -> int:
    """One of ``tied`` (indices of exactly equal plays), drawn as levels 1-3 draw theirs."""
    if len(tied) == 1:
        return tied[0]
    return tied[SplitMix64(mix64(seed) ^ _salt(side, other)).below(len(tied))]


def _salt(side: Side, other: Side) -> int:
    """A machine-independent digest of the position (Python's ``hash`` may differ)."""
    digest = 0
    for count in (*side, *other):
        digest = mix64(digest * 31 + count)
    return digest


def choose_index(
    side: Side,
    other: Side,
    children: Sequence[Side],
    *,
    level: int = 1,
    seed: int = 0,
    bearoff: str = "backgammon",
    weights: Weights = TUNED,
    limits: SearchLimits | None = None,
    deadline: Callable[[], bool] | None = None,
) -> int:
    """Index in ``children`` of the play to make: ``side`` (to move) against ``other``.

    ``children[i]`` is ``side`` after the i-th legal play; ``other`` is unchanged by it.

    >>> from engine.bot.board import initial_side, successors
    >>> start = initial_side()
    >>> kids = successors(start, start, (3, 1))  # 1/4 4/5, 1/2 2/5 ... one checker only
    >>> choose_index(start, start, kids, level=2) in range(len(kids))
    True
    """
    if level not in (1, 2, 3):
        raise ValueError(f"level must be 1, 2 or 3, not {level}")
    if not children:
        raise ValueError("no candidate plays")
    salt = _salt(side, other)
    quick = level == 1
    static = [-evaluate(other, child, weights, quick=quick) for child in children]
    best_static = max(static)
    if level < 3 or len(children) == 1:
        return _tie_break(static, best_static, seed, salt)
    limits = limits or SearchLimits()
    # Level 2's choice is searched first: a search cut short falls back on it.
    first = _tie_break(static, best_static, seed, salt)
    order = sorted(range(len(children)), key=lambda i: (i != first, -static[i], i))
    shortlist = [i for i in order[: limits.candidates] if static[i] >= best_static - limits.margin]
    budget = [limits.nodes]
    deep: dict[int, int] = {}
    for index in shortlist:
        if deep and deadline is not None and deadline():
            break
        value = _reply_value(children[index], other, bearoff, weights, budget)
        if value is None:
            break
        deep[index] = value
    if len(deep) < 2:
        return first
    scores = [deep.get(i, -(1 << 60)) for i in range(len(children))]
    return _tie_break(scores, max(scores), seed, salt)
