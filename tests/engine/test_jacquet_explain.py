"""explain_illegal: the reason a person reads when a play is refused."""

from __future__ import annotations

import pytest

from engine.jacquet import WHITE, BearOff, Position, explain_illegal, parse_play

START = Position.initial()
HOME = Position.from_points(WHITE, {21: 1, 24: 1}, {1: 15})
NOT_HOME = Position.from_points(WHITE, {18: 1, 24: 14}, {1: 15})
TWO_HOME = Position.from_points(WHITE, {20: 1, 24: 1}, {1: 15})


@pytest.mark.parametrize(
    ("position", "dice", "play", "bearoff", "reason"),
    [
        (START, (6, 5), "5/11", "backgammon", "you have no checker on 5"),
        (START, (6, 5), "1/5", "backgammon", "1/5 needs a 4; the dice left are 6 and 5"),
        (START, (6, 5), "1/7 7/12 12/18", "backgammon", "12/18: no dice are left to play it"),
        (START, (6, 5), "-", "backgammon", "you must use both dice"),
        (START, (4, 4), "1/5", "backgammon", "you must play 2 of your 4s"),
        (START, (4, 4), "1/5 5/9 9/13", "backgammon", "13 is held by black"),
        (
            NOT_HOME,
            (2, 1),
            "24/off",
            "backgammon",
            "you cannot bear off until all your checkers are in the last quarter (19-24)",
        ),
        (
            TWO_HOME,
            (6, 6),
            "24/off",
            "backgammon",
            "a 6 bears off from 19; a larger die bears off only your rearmost checker (20)",
        ),
        (
            HOME,
            (6, 3),
            "21/off 24/off",
            "trictrac",
            "under the trictrac bear-off, bear off with a die larger than needed as few "
            "times as you can",
        ),
    ],
)
def test_reason_names_the_broken_rule(
    position: Position, dice: tuple[int, int], play: str, bearoff: BearOff, reason: str
) -> None:
    assert str(explain_illegal(position, dice, parse_play(play), bearoff)) == reason


def test_same_play_written_in_another_legal_order_is_accepted() -> None:
    postillon_on_17 = Position.from_points(WHITE, {1: 14, 17: 1}, {1: 15})
    assert explain_illegal(postillon_on_17, (5, 2), parse_play("17/22 22/24")) is None
    assert explain_illegal(postillon_on_17, (5, 2), parse_play("17/19 19/24")) is None
    assert str(explain_illegal(postillon_on_17, (5, 2), parse_play("1/6 17/19"))) == (
        "the postillon must reach the last quarter (19-24) before another checker leaves the talon"
    )
