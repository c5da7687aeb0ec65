"""The 21 distinct rolls of two dice, each with its weight out of 36 (a double once, any
other roll twice): what every look-ahead of the bot averages over.

>>> len(ROLLS), sum(weight for _roll, weight in ROLLS), ROLLS[0]
(21, 36, ((6, 6), 1))
"""

from __future__ import annotations

ROLLS: tuple[tuple[tuple[int, int], int], ...] = tuple(
    ((high, low), 1 if high == low else 2) for high in range(6, 0, -1) for low in range(high, 0, -1)
)
"""``((high, low), weight)``, the highest roll first."""
