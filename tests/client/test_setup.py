"""The client's copies of the engines' rules and defaults are the engines' own.

client/setup.py keeps them so that ``tablier --help`` and the lobby's first paint need not
import the engines; these tests are what keeps the copies true.
"""

from __future__ import annotations

import dataclasses

from client import setup
from engine.bot import LEVELS
from engine.goose import options as goose_options
from engine.jacquet import BEAROFF_RULES, JacquetOptions
from protocol.games import GAMES


def test_goose_player_counts_and_rule_sets_are_the_engines() -> None:
    assert (setup.GOOSE_MIN_PLAYERS, setup.GOOSE_MAX_PLAYERS) == (
        goose_options.MIN_PLAYERS,
        goose_options.MAX_PLAYERS,
    )
    assert (GAMES["goose"].min_seats, GAMES["goose"].max_seats) == (
        goose_options.MIN_PLAYERS,
        goose_options.MAX_PLAYERS,
    )
    assert setup.GOOSE_RULE_SETS == goose_options.RULE_SETS


def test_goose_defaults_are_the_engines() -> None:
    defaults = {f.name: f.default for f in dataclasses.fields(goose_options.GooseOptions)}
    assert (
        defaults["rules"],
        defaults["ante"],
        defaults["fee"],
    ) == (setup.GOOSE_DEFAULT_RULES, setup.GOOSE_DEFAULT_ANTE, setup.GOOSE_DEFAULT_FEE)


def test_jacquet_rules_and_defaults_are_the_engines() -> None:
    defaults = {f.name: f.default for f in dataclasses.fields(JacquetOptions)}
    assert tuple(BEAROFF_RULES) == setup.JACQUET_BEAROFF_RULES
    assert (
        defaults["match_to"],
        defaults["bearoff"],
    ) == (setup.JACQUET_DEFAULT_MATCH_TO, setup.JACQUET_DEFAULT_BEAROFF)


def test_the_option_bounds_are_the_engines() -> None:
    from engine.jacquet.game import MAX_MATCH_TO

    assert (setup.GOOSE_MAX_ANTE, setup.GOOSE_MAX_FEE) == (
        goose_options.MAX_ANTE,
        goose_options.MAX_FEE,
    )
    assert setup.JACQUET_MAX_MATCH_TO == MAX_MATCH_TO


def test_the_computer_levels_are_the_bots() -> None:
    assert setup.JACQUET_LEVELS == LEVELS


def test_a_setup_made_from_a_match_keeps_every_option_and_name() -> None:
    goose = setup.setup_for_match("goose", ("Ann", "Bob"), {"rules": "1792", "ante": 2, "fee": 0})
    assert goose == setup.GooseSetup(("Ann", "Bob"), rules="1792", ante=2, fee=0)
    twins = setup.setup_for_match("jacquet", ("Ann", "ann"), {"match_to": 5})
    assert isinstance(twins, setup.JacquetSetup)
    assert twins.names == ("Ann 1", "ann 2") and twins.match_to == 5
