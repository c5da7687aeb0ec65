"""A tiny deterministic pseudo-random generator (SplitMix64) for the computer player.

The engine may not use :mod:`random` (no hidden global state, identical draws on every
machine), so players that need chance — the uniformly random baseline, tie-breaking —
draw from this explicit, caller-seeded generator instead.

>>> rng = SplitMix64(7)
>>> [rng.below(6) for _ in range(5)]
[3, 0, 0, 3, 4]
>>> SplitMix64(7).next() == SplitMix64(7).next()
True
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


def mix64(value: int) -> int:
    """SplitMix64's finaliser: a 64-bit avalanche of ``value`` (any int, reduced mod 2**64).

    >>> mix64(0) == mix64(0), mix64(1) != mix64(2)
    (True, True)
    """
    z = value & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class SplitMix64:
    """Sebastiano Vigna's SplitMix64: a 64-bit state, one add and one mix per draw."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def next(self) -> int:
        """The next 64-bit unsigned value."""
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        return mix64(self._state)

    def below(self, bound: int) -> int:
        """A uniform int in ``range(bound)`` (rejection sampling: no modulo bias)."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            value = self.next()
            if value < limit:
                return value % bound
