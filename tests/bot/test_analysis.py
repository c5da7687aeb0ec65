"""The analysis core: losses, marks, luck and ratings mean what they say; its JSON round-trips."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import engine.bot
from client.commands.analyze_log import analyse_log
from client.commands.selfplay import seat_players
from engine.bot import sides_of
from engine.bot.analysis import (
    MatchAnalysis,
    Turn,
    analyse_turn,
    mark,
    rank_plays,
    rating,
    roll_luck,
)
from engine.bot.analysis_json import (
    AnalysisFormatError,
    analysis_from_json,
    analysis_to_json,
)
from engine.bot.net import NETWORK, Network, outcome_equity
from engine.bot.netsearch import one_ply
from engine.bot.search import ROLLS
from engine.jacquet import Position, format_play, legal_play_results, position_from_json
from protocol.selfplay import selfplay

# White bears off his last two with 6-3 (19/off 22/off) and wins; any other play leaves a
# checker, and black, with two on his 24, is off next turn whatever he throws.
LAST_ROLL = position_from_json({"turn": "white", "white": {"19": 1, "22": 1}, "black": {"24": 2}})


def test_the_one_winning_play_loses_nothing_and_the_others_are_very_bad() -> None:
    plays = [play for play, _after in legal_play_results(LAST_ROLL, (6, 3))]
    assert len(plays) > 1
    for play in plays:
        turn = analyse_turn(Turn(1, 0, LAST_ROLL, (6, 3), play))
        assert turn.best == "19/off 22/off"
        assert not turn.forced
        if format_play(play) == "19/off 22/off":
            assert (turn.loss, turn.mark) == (0, "")
        else:  # +1 (a single game won) against -1 (lost): two points thrown away
            assert (turn.loss, turn.mark) == (2_000_000, "very bad")
        assert turn.played_play.play == turn.played


def test_luck_is_a_roll_against_the_average_of_the_36() -> None:
    lucks = {roll: roll_luck(LAST_ROLL, roll) for roll, _ in ROLLS}
    assert sum(weight * lucks[roll] for roll, weight in ROLLS) in range(-36, 37)  # floor only
    # A throw wins (+1) or leaves black to win (-1): two values of luck, two points apart;
    # 6-3 takes both off, 6-2 leaves one (22/24), 3-3 takes both off, 2-2 does not.
    assert max(lucks.values()) - min(lucks.values()) == 2_000_000
    assert len(set(lucks.values())) == 2
    assert lucks[(6, 3)] > 0 > lucks[(6, 2)] and lucks[(3, 3)] > 0 > lucks[(2, 2)]


def test_marks_and_ratings_follow_the_documented_thresholds() -> None:
    assert [mark(x) for x in (0, 39_999, 40_000, 79_999, 80_000, 159_999, 160_000)] == [
        "", "", "doubtful", "doubtful", "bad", "bad", "very bad",
    ]  # fmt: skip
    assert [rating(x) for x in (0, 1_999, 2_000, 4_999, 12_000, 25_999, 34_999, 35_000)] == [
        "Supernatural", "Supernatural", "World class", "World class", "Intermediate",
        "Casual player", "Beginner", "Awful!",
    ]  # fmt: skip


def test_hints_rank_every_legal_play_best_first() -> None:
    ranked = rank_plays(LAST_ROLL, (6, 3))
    assert ranked[0].play == "19/off 22/off" and ranked[0].equity == 1_000_000
    assert len(ranked) == len(legal_play_results(LAST_ROLL, (6, 3)))
    assert all(sum(r.probabilities) == 1_000_000 for r in ranked)


@pytest.fixture(scope="module")
def random_against_level_three(tmp_path_factory: pytest.TempPathFactory) -> MatchAnalysis:
    path = tmp_path_factory.mktemp("analysis") / "random-v-3.tablier"
    selfplay("jacquet", {}, seed="analysis-1", start_time=0, log_path=path,
             choose=seat_players("random,3", "analysis-1"))  # fmt: skip
    analysis = analyse_log(path, plies=1).analysis
    assert analysis is not None
    return analysis


REFERENCE = Path(__file__).with_name("rollout_reference.json")
"""Decisions of random-against-level-3 matches whose two plays rollouts put in a clear order
(``scripts/rollout_reference.py``: level 2 plays on for both sides, no network involved)."""
AGREEMENT_FLOOR = 0.85
"""The share of those pairs the network must order as the rollouts do (a network that knows
nothing orders about half of them by chance)."""


def one_ply_lead(pair: dict[str, Any], network: Network) -> int:
    """How much better the analysis's network, at one ply, finds the made play than the other."""
    position = position_from_json(pair["position"])
    after = {format_play(play): result
             for play, result in legal_play_results(position, tuple(pair["dice"]))}  # fmt: skip
    made, other = (outcome_equity(one_ply(*sides_of(after[pair[name]]), network))
                   for name in ("made", "other"))  # fmt: skip
    return made - other


def agreement(network: Network) -> float:
    pairs = json.loads(REFERENCE.read_text(encoding="utf-8"))["pairs"]
    agreed = sum((one_ply_lead(pair, network) > 0) == (pair["lead"] > 0) for pair in pairs)
    return agreed / len(pairs)


def test_the_analysis_orders_plays_as_rollouts_do() -> None:
    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))
    assert len(reference["pairs"]) >= 30
    assert {pair["seat"] for pair in reference["pairs"]} == {0, 1}  # both players' decisions
    assert agreement(NETWORK) >= AGREEMENT_FLOOR


def test_a_network_that_knows_nothing_fails_the_rollouts() -> None:
    """The floor above is one a network must earn: with no weights it orders by chance."""
    data = json.loads((Path(engine.bot.__file__).parent / "equity_net.json").read_text())
    for name in ("w1", "b1", "w2", "b2"):
        data[name] = [0] * len(data[name])
    assert agreement(Network.from_json(data)) < AGREEMENT_FLOOR


def test_the_analysis_json_round_trips(random_against_level_three: MatchAnalysis) -> None:
    analysis = random_against_level_three
    text = json.dumps(analysis_to_json(analysis))
    assert analysis_from_json(json.loads(text)) == analysis
    broken = json.loads(text)
    broken["turns"][0]["dice"] = [7, 1]
    with pytest.raises(AnalysisFormatError, match="dice"):
        analysis_from_json(broken)
    with pytest.raises(AnalysisFormatError, match="tablier-analysis"):
        analysis_from_json({"format": "something else"})


def test_forced_turns_are_not_decisions() -> None:
    turn = analyse_turn(Turn(1, 0, Position.initial(), (6, 6), legal_play_results(
        Position.initial(), (6, 6))[0][0]))  # fmt: skip
    assert turn.forced and turn.loss == 0 and turn.best == turn.played == "1/7"


def test_the_tutor_judges_a_play_before_it_is_made() -> None:
    from engine.bot.analysis import judge
    from engine.jacquet import parse_play

    verdict = judge(LAST_ROLL, (6, 3), parse_play("19/22 22/off"))
    assert (verdict.best.play, verdict.loss, verdict.mark) == ("19/off 22/off", 2_000_000,
                                                               "very bad")  # fmt: skip
    with pytest.raises(ValueError, match="not a legal play"):
        judge(LAST_ROLL, (6, 3), parse_play("19/20"))
