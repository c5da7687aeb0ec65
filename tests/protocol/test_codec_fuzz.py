"""Untrusted bytes can only ever raise the protocol's own errors, and never pass as valid.

Hypothesis feeds random bytes and mutations of real, signed messages (shares, plays, chat,
setups, transcripts, whole logs) to every decoder a peer's bytes can reach.
"""

from __future__ import annotations

import contextlib
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.awaiting import ThrowDice
from protocol.codec import MAX_MESSAGE_BYTES, pack, unpack_transcript, unpack_untrusted
from protocol.errors import LogError, MalformedMessage, ProtocolError, RemoteProtocolError
from protocol.identity import seeded_source
from protocol.local import LocalMatch
from protocol.logfile import parse_log
from protocol.messages import decode_message
from protocol.session import MatchSession
from protocol.setup import MatchSetup, decode_setup_message
from protocol.verify import verify_bytes

FUZZ = settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def sample_match():
    """The first turns of a Jacquet match: shares, plays and a chat line, 24 records."""
    match = LocalMatch.create("jacquet", {}, names=("Anne", "Bastien"), now=1_700_000_000_000,
                              random_source=seeded_source("fuzz"))
    now = 1_700_000_000_000
    match.chat(1, "bonne chance", now)
    while len(match.sessions[0].records) < 24:
        now += 1000
        awaiting = match.awaiting
        if isinstance(awaiting, ThrowDice):
            match.throw(awaiting.seat, now)
        else:
            match.play(awaiting.seat, match.state.legal_plays()[-1], now)
    return match


@cache
def valid_messages() -> tuple[bytes, ...]:
    match = sample_match()
    records = match.sessions[0].records
    return (match.setup.encode(), *records[:20])


def mutate(data: bytes, edits: list[tuple[int, int, int]]) -> bytes:
    """Apply (kind, position, value) edits: overwrite, insert or delete one byte."""
    out = bytearray(data)
    for kind, position, value in edits:
        if not out:
            out.append(value)
            continue
        where = position % len(out)
        if kind == 0:
            out[where] = value
        elif kind == 1:
            out.insert(where, value)
        else:
            del out[where]
    return bytes(out)


edits = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 10**6), st.integers(0, 255)), min_size=1,
    max_size=4,
)


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes_raise_only_protocol_errors(data: bytes) -> None:
    for decode in (decode_message, MatchSetup.decode, unpack_transcript, decode_setup_message,
                   parse_log):
        with contextlib.suppress(ProtocolError):
            decode(data)


@settings(max_examples=400, deadline=None)
@given(edits)
def test_mutated_messages_raise_only_protocol_errors(changes) -> None:
    """Each example mutates every sample message alike: 400 x 25 = 10,000 mutated messages."""
    for original in valid_messages():
        data = mutate(original, changes)
        for decode in (decode_message, MatchSetup.decode):
            try:
                decoded = decode(data)
            except ProtocolError:
                continue
            # Decodable after a change: its canonical bytes are the new bytes, so the
            # signature (over those bytes) can only fail; unchanged, it round-trips.
            assert decoded.encode() == data


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12), edits)
def test_mutated_records_never_pass_a_session(index: int, changes) -> None:
    match = sample_match()
    records = match.sessions[0].records
    spectator = MatchSession(match.setup, seat=None)
    now = 1_800_000_000_000  # after the sample match, as a live spectator's clock would be
    for record in records[:index]:
        spectator.receive_bytes(record, now)
    data = mutate(records[index], changes)
    try:
        spectator.receive_bytes(data, now)
    except RemoteProtocolError:
        return
    assert data == records[index]


@settings(max_examples=200, deadline=None)
@given(edits)
def test_mutated_logs_raise_only_log_errors_or_fail_verification(changes) -> None:
    match = sample_match()
    original = match.log_bytes()
    offsets = parse_log(original).offsets
    data = mutate(original[: offsets[8]], changes)
    try:
        report = verify_bytes(data)
    except LogError:
        return
    assert report.ok == (data == original[: offsets[8]])


def test_limits_are_enforced_before_allocation() -> None:
    huge_array = b"\xdd\xff\xff\xff\xff"  # array32 claiming 4 billion items
    huge_bin = b"\xc6\x7f\xff\xff\xff"
    for data in (huge_array, huge_bin, bytes(MAX_MESSAGE_BYTES + 1)):
        try:
            unpack_untrusted(data)
        except MalformedMessage:
            continue
        raise AssertionError("accepted")
    assert unpack_untrusted(pack({"a": 1})) == {"a": 1}


def test_non_string_map_keys_and_extensions_are_refused() -> None:
    for data in (b"\x81\x01\x02", b"\xd4\x05\x00", b"\xd6\xff\x00\x00\x00\x01"):
        try:
            unpack_untrusted(data)
        except MalformedMessage:
            continue
        raise AssertionError(f"accepted {data!r}")
