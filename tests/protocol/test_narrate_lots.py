"""The lots told in plain words: a tie between three reads as a list, not "A and B and C"."""

from __future__ import annotations

from engine import goose
from protocol.narrate import narrate

NAMES = ("Alice", "Bruno", "Chloé", "Denis")


def test_a_tie_names_two_players_with_and() -> None:
    clause = str(narrate(goose.LotTied(seats=(0, 2), point=11), NAMES))
    assert clause == "Alice and Chloé tie on 11 and throw again"


def test_a_tie_of_three_is_a_list() -> None:
    clause = str(narrate(goose.LotTied(seats=(0, 1, 3), point=12), NAMES))
    assert clause == "Alice, Bruno and Denis tie on 12 and throw again"
