"""``tablier engine jacquet bot``: the computer player's JSON contract, run as a process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine.bot import choose_play
from engine.jacquet import (
    apply_play,
    format_move,
    legal_plays,
    position_from_json,
    position_to_json,
)

TABLIER = str(Path(sys.executable).with_name("tablier"))
START = {"turn": "white", "white": {"1": 15}, "black": {"1": 15}}
# White free (postillon home), black's postillon on 5: a position with many plays.
MIDGAME = {
    "turn": "white",
    "white": {"1": 9, "3": 2, "8": 1, "10": 1, "20": 2},
    "black": {"1": 14, "5": 1},
}


def bot(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TABLIER, "engine", "jacquet", "bot", *args], input=stdin, capture_output=True, text=True
    )


def test_prints_the_bots_play_and_the_position_it_leads_to() -> None:
    result = bot("--position", json.dumps(MIDGAME), "--dice", "5-2", "--level", "2")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    position = position_from_json(MIDGAME)
    expected = choose_play(position, (5, 2), level=2)
    assert expected in legal_plays(position, (5, 2))
    assert answer == {
        "moves": [format_move(move) for move in expected],
        "position": position_to_json(apply_play(position, expected)),
    }


def test_bad_input_exits_2_with_one_line() -> None:
    for args, problem in [
        (("--position", "{", "--dice", "6-5"), "not valid JSON"),
        (("--position", json.dumps(START), "--dice", "6-7"), "1 to 6"),
        (("--position", json.dumps(START), "--dice", "6-5", "--level", "5"), "--level"),
        (("--dice", "6-5"), "required"),
    ]:
        result = bot(*args)
        assert result.returncode == 2, args
        assert result.stdout == ""
        assert result.stderr.count("\n") == 1 and problem in result.stderr, result.stderr


def test_batch_answers_each_line_and_goes_on_after_bad_ones() -> None:
    blocked = {
        "turn": "white",
        "white": {"1": 15},
        "black": {"1": 9, "14": 1, "15": 1, "16": 1, "17": 1, "18": 1, "19": 1},
    }
    requests = [
        json.dumps({"position": START, "dice": "6-5", "level": 4}),
        "not json",
        json.dumps({"position": START, "dice": "6-5", "level": 9}),
        json.dumps({"position": MIDGAME, "dice": "4-4", "seed": 7, "bearoff": "trictrac"}),
        json.dumps({"position": blocked, "dice": "2-1"}),
    ]
    result = bot("--batch", "--level", "1", stdin="\n".join(requests) + "\n")
    assert result.returncode == 0, result.stderr
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == 5
    assert answers[0]["moves"] == ["1/7", "7/12"]
    assert "not valid JSON" in answers[1]["error"]
    assert "level" in answers[2]["error"]
    position = position_from_json(MIDGAME)
    expected = choose_play(position, (4, 4), level=1, seed=7, bearoff="trictrac")
    assert answers[3]["moves"] == [format_move(move) for move in expected]
    assert answers[4] == {"moves": None, "position": None, "winner": "black", "points": 4}


def test_level_four_is_offered_wherever_levels_are() -> None:
    from client.cli import build_parser
    from client.commands.play import jacquet_setup
    from client.setup import JACQUET_LEVELS, JacquetSetup

    assert 4 in JACQUET_LEVELS
    args = build_parser().parse_args(["play", "jacquet", "--vs-computer", "--level", "4"])
    assert jacquet_setup(args) == JacquetSetup(computer_seats=frozenset({1}), level=4)
    result = bot("--position", json.dumps(MIDGAME), "--dice", "5-2", "--level", "4")
    assert result.returncode == 0, result.stderr
    position = position_from_json(MIDGAME)
    expected = choose_play(position, (5, 2), level=4)
    assert json.loads(result.stdout)["moves"] == [format_move(move) for move in expected]
