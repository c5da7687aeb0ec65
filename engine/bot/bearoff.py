"""Exact one-sided bear-off: the expected number of turns to bear off any home position.

Once all of a side's checkers are in its last quarter, the race is a bear-off, and the pip
count alone misjudges it ("la meilleure economie de points": wasted pips, gaps, how many
checkers are left). This module knows the exact expectation, with best play, for every
distribution of up to 15 checkers on points 19-24 (54,264 of them), as made by
``scripts/make_bearoff.py`` from the rules themselves (RULES 2.6, the ``backgammon`` option;
no opposing checker in the way). The table ships as ``bearoff_table.bin``: one unsigned
16-bit little-endian value per position, in milli-turns, in :func:`index` order.

>>> expected_turns((0, 0, 0, 0, 0, 1))  # one checker on 24: any roll bears it off
1000
>>> expected_turns((1, 0, 0, 0, 0, 0)) < expected_turns((0, 1, 0, 0, 0, 1))  # 19 vs 20+24
True
"""

from __future__ import annotations

import itertools
from functools import cache
from importlib.resources import files
from math import comb

from engine.bot.board import successors
from engine.bot.rolls import ROLLS

POSITIONS = comb(15 + 6, 6)
"""Distributions of 0-15 checkers over six points."""


# _SKIP[i][budget][count]: distributions skipped, in lexicographic order, by putting
# ``count`` checkers on the i-th point (19 + i) with ``budget`` checkers still allowed.
_SKIP: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            sum(comb(budget - v + 5 - i, 5 - i) for v in range(min(count, budget + 1)))
            for count in range(16)
        )
        for budget in range(16)
    )
    for i in range(6)
)


def index(home: tuple[int, ...]) -> int:
    """The rank of a distribution (counts on 19..24, at most 15 in all) in lexicographic
    order of all such distributions.

    >>> index((0, 0, 0, 0, 0, 0)), index((0, 0, 0, 0, 0, 1)), index((15, 0, 0, 0, 0, 0))
    (0, 1, 54263)
    """
    rank = 0
    budget = 15
    for i, count in enumerate(home):
        rank += _SKIP[i][budget][count]
        budget -= count
    return rank


@cache
def _table() -> bytes:
    return files("engine.bot").joinpath("bearoff_table.bin").read_bytes()


def expected_turns(home: tuple[int, ...]) -> int:
    """Expected turns (x1000, rounded down) to bear off ``home`` (counts on 19..24)."""
    at = 2 * index(home)
    data = _table()
    return data[at] | data[at + 1] << 8


def compute(max_checkers: int = 15) -> dict[tuple[int, ...], int]:
    """Solve the bear-off for every distribution of at most ``max_checkers`` checkers.

    E(empty) = 0; E(h) = 1 + the sum over the 21 rolls of weight/36 x the least E over the
    plays of that roll, in integer milli-turns (rounded down at each step), positions taken
    in order of increasing pips so that every successor is already solved.

    >>> compute(1)[(0, 0, 0, 0, 1, 0)]  # one checker on 23: every roll bears it off (1-1 too)
    1000
    """
    nobody = (0,) * 26
    homes = [
        h for h in itertools.product(range(max_checkers + 1), repeat=6) if sum(h) <= max_checkers
    ]
    homes.sort(key=lambda h: sum((6 - i) * c for i, c in enumerate(h)))
    solved: dict[tuple[int, ...], int] = {}
    for home in homes:
        if not any(home):
            solved[home] = 0
            continue
        side = (0, *([0] * 18), *home, 15 - sum(home))
        total = 0
        for roll, weight in ROLLS:
            total += weight * min(solved[after[19:25]] for after in successors(side, nobody, roll))
        solved[home] = 1000 + total // 36
    return solved
