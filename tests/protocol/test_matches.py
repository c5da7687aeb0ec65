"""Complete matches through real sessions, real keys, real chains and real encoded bytes.

Every seat ends with the same records; the log verifies; the engine state each seat holds is
the state a plain engine replay of the same dice and plays reaches.
"""

from __future__ import annotations

import pytest

from engine.canonical import state_hash
from protocol.events import DiceRolled, MatchEnded, PlayMade
from protocol.games import GAMES
from protocol.local import LocalMatch
from protocol.logfile import encode_log, read_log
from protocol.selfplay import first_legal, selfplay
from protocol.verify import replay, verify_bytes, verify_log


def assert_consistent(match: LocalMatch) -> None:
    first = match.sessions[0]
    for session in match.sessions[1:]:
        assert session.records == first.records
        assert state_hash(session.state) == state_hash(first.state)
        assert session.ended == first.ended
    logs = {encode_log(match.setup, session.records) for session in match.sessions}
    assert len(logs) == 1
    report = verify_bytes(match.log_bytes())
    assert report.ok, report.error
    assert report.records == len(first.records)
    assert report.turns == first.turns


@pytest.mark.parametrize(
    ("players", "rules", "seed"),
    [(2, "daumont", 1), (2, "1792", 2), (5, "daumont", 3), (5, "1792", 4), (15, "daumont", 5)],
)
def test_goose_matches_end_identical_and_verified(players: int, rules: str, seed: int) -> None:
    match = selfplay("goose", {"rules": rules}, players=players, seed=seed, start_time=10**12)
    assert match.ended is not None and match.ended.reason == "finished"
    assert match.state.phase == "over"
    assert_consistent(match)


def test_goose_engine_replay_reaches_the_same_state() -> None:
    match = selfplay("goose", {"rules": "1792", "ante": 2, "fee": 3}, players=3, seed=9,
                     start_time=0)
    goose = GAMES["goose"]
    state = goose.new_state(match.setup.proposal.engine_options())
    for step in replay(read_log_bytes(match)):
        for event in step.events:
            if isinstance(event, DiceRolled):
                state = goose.throw(state, event.dice).state
                while type(state.awaiting).__name__ == "MissTurn":
                    state = goose.miss_turn(state).state
    assert state == match.state
    assert state.options.fee == 3 and state.pot == sum(state.paid)


@pytest.mark.parametrize("seed", range(8))
def test_jacquet_games_end_identical_and_verified(seed: int) -> None:
    bearoff = "trictrac" if seed % 2 else "backgammon"
    match = selfplay("jacquet", {"bearoff": bearoff}, seed=seed, start_time=0, choose=first_legal)
    assert match.ended is not None and match.ended.reason == "finished"
    assert match.ended.winner == match.state.winner
    assert_consistent(match)


def test_jacquet_match_to_five() -> None:
    match = selfplay("jacquet", {"match_to": 5}, seed="five", start_time=0, choose=first_legal)
    assert max(match.state.score) >= 5
    assert match.state.game > 1
    assert_consistent(match)
    plays = [e for s in replay(read_log_bytes(match)) for e in s.events if isinstance(e, PlayMade)]
    assert plays and all(p.notation for p in plays)


def test_the_log_file_is_the_log_bytes(tmp_path) -> None:
    path = tmp_path / "match.tablier"
    match = selfplay("jacquet", {}, seed=3, start_time=0, log_path=path)
    assert path.read_bytes() == match.log_bytes()
    assert verify_log(path).ok
    contents = read_log(path)
    assert contents.problem is None and len(contents.records) == len(match.sessions[0].records)


def test_same_seed_same_bytes_other_seed_other_dice() -> None:
    one = selfplay("goose", {}, seed="s", start_time=5, players=3).log_bytes()
    assert selfplay("goose", {}, seed="s", start_time=5, players=3).log_bytes() == one
    assert selfplay("goose", {}, seed="t", start_time=5, players=3).log_bytes() != one


def test_events_each_seat_sees_end_with_match_ended() -> None:
    match = LocalMatch.create("jacquet", {}, names=("A", "B"), now=0,
                              random_source=__import__("secrets").token_bytes)
    events = match.throw(0, 1)
    assert isinstance(events[-1], type(events[-1]))
    assert sum(isinstance(e, DiceRolled) for e in events) == 1
    match.resign(1, 2)
    assert match.ended == MatchEnded("resigned", winner=0, seat=1)
    for session in match.sessions:
        assert session.ended == match.ended
    assert verify_bytes(match.log_bytes()).result == "B resigned"


def read_log_bytes(match: LocalMatch):
    from protocol.logfile import parse_log

    return parse_log(match.log_bytes())


def test_rematch_same_players_new_match_and_default_log_name(tmp_path) -> None:
    from protocol.identity import seeded_source

    first = selfplay("jacquet", {"match_to": 1, "bearoff": "trictrac"}, seed="r", start_time=0,
                     choose=first_legal)
    second = first.rematch(random_source=seeded_source("again"), now=1_764_500_000_000,
                           log_data_dir=tmp_path)
    assert second.setup.public_keys == first.setup.public_keys
    assert second.setup.names == first.setup.names
    assert second.setup.proposal.options == first.setup.proposal.options
    assert second.setup.match_id != first.setup.match_id
    name = "2025-11-30T105320-jacquet-anne-bastien.tablier"
    assert second.log_path == tmp_path / "matches" / name
    second.throw(0, 1_764_500_001_000)
    second.close()
    assert verify_log(second.log_path).ok
