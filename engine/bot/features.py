"""The equity network's inputs: a Jacquet board, from the mover's side.

The board encoding is TD-Gammon's, adapted to Jacquet (no hitting, so no bar): for each
side, on its own track, each of the 24 points is four inputs — at least one checker (the
point is *closed* to the other side, RULES 2.3), at least two, at least three, and the count
beyond three — then the checkers borne off, whether the side is still under the postillon
rule (RULES 2.4) and whether all its checkers are home (it may bear off, RULES 2.6). The
mover's 99 inputs come first, then the other side's: 198 small non-negative integers
(:func:`encode`; the frozen pubeval baseline reads these alone).

The network also reads a few *interactions* of the two sides (:func:`cross`): how far each
side's checkers are hemmed in by the points the other holds (RULES 2.3 — a *bouchage* of six
closed points traps whatever stands behind it), which Jacquet's strategy turns on and which
a network seeing each side's board apart learns slowly (the first networks misjudged
primes; docs/bot.md). Per side: how many of its checkers outside home face a run of at least
2, 3, 4, 5 and 6 closed points straight ahead, how many closed points they face within a
die's reach in all, and how many of the six die faces none of its checkers could move by
(bearing off aside). No race or pip count is computed: the network learns those.
:data:`NET_INPUTS` counts both parts: 198 + 14 small non-negative integers.

This module is the one definition of the encoding: the integer inference of
:mod:`engine.bot.net` and the NumPy training of ``scripts/train_net.py`` both read it (the
training computes the same interactions for many boards at once, and a test holds the two
to the same values).

>>> from engine.bot.board import initial_side
>>> inputs = encode(initial_side(), initial_side())
>>> len(inputs), inputs[:4], inputs[SIDE_INPUTS - 2:SIDE_INPUTS]
(198, (1, 1, 1, 12), (1, 0))
>>> cross(initial_side(), initial_side())  # nothing closes anything yet; every face plays
(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
"""

from __future__ import annotations

from typing import Final

from engine.bot.board import CLOSED_AHEAD, OFF, RUN_AHEAD, Side, closed_to

POINT_INPUTS: Final = 4
"""Inputs per point: count >= 1, >= 2, >= 3, and the count beyond three."""

POINT_UNITS: Final[tuple[tuple[int, int, int, int], ...]] = tuple(
    (int(n >= 1), int(n >= 2), int(n >= 3), max(0, n - 3)) for n in range(16)
)
"""``POINT_UNITS[n]``: the four inputs of a point holding ``n`` checkers."""

OFF_INPUT: Final = 24 * POINT_INPUTS
"""Index (within a side) of the borne-off count."""
POSTILLON_INPUT: Final = OFF_INPUT + 1
"""Index (within a side) of "still under the postillon rule" (1 or 0)."""
HOME_INPUT: Final = OFF_INPUT + 2
"""Index (within a side) of "every checker is home or off" (1 or 0)."""
SIDE_INPUTS: Final = OFF_INPUT + 3
INPUTS: Final = 2 * SIDE_INPUTS


def under_postillon(side: Side) -> int:
    """1 while ``side`` has nothing in 19-24 and nothing off (RULES 2.4), else 0."""
    return int(side[OFF] == 0 and not any(side[19:25]))


def all_home(side: Side) -> int:
    """1 when none of ``side``'s checkers stands on 1-18, else 0."""
    return int(not any(side[1:19]))


def encode_side(side: Side) -> tuple[int, ...]:
    """The 99 inputs of one side, on its own track."""
    inputs: list[int] = []
    for point in range(1, 25):
        inputs.extend(POINT_UNITS[side[point]])
    inputs.extend((side[OFF], under_postillon(side), all_home(side)))
    return tuple(inputs)


def encode(mover: Side, other: Side) -> tuple[int, ...]:
    """The 198 board inputs for ``mover`` to play against ``other``."""
    return encode_side(mover) + encode_side(other)


RUNS: Final = tuple(range(2, 7))
"""The runs of closed points straight ahead that :func:`cross` counts checkers facing."""
CROSS_SIDE_INPUTS: Final = len(RUNS) + 2
"""Per side: checkers facing each run of :data:`RUNS`, closed points faced, dead faces."""
CROSS_INPUTS: Final = 2 * CROSS_SIDE_INPUTS
NET_INPUTS: Final = INPUTS + CROSS_INPUTS
"""The network's inputs: :func:`encode`'s, then :func:`cross`'s."""
CROSS_MAX: Final = (*(15 for _ in RUNS), 15 * 6, 6)
"""The largest value each of a side's interactions can take."""

_TRACK: Final = sum(1 << p for p in range(1, 25))


def occupied(side: Side) -> int:
    """The points ``side`` holds on its own track, as bits (bit ``p`` for point ``p``)."""
    mask = 0
    for point in range(1, 25):
        if side[point]:
            mask |= 1 << point
    return mask


def cross_side(side: Side, mine: int, closed: int) -> tuple[int, ...]:
    """One side's interactions: ``mine`` is its :func:`occupied`, ``closed`` the points of
    its track the other holds (:func:`engine.bot.board.closed_to`).

    >>> trapped = (0, 15, *([0] * 24))
    >>> cross_side(trapped, occupied(trapped), sum(1 << p for p in range(2, 8)))  # 2-7 held
    (15, 15, 15, 15, 15, 90, 6)
    """
    by_run = [0] * 7
    hemmed = 0
    for point in range(1, 19):
        count = side[point]
        if count:
            ahead = (closed >> (point + 1)) & 63
            by_run[RUN_AHEAD[ahead]] += count
            hemmed += count * CLOSED_AHEAD[ahead]
    facing = []
    total = 0
    for run in reversed(RUNS):  # checkers facing a run of at least 6, then 5, ... then 2
        total += by_run[run]
        facing.append(total)
    free = _TRACK & ~closed
    dead = sum(1 for face in range(1, 7) if not (mine << face) & free)
    return (*reversed(facing), hemmed, dead)


def cross(mover: Side, other: Side) -> tuple[int, ...]:
    """The 14 interaction inputs: the mover's seven (:func:`cross_side`), then the other's."""
    mine, theirs = occupied(mover), occupied(other)
    return cross_side(mover, mine, closed_to(theirs)) + cross_side(other, theirs, closed_to(mine))


def encode_net(mover: Side, other: Side) -> tuple[int, ...]:
    """All :data:`NET_INPUTS` inputs of the network for ``mover`` to play against ``other``."""
    return encode(mover, other) + cross(mover, other)
