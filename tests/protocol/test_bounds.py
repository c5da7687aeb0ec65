"""The gate's bounds (protocol.bounds): a value beyond one is refused where it comes in, a
value within them builds nothing that overflows, and a start time is held to the receiver's
clock so every deadline stays within the time limit and the tolerance of it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.canonical import state_hash
from engine.goose import GooseOptions, new_game
from engine.goose.options import MAX_ANTE, MAX_FEE
from engine.jacquet.game import MAX_MATCH_TO
from protocol.bounds import (
    CLOCK_TOLERANCE_MS,
    MAX_INDEX,
    MAX_SEATS,
    MAX_TIME,
    MAX_TIME_LIMIT_MS,
    MIN_TIME_LIMIT_MS,
)
from protocol.errors import BadTime, LocalProtocolError, MalformedMessage
from protocol.identity import seeded_source
from protocol.logfile import default_log_path
from protocol.messages import Share, decode_message
from protocol.progress import Progress
from protocol.selfplay import selfplay
from protocol.setup import MatchSetup, Proposal, check_start
from tests.protocol.helpers import seats


def _proposal(game: str = "goose", seats_: int = 2, **options: int | str) -> Proposal:
    return Proposal.create(game, options, seats=seats_, start_time=0,
                           random_source=seeded_source("bounds"))  # fmt: skip


@pytest.mark.parametrize(
    ("game", "options", "said"),
    [
        ("goose", (("ante", 2**63),), "the ante is at most 1000 tokens"),
        ("goose", (("ante", MAX_ANTE + 1),), "the ante is at most 1000 tokens, not 1001"),
        ("goose", (("fee", 2**63 // 3),), "the fee is at most 1000 tokens"),
        ("goose", (("fee", 2**64 - 1),), "the fee is at most 1000 tokens"),
        ("jacquet", (("match_to", 2**63),), "a match is played to 1 to 99 points"),
        (
            "jacquet",
            (("match_to", MAX_MATCH_TO + 1),),
            "a match is played to 1 to 99 points, not 100",
        ),
    ],
)
def test_an_option_beyond_its_bound_is_refused_as_the_proposal_comes(
    game: str, options: tuple[tuple[str, int], ...], said: str
) -> None:
    forged = replace(_proposal(game), options=options)  # as a hostile host sends it
    with pytest.raises(MalformedMessage, match=f"the proposal is not a valid match: {said}"):
        Proposal.decode(forged.encode())
    with pytest.raises(LocalProtocolError, match=said):
        Proposal.create(game, dict(options), seats=2, start_time=0,
                        random_source=seeded_source("own"))  # fmt: skip


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("seats", MAX_SEATS + 1),
        ("seats", 2**63),
        ("time_limit_ms", MAX_TIME_LIMIT_MS + 1),
        ("time_limit_ms", MIN_TIME_LIMIT_MS - 1),
        ("start_time", MAX_TIME + 1),
        ("start_time", 2**64 - 1),
    ],
)
def test_a_count_or_time_beyond_its_bound_is_refused(field: str, value: int) -> None:
    forged = replace(_proposal(), **{field: value})
    with pytest.raises(MalformedMessage):
        Proposal.decode(forged.encode())


def test_a_goose_match_at_the_bounds_plays_and_hashes() -> None:
    """Fifteen seats, the largest ante and fee: a whole match plays, every state hashed."""
    match = selfplay("goose", {"ante": MAX_ANTE, "fee": MAX_FEE}, players=MAX_SEATS, seed=1,
                     start_time=MAX_TIME - 10**9)  # fmt: skip
    assert match.sessions[0].ended is not None
    state = match.sessions[0].state
    assert state.pot >= MAX_SEATS * MAX_ANTE


def test_the_largest_pot_the_bounds_allow_still_hashes() -> None:
    """The bound of protocol.bounds's arithmetic, put in a state: its hash is written."""
    pot = MAX_SEATS * MAX_ANTE + (MAX_INDEX + 1) * MAX_SEATS * MAX_FEE
    state = new_game(GooseOptions(players=MAX_SEATS, ante=MAX_ANTE, fee=MAX_FEE))
    worst = replace(state, pot=pot, paid=(pot,) * MAX_SEATS, turn_number=MAX_INDEX * MAX_SEATS)
    assert len(state_hash(worst)) == 32
    with pytest.raises(OverflowError):  # what the bounds keep out: 2^63 does not fit
        state_hash(replace(state, pot=2**63))


