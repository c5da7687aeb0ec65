"""The turn-entry model behind the Jacquet screen: only prefixes of legal plays, with reasons."""

from __future__ import annotations

import pytest

from client.screens.jacquet_turn import TurnEntry
from engine.jacquet import OFF, Move, Position, explain_illegal, legal_plays

START = Position.initial()


def enter(entry: TurnEntry, source: int, target: int) -> None:
    paths = entry.destinations(source)
    assert target in paths, f"{source}->{target} not offered; offered {sorted(paths)}"
    entry.enter(paths[target])


def test_both_orders_of_a_legal_play_are_offered_and_accepted() -> None:
    entry = TurnEntry(START, (6, 5), "backgammon")
    assert entry.sources() == {1}
    assert set(entry.destinations(1)) == {6, 7, 12}
    enter(entry, 1, 6)
    assert not entry.complete
    assert entry.sources() == {6}
    enter(entry, 6, 12)
    assert entry.complete
    # The engine lists 1/7 7/12; the same play in the other order is just as legal.
    assert legal_plays(START, (6, 5)) == ((Move(1, 7), Move(7, 12)),)
    assert entry.play == (Move(1, 6), Move(6, 12))
    assert explain_illegal(START, (6, 5), entry.play) is None


def test_a_multi_die_destination_enters_every_step_and_undo_takes_one_back() -> None:
    entry = TurnEntry(START, (6, 5), "backgammon")
    enter(entry, 1, 12)
    assert len(entry.steps) == 2 and entry.complete
    assert entry.spent == (True, True)
    entry.undo()
    assert [step.move for step in entry.steps] == [Move(1, 6)]
    assert entry.dice_left == (6,) and entry.spent == (False, True)
    entry.undo()
    assert entry.steps == [] and entry.current == START


def test_the_postillon_must_reach_the_last_quarter_before_the_talon_moves() -> None:
    position = Position.from_points(0, {1: 14, 17: 1}, {1: 15})
    entry = TurnEntry(position, (5, 2), "backgammon")
    assert entry.sources() == {17}
    assert "postillon must reach the last quarter" in entry.refuse_source(1)
    enter(entry, 17, 19)
    assert entry.sources() == {1, 19}  # home now: the talon is free for the 5
    enter(entry, 1, 6)
    assert entry.complete


def test_a_closed_point_is_refused_naming_its_holder() -> None:
    entry = TurnEntry(START, (6, 6), "backgammon")
    assert set(entry.destinations(1)) == {7}
    assert entry.refuse_destination(1, 13) == "13 is held by black"


def test_when_only_one_die_can_be_played_it_must_be_the_higher() -> None:
    # Postillon on 10, white's 21 closed by black: 10/16 only (RULES 3).
    position = Position.from_points(0, {1: 14, 10: 1}, {1: 14, 9: 1})
    entry = TurnEntry(position, (6, 5), "backgammon")
    assert set(entry.destinations(10)) == {16}
    assert entry.refuse_destination(10, 15).startswith("you must play the 6")
    enter(entry, 10, 16)
    assert entry.complete


@pytest.mark.parametrize(
    ("source", "target", "expected"),
    [
        (1, 3, "1 to 3 is 2 points; the dice left are 6 and 5"),
        (12, 7, "checkers only move forward: 12 toward 24, then off"),
    ],
)
def test_impossible_distances_are_explained(source: int, target: int, expected: str) -> None:
    entry = TurnEntry(START, (6, 5), "backgammon")
    assert entry.refuse_destination(source, target) == expected


def test_picking_what_is_not_yours_is_explained() -> None:
    entry = TurnEntry(START, (6, 5), "backgammon")
    assert entry.refuse_source(13) == "13 is held by black: pick one of your white checkers"
    assert entry.refuse_source(5) == "you have no checker on 5"


def test_bearing_off_waits_for_the_last_quarter_and_a_larger_die_takes_the_rearmost() -> None:
    position = Position.from_points(0, {21: 1, 24: 1}, {1: 15})
    entry = TurnEntry(position, (6, 3), "backgammon")
    assert entry.sources() == {21}
    assert set(entry.destinations(21)) == {24, OFF}
    assert entry.refuse_source(24) == (
        "no legal move from 24: a 3 bears off from 22; "
        "a larger die bears off only your rearmost checker (21)"
    )
    straggler = Position.from_points(0, {12: 1, 21: 1, 24: 1}, {1: 15})
    assert TurnEntry(straggler, (6, 3), "backgammon").refuse_destination(21, OFF) == (
        "you cannot bear off until all your checkers are in the last quarter (19-24)"
    )


def test_a_throw_with_nothing_to_play_is_a_forced_pass() -> None:
    # Black holds white's 2-7 (his 14-19): white's postillon cannot leave the talon.
    position = Position.from_points(0, {1: 15}, {1: 9, 14: 1, 15: 1, 16: 1, 17: 1, 18: 1, 19: 1})
    entry = TurnEntry(position, (6, 1), "backgammon")
    assert entry.forced_pass and entry.complete and entry.sources() == frozenset()


def test_a_typed_play_is_entered_whole_or_refused_with_nothing_entered() -> None:
    from engine.jacquet.notation import parse_spans

    entry = TurnEntry(START, (6, 5), "backgammon")
    refusal = entry.enter_typed(parse_spans("1/7 8/13"))  # the second move has no checker
    assert refusal == "8/13: you have no checker on 8" and entry.steps == []
    assert entry.enter_typed(parse_spans("-")) == (
        "-: " + str(explain_illegal(START, (6, 5), (), "backgammon"))
    )
    assert entry.enter_typed(parse_spans("1/12")) is None  # one checker over both dice
    assert entry.complete and [step.die for step in entry.steps] in ([5, 6], [6, 5])


def test_the_engines_reasons_are_said_in_the_players_language() -> None:
    """The engine gives a refusal as a clause; a French player reads it in French, the
    protocol's error and the JSON interfaces keep its English."""
    from client import i18n
    from engine.errors import NotationError
    from engine.jacquet.notation import parse_spans

    nbsp = "\u00a0"
    i18n.use("fr")
    try:
        entry = TurnEntry(START, (6, 6), "backgammon")
        assert entry.refuse_destination(1, 13) == "13 est tenue par les noirs"
        postillon_out = Position.from_points(0, {1: 14, 17: 1}, {1: 15})
        assert TurnEntry(postillon_out, (5, 2), "backgammon").refuse_source(1) == (
            f"aucun mouvement permis depuis 1{nbsp}: le postillon doit atteindre le dernier "
            "jan (19-24) avant qu'une autre dame quitte le talon"
        )
        five_and_six = TurnEntry(START, (6, 5), "backgammon")
        assert five_and_six.enter_typed(parse_spans("1/7 8/13")) == (
            f"8/13{nbsp}: vous n'avez pas de dame en 8"
        )
        why = explain_illegal(START, (6, 5), ((Move(1, 5)),))
        assert why is not None and i18n.say(why) == (
            f"1/5 demande un 4{nbsp}; les dés restants sont 6 et 5"
        )
        assert str(why) == "1/5 needs a 4; the dice left are 6 and 5"
        with pytest.raises(NotationError) as mistyped:
            parse_spans("1/7 7/30")
        assert i18n.say(mistyped.value.reason) == (
            f"'7/30'{nbsp}: un mouvement arrive sur une flèche de 1 à 24 ou dehors (off), pas "
            "sur 30"
        )
    finally:
        i18n.use("en")
