"""The bot's fast successor generator agrees with the engine, the one source of truth."""

from __future__ import annotations

from engine.bot import sides_of
from engine.bot.board import postillon_blocked, successors
from engine.jacquet import blocked_postillon, legal_play_results
from tests.bot.positions import random_positions


def test_successors_match_the_engine_on_random_games() -> None:
    compared = 0
    for position, dice in random_positions(seed=11, games=25):
        mover, other = sides_of(position)
        assert postillon_blocked(mover, other) == blocked_postillon(position)
        for bearoff in ("backgammon", "trictrac"):
            expected = {
                sides_of(after)[1] for _, after in legal_play_results(position, dice, bearoff)
            }
            mine = successors(mover, other, dice, bearoff)
            assert len(mine) == len(set(mine))
            assert set(mine) == expected, (position, dice, bearoff)
            compared += 1
    assert compared > 3000
