"""docs/rules.md section 3's Jacquet worked examples, one test per rule they pin."""

from __future__ import annotations

import pytest

from engine.jacquet import (
    BLACK,
    WHITE,
    BearOff,
    Position,
    apply_play,
    blocked_postillon,
    explain_illegal,
    format_play,
    legal_plays,
    parse_play,
)


def plays(position: Position, dice: tuple[int, int], bearoff: BearOff = "backgammon") -> list[str]:
    return [format_play(play) for play in legal_plays(position, dice, bearoff)]


def resulting(position: Position, text: str) -> Position:
    return apply_play(position, parse_play(text))


START = Position.initial()


def test_postillon_rule_loses_the_three_that_would_stop_on_the_opponents_talon() -> None:
    assert plays(START, (3, 3)) == ["1/4 4/7 7/10"]


def test_postillon_rule_loses_fours_blocked_by_the_opponents_talon() -> None:
    assert plays(START, (4, 4)) == ["1/5 5/9"]


def test_postillon_reaching_home_with_a_double_plays_all_four() -> None:
    assert plays(START, (5, 5)) == ["1/6 6/11 11/16 16/21"]
    after = resulting(START, "1/6 6/11 11/16 16/21")
    # Next turn the talon is free: two different checkers may move.
    white_again = Position(WHITE, after.boards)
    assert explain_illegal(white_again, (3, 2), parse_play("1/4 1/3")) is None


def test_postillon_cannot_stop_on_the_opponents_talon_with_sixes() -> None:
    assert plays(START, (6, 6)) == ["1/7"]


def test_plays_reaching_the_same_position_are_the_same_play() -> None:
    assert plays(START, (6, 5)) == ["1/7 7/12"]
    assert resulting(START, "1/6 6/12") == resulting(START, "1/7 7/12")
    assert explain_illegal(START, (6, 5), parse_play("1/6 6/12")) is None


def test_postillon_takes_both_dice_until_home() -> None:
    position = Position.from_points(WHITE, {1: 14, 12: 1}, {1: 15})
    assert plays(position, (6, 1)) == ["12/18 18/19"]


def test_postillon_rule_is_checked_before_each_die() -> None:
    position = Position.from_points(WHITE, {1: 14, 17: 1}, {1: 15})
    expected = {resulting(position, text) for text in ("17/19 1/6", "17/22 1/3", "17/19 19/24")}
    assert {resulting(position, text) for text in plays(position, (5, 2))} == expected
    assert len(plays(position, (5, 2))) == 3


def test_single_die_jumps_closed_points_but_stops_on_open_ones() -> None:
    # Black holds his 14-18 (white's 2-6); his other checkers are on his 24 and talon.
    position = Position.from_points(
        WHITE, {1: 15}, {14: 1, 15: 1, 16: 1, 17: 1, 18: 1, 24: 1, 1: 9}
    )
    assert plays(position, (6, 1)) == ["1/7 7/8"]
    assert str(explain_illegal(position, (6, 1), parse_play("1/2 2/8"))) == "2 is held by black"


def test_blocked_postillon_ends_the_game_quadruple() -> None:
    # Black on his 14-19 (white's 2-7) and his talon (white's 13).
    position = Position.from_points(
        WHITE, {1: 15}, {14: 1, 15: 1, 16: 1, 17: 1, 18: 1, 19: 1, 1: 9}
    )
    assert blocked_postillon(position)
    assert not blocked_postillon(Position(BLACK, position.boards))


def test_unlucky_roll_is_not_a_blocked_postillon() -> None:
    # White's 2 and 7 are closed: 1-1 and 6-6 cannot move the postillon, 3-3 can.
    position = Position.from_points(WHITE, {1: 15}, {14: 1, 19: 1, 1: 13})
    assert not blocked_postillon(position)
    assert plays(position, (1, 1)) == ["-"]


def test_only_one_die_playable_must_be_the_higher() -> None:
    # White's 21 is black's 9.
    position = Position.from_points(WHITE, {1: 14, 10: 1}, {1: 14, 9: 1})
    assert plays(position, (6, 5)) == ["10/16"]
    assert str(explain_illegal(position, (6, 5), parse_play("10/15"))) == (
        "you must play the 6: when only one die can be played, the higher one"
    )


@pytest.mark.parametrize(
    ("bearoff", "expected"),
    [
        ("backgammon", {"21/off 24/off", "21/24 24/off"}),
        ("trictrac", {"21/24 24/off"}),
    ],
)
def test_bear_off_with_a_larger_die(bearoff: BearOff, expected: set[str]) -> None:
    position = Position.from_points(WHITE, {21: 1, 24: 1}, {1: 15})
    found = {resulting(position, text) for text in plays(position, (6, 3), bearoff)}
    assert found == {resulting(position, text) for text in expected}
    assert len(plays(position, (6, 3), bearoff)) == len(expected)
