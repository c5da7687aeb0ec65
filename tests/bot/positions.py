"""Reachable Jacquet positions for the bot's tests: random legal games, seeded."""

from __future__ import annotations

from collections.abc import Iterator

from engine.bot.prng import SplitMix64
from engine.jacquet import Position, blocked_postillon, legal_play_results


def roll(rng: SplitMix64) -> tuple[int, int]:
    return (rng.below(6) + 1, rng.below(6) + 1)


def random_positions(seed: int, games: int) -> Iterator[tuple[Position, tuple[int, int]]]:
    """Every (position, dice) met in ``games`` uniformly random legal games."""
    rng = SplitMix64(seed)
    for _ in range(games):
        position = Position.initial()
        while not blocked_postillon(position):
            dice = roll(rng)
            yield position, dice
            results = legal_play_results(position, dice)
            position = results[rng.below(len(results))][1]
            if position.borne_off(1 - position.turn) == 15:
                break
