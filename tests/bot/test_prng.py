"""The bot's explicit generator: reproducible, and uniform enough for a random baseline."""

from __future__ import annotations

import pytest

from engine.bot.prng import SplitMix64


def test_same_seed_same_stream_and_different_seeds_differ() -> None:
    first, again, other = SplitMix64(42), SplitMix64(42), SplitMix64(43)
    stream = [first.next() for _ in range(50)]
    assert stream == [again.next() for _ in range(50)]
    assert stream != [other.next() for _ in range(50)]
    assert all(0 <= value < 1 << 64 for value in stream)


def test_below_is_uniform_over_a_die() -> None:
    rng = SplitMix64(2026)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.below(6)] += 1
    # Chi-square with 5 degrees of freedom: 20.5 is the 0.1% critical value.
    chi2 = sum((count - 10_000) ** 2 / 10_000 for count in counts)
    assert chi2 < 20.5


def test_below_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError, match="positive"):
        SplitMix64(1).below(0)