@pytest.mark.parametrize(
    ("field", "value"), [("n", MAX_INDEX + 1), ("seat", MAX_SEATS), ("time", MAX_TIME + 1)]
)
def test_a_message_beyond_the_bounds_is_malformed(field: str, value: int) -> None:
    share = Share(seat=1, n=0, time=5, link=bytes(32), renew=None, signature=bytes(64))
    assert decode_message(share.encode()) == share
    with pytest.raises(MalformedMessage):
        decode_message(replace(share, **{field: value}).encode())


def test_a_log_starting_at_the_latest_time_is_named(tmp_path: Path) -> None:
    """Its file name is a date: the latest start time is still one (it crashed the joiner
    at 2^63)."""
    setup, _sessions, _keys = seats("goose", 2)
    late = MatchSetup(replace(setup.proposal, start_time=MAX_TIME), setup.joins)
    assert default_log_path(late, tmp_path).name.startswith("9999-01-01T000000-goose-")


@given(
    start=st.integers(0, MAX_TIME),
    now=st.integers(0, MAX_TIME),
    limit=st.integers(MIN_TIME_LIMIT_MS, MAX_TIME_LIMIT_MS),
)
def test_a_start_time_taken_puts_the_first_deadline_within_reach(
    start: int, now: int, limit: int
) -> None:
    """Whatever the host writes, a start time the receiver takes leaves the first deadline
    no further than the limit and the tolerance from the receiver's own clock."""
    proposal = replace(_proposal(), start_time=start, time_limit_ms=limit)
    try:
        check_start(proposal, now)
    except BadTime as refused:
        assert start > now + CLOCK_TOLERANCE_MS and not refused.fatal
        return
    setup, _sessions, _keys = seats("goose", 2)
    progress = Progress.start(MatchSetup(proposal, setup.joins))
    assert progress.deadline() <= now + limit + CLOCK_TOLERANCE_MS


def test_a_start_ten_years_ahead_is_refused_and_one_from_the_past_taken() -> None:
    ten_years = 10 * 365 * 24 * 3600 * 1000
    now = 1_796_000_000_000
    with pytest.raises(BadTime, match="more than a day ahead of this computer's clock"):
        check_start(replace(_proposal(), start_time=now + ten_years), now)
    check_start(replace(_proposal(), start_time=now - ten_years), now)  # a room opened long ago
    check_start(replace(_proposal(), start_time=now + CLOCK_TOLERANCE_MS), now)


ROOT = Path(__file__).resolve().parent.parent.parent


def test_each_bound_of_protocol_bounds_is_stated_there_only() -> None:
    """A bound is stated once (issue 28, *one gate*): a module of the client, engine or
    protocol that needs one imports it from protocol.bounds. The chat panel had its own
    MAX_CHAT_CHARS = 500, free to drift from the one the protocol refuses past. (The relay,
    which may import nothing of the protocol, keeps its own, tied to these by its tests.)"""
    import ast

    tree = ast.parse((ROOT / "protocol" / "bounds.py").read_text(encoding="utf-8"))
    stated = {node.target.id for node in tree.body
              if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}  # fmt: skip
    found = []
    for package in ("engine", "protocol", "client"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path == ROOT / "protocol" / "bounds.py":
                continue  # (what it takes from protocol.clock is stated there, once)
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                assigned = isinstance(node, ast.Assign)
                annotated = isinstance(node, ast.AnnAssign)
                targets = node.targets if assigned else [node.target] if annotated else []
                found += [f"{path.relative_to(ROOT)}: {target.id}" for target in targets
                          if isinstance(target, ast.Name) and target.id in stated]  # fmt: skip
    assert found == []
