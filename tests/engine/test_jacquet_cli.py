"""``tablier engine jacquet moves``: the JSON contract, run as a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from client.commands import engine_jacquet
from engine.jacquet import BEAROFF_RULES

TABLIER = str(Path(sys.executable).with_name("tablier"))
START = '{"turn": "white", "white": {"1": 15}, "black": {"1": 15}}'
BLOCKED = '{"turn": "white", "white": {"1": 15}, "black": {"1": 9, "14": 1, "15": 1, "16": 1, "17": 1, "18": 1, "19": 1}}'  # noqa: E501


def tablier(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TABLIER, "engine", "jacquet", *args], input=stdin, capture_output=True, text=True
    )


def test_moves_prints_each_distinct_play_with_its_position() -> None:
    result = tablier("moves", "--position", START, "--dice", "6-5")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "plays": [
            {
                "moves": ["1/7", "7/12"],
                "position": {"turn": "black", "white": {"1": 14, "12": 1}, "black": {"1": 15}},
            }
        ]
    }


@pytest.mark.parametrize(
    ("position", "dice", "problem"),
    [
        ('{"turn": "white", "white": {"1": 15}', "6-5", "the position is not valid JSON"),
        ('{"turn": "white", "white": {"1": 16}, "black": {"1": 15}}', "6-5", "16 checkers"),
        (START, "6-7", "a die shows 1 to 6, not 7"),
        (
            '{"turn": "white", "white": {"1": 14, "13": 1}, "black": {"1": 15}}',
            "6-5",
            "white's 13 and black's 1 are the same point",
        ),
    ],
)
def test_invalid_input_exits_2_with_one_line_naming_the_problem(
    position: str, dice: str, problem: str
) -> None:
    result = tablier("moves", "--position", position, "--dice", dice)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and problem in result.stderr


def test_batch_answers_every_line_and_survives_bad_ones() -> None:
    requests = [
        json.dumps({"position": json.loads(START), "dice": "6-6"}),
        "not json",
        json.dumps({"position": json.loads(BLOCKED), "dice": "3-1"}),
        json.dumps(
            {
                "position": {"turn": "black", "white": {"1": 15}, "black": {"21": 1, "24": 1}},
                "dice": "6-3",
                "bearoff": "trictrac",
            }
        ),
        json.dumps({"position": json.loads(START), "dice": "0-1"}),
        json.dumps(
            {
                "position": {
                    "turn": "white",
                    "white": {"1": 15},
                    "black": {"1": 13, "14": 1, "19": 1},
                },
                "dice": "1-1",
            }
        ),
    ]
    result = tablier("moves", "--batch", stdin="\n".join(requests) + "\n")
    assert result.returncode == 0, result.stderr
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == len(requests)
    assert [play["moves"] for play in answers[0]["plays"]] == [["1/7"]]
    assert answers[1]["error"].startswith("the request is not valid JSON")
    assert answers[2] == {"plays": [], "winner": "black", "points": 4}
    assert [play["moves"] for play in answers[3]["plays"]] == [["21/24", "24/off"]]
    assert answers[4] == {"error": "a die shows 1 to 6, not 0"}
    assert answers[5]["plays"] == [
        {
            "moves": [],
            "position": {"turn": "black", "white": {"1": 15}, "black": {"1": 13, "14": 1, "19": 1}},
        }
    ]


def test_cli_offers_exactly_the_engines_bear_off_rules() -> None:
    assert engine_jacquet.BEAROFF_RULES == BEAROFF_RULES
