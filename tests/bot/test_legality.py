"""The computer player only ever returns plays the engine lists as legal."""

from __future__ import annotations

import pytest

from engine.bot import SearchLimits, choose_play
from engine.jacquet import legal_plays
from tests.bot.positions import random_positions


@pytest.mark.parametrize("level", [1, 2])
def test_every_chosen_play_is_legal(level: int) -> None:
    checked = 0
    for position, dice in random_positions(seed=level, games=20):
        for bearoff in ("backgammon", "trictrac"):
            play = choose_play(position, dice, level=level, bearoff=bearoff)
            assert play in legal_plays(position, dice, bearoff)
            checked += 1
    assert checked > 2000


def test_level_three_plays_are_legal_on_a_sample() -> None:
    limits = SearchLimits(nodes=3000)
    for index, (position, dice) in enumerate(random_positions(seed=3, games=2)):
        if index % 5:
            continue
        play = choose_play(position, dice, level=3, limits=limits)
        assert play in legal_plays(position, dice)


def test_unknown_level_is_refused() -> None:
    from engine.jacquet import Position

    with pytest.raises(ValueError, match="level"):
        choose_play(Position.initial(), (6, 5), level=5)
