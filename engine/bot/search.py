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
  A candidate is ruled out as soon as its replies prove it worse than the best one searched
  (:func:`_reply_value`): the same choice as judging every reply, with a fraction of the
  evaluations.

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
    """How far level 3 may go: the candidates it expands and a node (reply) budget."""

    candidates: int = 8
    """At most this many plays, the best by level-2 score, are searched two plies deep."""
    margin: int = WIN // 2
    """...and only those within this much (micro-points) of the best level-2 score."""
    nodes: int = 8_000
    """Replies generated in the two-ply search, all candidates together (most are never
    judged: see :func:`_reply_value`). A candidate whose replies would pass it is dropped
    before any is judged, so the work (and the time) is bounded by the budget, not by how
    many replies the dice happen to allow; the candidates searched decide."""


def _settled(mine: Side, his: Side) -> int | None:
    """My value (x36) when the game is decided before he throws: I bore off my last checker,
    or his postillon is blocked; ``None`` when his replies decide it."""
    if mine[OFF] == 15:
        return 36 * WIN * multiplier(his)
    if postillon_blocked(his, mine):
        return 36 * 4 * WIN
    return None


def _replies(mine: Side, his: Side, bearoff: str, budget: list[int]) -> list[list[Side]] | None:
    """His replies to each of the 21 rolls, counted against the node budget; ``None`` if the
    budget runs out first (the candidate is dropped)."""
    replies = []
    for roll, _weight in ROLLS:
        answers = successors(his, mine, roll, bearoff)
        budget[0] -= len(answers)
        if budget[0] < 0:
            return None
        replies.append(answers)
    return replies


def _reply_value(
    mine: Side,
    replies: Sequence[Sequence[Side]],
    weights: Weights,
    bound: int | None = None,
    probes: Sequence[Side] = (),
) -> tuple[int, list[Side]] | None:
    """Sum over the 21 rolls (x weight/36) of my value after his best reply to each, me to
    move, with those replies; ``None`` as soon as the sum is sure to be below ``bound``.

    Any reply's value bounds the least one of its roll from above, so one value a roll
    bounds the sum: the first guess for each roll is ``probes``' reply (his best one against
    the best play searched so far) where he may play it here too, as he mostly may, and it
    is mostly close to his best one here. Judging the replies roll by roll lowers the bound
    to the exact sum, unless it falls below ``bound`` first: the candidate is then strictly
    worse than one already searched, so the search chooses exactly what judging every reply
    would, at a fraction of the evaluations.
    """
    shown = [
        probes[roll] if probes and probes[roll] in answers else answers[0]
        for roll, answers in enumerate(replies)
    ]
    lows = [evaluate(mine, reply, weights) for reply in shown]
    total = sum(weight * low for (_roll, weight), low in zip(ROLLS, lows, strict=True))
    if bound is not None and total < bound:
        return None
    for roll, answers in enumerate(replies):
        weight = ROLLS[roll][1]
        low = lows[roll]
        for reply in answers:
            value = evaluate(mine, reply, weights)
            if value < low:
                total -= weight * (low - value)
                low = value
                shown[roll] = reply
                if bound is not None and total < bound:
                    return None
    return total, shown


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
    # The exact value of each candidate searched and not ruled out (one ruled out is below
    # one of these), and his best reply to each roll against the best of them.
    deep: dict[int, int] = {}
    probes: Sequence[Side] = ()
    for index in shortlist:
        if deep and deadline is not None and deadline():
            break
        settled = _settled(children[index], other)
        if settled is not None:
            deep[index] = settled
            continue
        replies = _replies(children[index], other, bearoff, budget)
        if replies is None:
            break
        bound = max(deep.values(), default=None)
        found = _reply_value(children[index], replies, weights, bound, probes)
        if found is not None:  # not ruled out: the best so far (or as good)
            deep[index], probes = found
    if len(deep) < 2:
        return first
    scores = [deep.get(i, -(1 << 60)) for i in range(len(children))]
    return _tie_break(scores, max(scores), seed, salt)
