"""The computer player plays the positions every Jacquet player knows the answer to."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from engine.bot import SearchLimits, choose_play
from engine.jacquet import (
    Position,
    blocked_postillon,
    format_play,
    legal_play_results,
    position_from_json,
)
from tests.bot.positions import random_positions

LEVELS = (1, 2, 3, 4)


def position(turn: str, white: dict[str, int], black: dict[str, int]) -> Position:
    return position_from_json({"turn": turn, "white": white, "black": black})


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    ("white", "dice"),
    [
        ({"19": 1, "22": 1}, (6, 3)),  # 19/off 22/off; not 19/22 22/off
        ({"21": 1, "23": 1}, (4, 2)),  # 21/off 23/off; not 21/23 23/off
        ({"22": 1, "24": 1}, (3, 1)),  # 22/off 24/off; not 22/23 23/off
    ],
)
def test_takes_an_immediate_win_when_one_exists(
    level: int, white: dict[str, int], dice: tuple[int, int]
) -> None:
    board = position("white", white, {"1": 1, "19": 14})  # black would win next turn
    results = dict(legal_play_results(board, dice))
    winning = {play for play, after in results.items() if after.borne_off(0) == 15}
    assert winning and len(winning) < len(results)
    assert choose_play(board, dice, level=level) in winning


@pytest.mark.parametrize("level", LEVELS)
def test_blocks_the_other_postillon_for_a_quadruple_win(level: int) -> None:
    # Black's postillon is on his 5 (white's 17); white holds his 6-10 (white's 18-22) and
    # 16/20 20/23 (or 16/19 19/23) closes his 11: six in a row, black is blocked (x4).
    board = position(
        "white",
        {"1": 9, "16": 1, "18": 1, "19": 1, "20": 1, "21": 1, "22": 1},
        {"1": 14, "5": 1},
    )
    after = dict(legal_play_results(board, (4, 3)))[choose_play(board, (4, 3), level=level)]
    assert blocked_postillon(after)


@pytest.mark.parametrize("level", LEVELS)
def test_losing_it_rescues_a_straggler_from_the_quadruple_band(level: int) -> None:
    # Black bears off his last two next turn on almost any roll; white's checker on 5 would
    # lose four points. Any play taking it to 7 or beyond saves one.
    board = position("white", {"5": 1, "19": 14}, {"24": 2})
    play = choose_play(board, (3, 2), level=level)
    after = dict(legal_play_results(board, (3, 2)))[play]
    assert after.rearmost(0) is not None and after.rearmost(0) >= 7


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    ("white", "dice", "best"),
    [
        ({"19": 2, "24": 1}, (6, 1), "19/off 24/off"),  # one left on 19, not 20 and 24
        ({"19": 1, "20": 1, "21": 1}, (6, 5), "19/off 20/off"),  # one left, not two
        ({"19": 1, "23": 1}, (2, 1), "23/off 19/20"),  # one checker on 20 beats two
        ({"19": 3, "22": 2}, (5, 3), "19/24 22/off"),  # a checker off rather than none
    ],
)
def test_bears_off_efficiently_in_a_pure_race(
    level: int, white: dict[str, int], dice: tuple[int, int], best: str
) -> None:
    board = position("white", white, {"19": 1, "20": 1, "21": 1})  # black is bearing off too
    plays = {format_play(play) for play, _ in legal_play_results(board, dice)}
    assert best in plays and len(plays) > 1
    assert format_play(choose_play(board, dice, level=level)) == best


def test_a_level_three_search_cut_short_falls_back_on_level_two() -> None:
    calls = []

    def deadline() -> bool:
        calls.append(1)
        return True

    for index, (start, dice) in enumerate(random_positions(seed=8, games=3)):
        if index % 7:
            continue
        cut = choose_play(start, dice, level=3, seed=index, deadline=deadline)
        assert cut == choose_play(start, dice, level=2, seed=index)
        tiny = choose_play(start, dice, level=3, limits=SearchLimits(nodes=1))
        assert tiny == choose_play(start, dice, level=2)
    assert calls


SAMPLE = """
import json, sys
from engine.bot import choose_play
from engine.jacquet import format_play, position_from_json
for line in sys.stdin:
    req = json.loads(line)
    play = choose_play(position_from_json(req["position"]), tuple(req["dice"]),
                       level=req["level"], seed=req["seed"])
    print(format_play(play))
"""


def test_same_inputs_give_the_same_play_in_another_process() -> None:
    from engine.jacquet import position_to_json

    requests, expected = [], []
    for index, (start, dice) in enumerate(random_positions(seed=21, games=2)):
        if index % 6:
            continue
        level, seed = 1 + index % 3, index
        requests.append(
            json.dumps(
                {"position": position_to_json(start), "dice": dice, "level": level, "seed": seed}
            )
        )
        play = choose_play(start, dice, level=level, seed=seed)
        assert play == choose_play(start, dice, level=level, seed=seed)
        expected.append(format_play(play))
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    result = subprocess.run(
        [sys.executable, "-c", SAMPLE],
        input="\n".join(requests) + "\n",
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert result.stdout.splitlines() == expected


def test_a_level_four_search_cut_short_falls_back_on_its_one_ply_choice() -> None:
    from engine.bot import NetLimits

    one_ply = NetLimits(plies=1)
    compared = 0
    for index, (start, dice) in enumerate(random_positions(seed=13, games=2)):
        if index % 9:
            continue
        shallow = choose_play(start, dice, level=4, seed=index, net_limits=one_ply)
        starved = choose_play(start, dice, level=4, seed=index, net_limits=NetLimits(nodes=1))
        hurried = choose_play(start, dice, level=4, seed=index, deadline=lambda: True)
        assert starved == hurried == shallow
        compared += 1
    assert compared > 5
