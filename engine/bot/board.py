"""The computer player's compact Jacquet board and its fast successor generator.

The search visits tens of thousands of positions a move, so it works on plain tuples
instead of :class:`engine.jacquet.Position` objects. A *side* is a 26-tuple of checker
counts on that side's own track: index 1-24 are its points, index 25 counts the checkers
borne off, index 0 is always 0. A board is the pair ``(mover, other)``.

The successor generator follows docs/rules.md §2 (postillon rule checked before each die,
forced maximum dice, the higher-die rule, both bear-off options) and is checked against
the engine's ``legal_plays`` — the one source of truth — by ``tests/bot``. The search only
uses it below the root; the play it returns always comes from ``legal_plays`` itself.

>>> start = initial_side()
>>> sorted(p for p in range(1, 25) if start[p])
[1]
>>> [s[7] for s in successors(start, start, (6, 6))]  # opening 6-6: 1/7 and nothing more
[1]
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress

Side = tuple[int, ...]
"""Checker counts on a side's own track: ``side[p]`` for p in 1-24, ``side[25]`` borne off."""

OFF = 25
HOME = range(19, 25)
POINTS = range(1, 25)

OPPOSITE: tuple[int, ...] = (0, *(p + 12 if p <= 12 else p - 12 for p in range(1, 25)))
"""``OPPOSITE[p]``: the other side's number for my point ``p`` (RULES 2.1; an involution)."""


RUN_AHEAD: tuple[int, ...] = tuple(
    len(bin(x | 128)) - len(bin(x | 128).rstrip("1")) for x in range(64)
)
"""``RUN_AHEAD[x]``: the run of closed points straight ahead, for the six points ahead as bits
(bit 0 the next point)."""
CLOSED_AHEAD: tuple[int, ...] = tuple(bin(x).count("1") for x in range(64))
"""``CLOSED_AHEAD[x]``: how many of the six points ahead are closed."""
_LOW, _HIGH = sum(1 << p for p in range(1, 13)), sum(1 << p for p in range(13, 25))


def closed_to(other_mask: int) -> int:
    """The points of my track the other side holds, as bits (bit ``p``: my point ``p``), from
    the mask of the points he holds on his own track: his point r is my r + 12 (r <= 12) or
    r - 12 (:data:`OPPOSITE`), a half turn of the mask.

    >>> closed_to(1 << 1) == 1 << 13 and closed_to(1 << 24) == 1 << 12
    True
    """
    return ((other_mask & _LOW) << 12) | ((other_mask & _HIGH) >> 12)


def initial_side() -> Side:
    """Fifteen checkers on the talon (point 1)."""
    return (0, 15, *([0] * 24))


def closed_points(other: Side) -> tuple[bool, ...]:
    """``closed[p]`` for p in 0-24: whether ``other`` holds my point ``p`` (index 0 unused)."""
    return (False, *(other[OPPOSITE[p]] > 0 for p in range(1, 25)))


def under_postillon_rule(side: Side) -> bool:
    """RULES 2.4: no checker in 19-24 and none borne off, so only one checker may move."""
    return side[OFF] == 0 and not any(side[19:25])


def postillon_point(side: Side) -> int:
    """The point of the checker that left the talon (1 while all are still there)."""
    for point in range(24, 1, -1):
        if side[point]:
            return point
    return 1


def postillon_blocked(side: Side, other: Side) -> bool:
    """RULES 2.4's block: under the postillon rule and no open path of single-die steps home.

    >>> other = (0, 0, *([0] * 12), 1, 1, 1, 1, 1, 1, *([0] * 5), 0)  # his 14-19 = my 2-7
    >>> postillon_blocked(initial_side(), other)
    True
    """
    if not under_postillon_rule(side):
        return False
    closed = closed_points(other)
    start = postillon_point(side)
    seen = [False] * 25
    stack = [start]
    while stack:
        point = stack.pop()
        for target in range(point + 1, min(point + 6, 24) + 1):
            if closed[target] or seen[target]:
                continue
            if target >= 19:
                return False
            seen[target] = True
            stack.append(target)
    return True


def _single_steps(
    side: Side, excess: int, die: int, closed: Sequence[bool], into: dict[Side, int]
) -> None:
    """Add to ``into`` every side reachable from ``side`` by moving one checker ``die``
    points, with the *excess* bear-offs (a die larger than the checker's distance to off)
    played to reach it: ``excess`` so far, plus this one's. ``into`` keeps the fewest."""
    froms: Sequence[int]
    if under_postillon_rule(side):
        froms = (postillon_point(side),)
        all_home = False  # the talon is not home
    else:
        froms = list(compress(POINTS, side[1:25]))  # ascending: froms[0] is the lowest
        all_home = bool(froms) and froms[0] >= 19
    for point in froms:
        target = point + die
        total = excess
        if target <= 24:
            if closed[target]:
                continue
        elif not all_home or (target > OFF and point != froms[0]):
            # Off only when all are home; an excess die only from the lowest occupied point.
            continue
        else:
            if target > OFF:
                total += 1
            target = OFF
        counts = list(side)
        counts[point] -= 1
        counts[target] += 1
        child = tuple(counts)
        if into.setdefault(child, total) > total:
            into[child] = total


def successors(
    side: Side, other: Side, dice: tuple[int, int], bearoff: str = "backgammon"
) -> list[Side]:
    """The distinct sides ``side`` can reach with ``dice`` against ``other`` (RULES 2.3-2.6).

    A pass yields ``[side]``. The order is deterministic (first reached first).

    >>> len(successors(initial_side(), initial_side(), (6, 5)))  # 1/7 7/12 = 1/6 6/12
    1
    """
    closed = closed_points(other)
    high, low = max(dice), min(dice)
    orders = [(high,) * 4] if high == low else [(high, low), (low, high)]
    # For each order of the dice, the states after each die: state -> fewest excess
    # bear-offs reaching it (dicts keep the order states were first reached in).
    reached: list[list[dict[Side, int]]] = []
    for order in orders:
        layers: list[dict[Side, int]] = []
        frontier: dict[Side, int] = {side: 0}
        for die in order:
            nxt: dict[Side, int] = {}
            for state, excess in frontier.items():
                _single_steps(state, excess, die, closed, nxt)
            if not nxt:
                break
            layers.append(nxt)
            frontier = nxt
        reached.append(layers)
    deepest = max(len(layers) for layers in reached)
    if not deepest:
        return [side]
    # RULES 2.5: as many dice as can be played; the states of every order that plays them.
    chosen: dict[Side, int] = {}
    for layers in reached:
        if len(layers) == deepest:
            for state, excess in layers[-1].items():
                if chosen.setdefault(state, excess) > excess:
                    chosen[state] = excess
    if deepest == 1 and high != low and reached[0]:
        # Only one die playable: the higher one if it can be played at all (RULES 2.5).
        chosen = {s: e for s, e in chosen.items() if s in reached[0][0]}
    if bearoff == "trictrac":
        fewest = min(chosen.values())
        return [s for s, e in chosen.items() if e == fewest]
    return list(chosen)


def apply_moves(side: Side, moves: Sequence[tuple[int, int]]) -> Side:
    """``side`` after the ``(from, to)`` moves of a play (``to`` = 25 for off).

    >>> apply_moves(initial_side(), [(1, 7), (7, 12)])[12]
    1
    """
    counts = list(side)
    for start, end in moves:
        counts[start] -= 1
        counts[min(end, OFF)] += 1
    return tuple(counts)
