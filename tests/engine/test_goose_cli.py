"""``tablier engine goose``: the real console script in a subprocess, JSON in and out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.canonical import state_hash
from engine.goose import GooseOptions, new_game, parse_throws, play_out

TABLIER = str(Path(sys.executable).with_name("tablier"))


def tablier(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TABLIER, "engine", "goose", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def play_lines(*args: str) -> list[dict[str, Any]]:
    result = tablier("play", *args)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_play_prints_every_turn_then_the_winner_taking_the_pot() -> None:
    # Seat 0: 3+3 bridge to 12 (pays); seat 1: opening nine to 53; seat 0: 14 goose to 16;
    # seat 1: 53 + 10 = 63 wins. The throw after the win is not used.
    lines = play_lines("--rules", "daumont", "--players", "2", "--dice", "3-3,5-4,1-1,6-4,2-2")
    turns, final = lines[:-1], lines[-1]
    assert [{k: turn[k] for k in ("turn", "player", "dice", "positions", "pot", "paid")}
            for turn in turns] == [
        {"turn": 1, "player": 0, "dice": [3, 3], "positions": [12, 0], "pot": 9, "paid": [5, 4]},
        {"turn": 2, "player": 1, "dice": [5, 4], "positions": [12, 53], "pot": 9, "paid": [5, 4]},
        {"turn": 3, "player": 0, "dice": [1, 1], "positions": [16, 53], "pot": 9, "paid": [5, 4]},
        {"turn": 4, "player": 1, "dice": [6, 4], "positions": [16, 63], "pot": 9, "paid": [5, 4]},
    ]  # fmt: skip
    assert [event["type"] for event in turns[0]["events"]] == ["Thrown", "Moved", "Bridge", "Paid"]
    assert turns[0]["events"][2] == {
        "type": "Bridge", "seat": 0, "to_square": 12, "square": 6, "name": "le pont",
    }  # fmt: skip
    assert final == {
        "result": "win",
        "winner": 1,
        "pot": 9,
        "paid": [5, 4],
        "payouts": [0, 9],
        "throws_used": 4,
    }


def test_play_reports_missed_turns_until_a_throw_is_needed() -> None:
    # Seat 0 reaches the inn (12 + 7); seat 1 throws; seat 0's missed turn is still reported
    # although the throws have run out.
    lines = play_lines("--players", "2", "--dice", "6-6,1-1,4-3,1-2")
    assert [
        (line["turn"], line["player"], line["dice"], line["missed"]) for line in lines[:-1]
    ] == [
        (1, 0, [6, 6], None),
        (2, 1, [1, 1], None),
        (3, 0, [4, 3], None),
        (4, 1, [1, 2], None),
        (5, 0, None, "inn"),
    ]
    assert lines[3]["positions"] == [19, 8]
    assert lines[-1] == {
        "result": "unfinished",
        "winner": None,
        "pot": 9,
        "paid": [5, 4],
        "payouts": [0, 0],
        "throws_used": 4,
    }


def test_play_blocked_two_player_game_shares_the_pot() -> None:
    # Seat 0 falls in the well (26 + 5); seat 1 bounces from 60 onto 59, goose, back to 52.
    lines = play_lines("--players", "2", "--dice", "3-6,5-4,4-1,6-1,2-5")
    assert lines[-2]["positions"] == [31, 52]
    assert lines[-2]["status"] == ["well", "prison"]
    assert lines[-2]["events"][-1] == {"type": "Blocked", "shares": [5, 5], "unclaimed": 0}
    assert lines[-1] == {
        "result": "blocked",
        "winner": None,
        "pot": 10,
        "paid": [5, 5],
        "payouts": [5, 5],
        "throws_used": 5,
    }


def test_play_1792_lets_players_share_a_square() -> None:
    lines = play_lines("--rules", "1792", "--players", "3", "--ante", "2", "--fee", "3",
                       "--dice", "2-2,3-1,1-3")  # fmt: skip
    assert lines[2]["positions"] == [4, 4, 4]
    assert lines[-1]["pot"] == 6


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--players", "2", "--dice", "6-3,7-4"], "throw 2: '7-4' is not a throw"),
        (["--players", "2", "--dice", "6-3,six-four"], "'six' is not a die's face"),
        (["--players", "1", "--dice", "6-3"], "2 to 15 players, not 1"),
        (["--players", "16", "--dice", "6-3"], "2 to 15 players, not 16"),
        (["--players", "2", "--fee", "-1", "--dice", "6-3"], "fee cannot be negative"),
        (["--players", "2", "--rules", "1793", "--dice", "6-3"], "invalid choice: '1793'"),
        (["--players", "two", "--dice", "6-3"], "a whole number, not 'two'"),
        (["--players", "2"], "--players and --dice are required"),
        (["--batch", "--dice", "6-3"], "--dice cannot be used with --batch"),
    ],
)
def test_play_invalid_input_exits_2_with_one_line_naming_the_problem(
    args: list[str], problem: str
) -> None:
    result = tablier("play", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert problem in result.stderr
    assert "Traceback" not in result.stderr


def test_batch_answers_every_line_and_goes_on_after_a_bad_one() -> None:
    requests = [
        {"rules": "daumont", "players": 2, "dice": ["3-3", "5-4", "1-1", "6-4"]},
        "not json",
        {"players": 2, "dice": ["6-3", "9-1"]},
        {"players": 3, "dice": ["1-1"], "colour": "red"},
        {"rules": "1792", "players": 3, "ante": 2, "fee": 3, "dice": ["2-2", "3-1", "1-3"]},
    ]
    stdin = "".join(
        (request if isinstance(request, str) else json.dumps(request)) + "\n"
        for request in requests
    )
    result = tablier("play", "--batch", stdin=stdin)
    assert result.returncode == 0, result.stderr
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == len(requests)
    single = play_lines("--players", "2", "--dice", "3-3,5-4,1-1,6-4")
    assert answers[0] == {"turns": single[:-1], "final": single[-1]}
    assert answers[1]["error"].startswith("the request is not valid JSON")
    assert answers[2] == {"error": "throw 2: '9-1' is not a throw: a die shows 1 to 6, not 9"}
    assert "unknown key 'colour'" in answers[3]["error"]
    assert answers[4]["turns"][2]["positions"] == [4, 4, 4]


def test_simulate_is_reproducible_and_adds_up() -> None:
    args = ("simulate", "--players", "2", "--games", "300", "--seed", "11", "--rules", "1792")
    first, second = tablier(*args), tablier(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    summary = json.loads(first.stdout)
    wins = summary["wins_by_seat"]
    assert len(wins) == 2
    assert sum(wins) + round(summary["blocked_rate"] * 300) == 300
    assert 0.1 < summary["blocked_rate"] < 0.35  # RULES 1.7: about one game in five
    assert summary["mean_pot"] >= 8
    assert summary["mean_turns"] > 10
    other = json.loads(tablier(*args[:-4], "--seed", "12").stdout)
    assert other != summary


def test_simulate_refuses_zero_games() -> None:
    result = tablier("simulate", "--players", "4", "--games", "0", "--seed", "1")
    assert result.returncode == 2
    assert (
        result.stderr.strip()
        == "tablier engine goose simulate: error: --games must be at least 1, not 0"
    )


def test_help_documents_the_output() -> None:
    result = tablier("play", "--help")
    assert result.returncode == 0
    for needle in ("--dice", "--batch", '"result": "win"|"blocked"|"unfinished"', "example:"):
        assert needle in result.stdout


def test_state_hash_is_identical_across_processes_and_hash_seeds() -> None:
    dice = "6-6,1-2,2-1,3-3,5-4,6-5,1-1,4-4,2-3,6-1,5-5,3-4"
    code = (
        "from engine.canonical import state_hash\n"
        "from engine.goose import GooseOptions, new_game, parse_throws, play_out\n"
        f"state = play_out(new_game(GooseOptions(3)), iter(parse_throws({dice!r})))\n"
        "print(state_hash(state).hex())\n"
    )
    hashes = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for seed in ("0", "1", "4242")
    }
    here = play_out(new_game(GooseOptions(3)), iter(parse_throws(dice)))
    assert hashes == {state_hash(here).hex()}
