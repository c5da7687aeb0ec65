"""Notation and the JSON position format: round-trips and errors a person understands."""

from __future__ import annotations

import pytest

from engine.errors import InvalidPositionError, NotationError
from engine.jacquet import (
    BLACK,
    OFF,
    Move,
    Position,
    format_dice,
    format_play,
    parse_dice,
    parse_play,
    position_from_json,
    position_to_json,
)


@pytest.mark.parametrize(
    "text", ["1/7 7/12", "21/off", "17/19 1/6", "19/24 24/off 20/off 22/off", "-"]
)
def test_play_notation_round_trips(text: str) -> None:
    assert format_play(parse_play(text)) == text


def test_play_notation_reads_moves_in_order() -> None:
    assert parse_play("21/off  1/7") == (Move(21, OFF), Move(1, 7))
    assert parse_play("-") == ()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "empty play"),
        ("1-7", "not a move"),
        ("1/7 x", "not a move"),
        ("0/5", "starts on a point 1-24"),
        ("7/3", "not one die's move"),
        ("1/8", "not one die's move"),
        ("18/off", "only from 19-24"),
        ("1/\u0667", "not a move"),  # a non-ASCII digit
    ],
)
def test_bad_notation_names_the_problem(text: str, problem: str) -> None:
    with pytest.raises(NotationError, match=problem):
        parse_play(text)


def test_dice_notation() -> None:
    assert parse_dice("6-5") == (6, 5)
    assert format_dice((1, 1)) == "1-1"
    for bad, problem in (("6-7", "1 to 6, not 7"), ("65", "two dice"), ("a-b", "two dice")):
        with pytest.raises(NotationError, match=problem):
            parse_dice(bad)


def test_json_position_lists_points_on_each_sides_own_track() -> None:
    position = Position.from_points(BLACK, {1: 14, 12: 1}, {1: 13, 20: 2})
    assert position_to_json(position) == {
        "turn": "black",
        "white": {"1": 14, "12": 1},
        "black": {"1": 13, "20": 2},
    }
    assert position.borne_off(BLACK) == 0


@pytest.mark.parametrize(
    ("obj", "problem"),
    [
        ([], "JSON object"),
        ({"turn": "white", "white": {"1": 15}}, "no 'black'"),
        ({"turn": "red", "white": {"1": 15}, "black": {"1": 15}}, "turn must be"),
        ({"turn": "white", "white": {"1": 16}, "black": {"1": 15}}, "white has 16 checkers"),
        ({"turn": "white", "white": {"25": 1}, "black": {"1": 15}}, "points run 1-24"),
        ({"turn": "white", "white": {"01": 15}, "black": {"1": 15}}, "points are"),
        ({"turn": "white", "white": {"1": "15"}, "black": {"1": 15}}, "whole number"),
        ({"turn": "white", "white": {"1": True}, "black": {"1": 15}}, "whole number"),
        ({"turn": "white", "white": {"1": -1}, "black": {"1": 15}}, "-1 checkers"),
        ({"turn": "white", "white": {"1": 15}, "black": {"1": 15}, "x": 1}, "unknown"),
        (
            {"turn": "white", "white": {"1": 14, "13": 1}, "black": {"1": 15}},
            "white's 13 and black's 1 are the same point",
        ),
        (
            {"turn": "white", "white": {"1": 13, "5": 1, "8": 1}, "black": {"1": 15}},
            "postillon rule",
        ),
        ({"turn": "white", "white": {}, "black": {}}, "both sides"),
    ],
)
def test_invalid_json_positions_name_the_problem(obj: object, problem: str) -> None:
    with pytest.raises(InvalidPositionError, match=problem):
        position_from_json(obj)
