"""Pure races: both sides home, so each simply bears off — the exact chance of winning one.

Once every checker of both sides is in its last quarter, nothing can block anything any more
(the other side's home is my 7-12, where none of mine is left): the game is two independent
bear-offs, and the side that finishes first wins a single game (the loser's rearmost checker
is home, RULES 2.7). So the chance of winning is exact from one-sided tables, as in GNU
Backgammon's one-sided bear-off database: for every distribution of up to 15 checkers on
19-24, the probability of being off within ``t`` turns (t = 1..20; every position is off
within 17), playing each roll the way that minimises the expected number of turns
(:mod:`engine.bot.bearoff`, which solves the rules exactly). Minimising the expected turns is
not always the play that maximises a two-sided race's winning chance; the difference is a
matter of thousandths, and it is the approximation gnubg makes too.

The table (``bearoff_dist.bin``, made by ``scripts/make_bearoff.py``) is zlib-compressed
unsigned 16-bit little-endian values in 1/65535ths, 20 a position, in
:func:`engine.bot.bearoff.index` order; it is loaded the first time a race is met.

>>> one_checker = (0, 0, 0, 0, 0, 1)              # on 24: off with any roll
>>> win_chance(one_checker, (1, 0, 0, 0, 0, 0)) == ONE  # I roll first and finish at once
True
>>> win_chance((3, 0, 0, 0, 0, 0), one_checker)  # three on 19: only 6-6 takes them off at once
27771
>>> win_chance((3, 0, 0, 0, 0, 0), (3, 0, 0, 0, 0, 0))  # the same: being on roll is worth 21%
713066
"""

from __future__ import annotations

import itertools
import zlib
from functools import cache
from importlib.resources import files
from typing import Final

from engine.bot.bearoff import POSITIONS, expected_turns, index
from engine.bot.board import OFF, Side, successors
from engine.bot.rolls import ROLLS

TURNS: Final = 20
"""Turns tabulated; every position of up to 15 checkers is borne off within 17."""
SCALE: Final = 65535
"""The table's unit: a probability of 1."""
ONE: Final = 1_000_000
"""A probability of 1 in the results (millionths, like :mod:`engine.bot.net`)."""

_PRECISION: Final = 1 << 40
"""The solver's internal unit, rounded to :data:`SCALE` only when the table is written."""


def pure_race(mover: Side, other: Side) -> bool:
    """True when neither side has a checker outside its last quarter (and neither is off)."""
    return not any(mover[1:19]) and not any(other[1:19]) and mover[OFF] < 15 > other[OFF]


@cache
def _table() -> bytes:
    data = zlib.decompress(files("engine.bot").joinpath("bearoff_dist.bin").read_bytes())
    if len(data) != 2 * TURNS * POSITIONS:
        raise ValueError("bearoff_dist.bin has the wrong size; remake it")
    return data


def done_within(home: tuple[int, ...]) -> tuple[int, ...]:
    """P(off within t turns) for t = 1..20, in 1/65535ths, for ``home`` (counts on 19..24).

    >>> done_within((0, 0, 0, 0, 0, 1))[:2]
    (65535, 65535)
    """
    at = 2 * TURNS * index(home)
    data = _table()[at : at + 2 * TURNS]
    return tuple(int.from_bytes(data[i : i + 2], "little") for i in range(0, 2 * TURNS, 2))


def win_chance(mover_home: tuple[int, ...], other_home: tuple[int, ...]) -> int:
    """P(the side to move wins the race), in millionths: he wins when he is off on his
    ``t``-th turn and the other is not off within ``t - 1`` of his."""
    mine, his = done_within(mover_home), done_within(other_home)
    total = 0
    before_mine = 0
    his_before = 0
    for t in range(TURNS):
        total += (mine[t] - before_mine) * (SCALE - his_before)
        before_mine, his_before = mine[t], his[t]
    return total * ONE // (SCALE * SCALE)


def compute(max_checkers: int = 15) -> dict[tuple[int, ...], tuple[int, ...]]:
    """P(off within t turns), t = 1..20, in 1/65535ths, for every home of at most
    ``max_checkers`` checkers: each roll played as the expected-turns table prefers (the first
    such play on ties, in the generator's order), solved in order of increasing pips.

    >>> compute(1)[(0, 0, 0, 0, 1, 0)][:3]  # one checker on 23: off with the first roll
    (65535, 65535, 65535)
    """
    nobody = (0,) * 26
    homes = [
        h for h in itertools.product(range(max_checkers + 1), repeat=6) if sum(h) <= max_checkers
    ]
    homes.sort(key=lambda h: sum((6 - i) * c for i, c in enumerate(h)))
    solved: dict[tuple[int, ...], list[int]] = {}
    for home in homes:
        if not any(home):
            solved[home] = [_PRECISION] * (TURNS + 1)
            continue
        side = (0, *([0] * 18), *home, 15 - sum(home))
        within = [0] * (TURNS + 1)
        for roll, weight in ROLLS:
            best = min(successors(side, nobody, roll), key=lambda a: expected_turns(a[19:25]))
            after = solved[best[19:25]]
            for t in range(1, TURNS + 1):
                within[t] += weight * after[t - 1]
        solved[home] = [value // 36 for value in within]
    return {
        home: tuple((value * SCALE + _PRECISION // 2) // _PRECISION for value in within[1:])
        for home, within in solved.items()
    }
