"""The equity network's inputs: a raw encoding of a Jacquet board, from the mover's side.

The encoding is TD-Gammon's, adapted to Jacquet (no hitting, so no bar): for each side, on
its own track, each of the 24 points is four inputs — at least one checker (the point is
*closed* to the other side, RULES 2.3), at least two, at least three, and the count beyond
three — then the checkers borne off, whether the side is still under the postillon rule
(RULES 2.4) and whether all its checkers are home (it may bear off, RULES 2.6). The mover's
99 inputs come first, then the other side's: 198 small non-negative integers. No expert
feature (pips, primes, races) is computed: the network learns what they mean.

This module is the one definition of the encoding: the integer inference of
:mod:`engine.bot.net` and the NumPy training of ``scripts/train_net.py`` both read it.

>>> from engine.bot.board import initial_side
>>> inputs = encode(initial_side(), initial_side())
>>> len(inputs), inputs[:4], inputs[SIDE_INPUTS - 2:SIDE_INPUTS]
(198, (1, 1, 1, 12), (1, 0))
"""

from __future__ import annotations

from typing import Final

from engine.bot.board import OFF, Side

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
    """The network's 198 inputs for ``mover`` to play against ``other``."""
    return encode_side(mover) + encode_side(other)
