"""Every attack on a match is caught, by every honest seat, naming the culprit.

The attacker speaks as a real seat with that seat's real key (or another's), over the same
wire bytes an honest client sends.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.awaiting import ChoosePlay, ThrowDice
from engine.jacquet import legal_plays
from protocol.codec import pack
from protocol.errors import (
    BadShare,
    BadSignature,
    CorruptLog,
    Desync,
    IllegalPlay,
    LocalProtocolError,
    MalformedMessage,
    NotALog,
    VersionMismatch,
)
from protocol.events import Ignored, MatchEnded
from protocol.logfile import parse_log
from protocol.messages import Play, Share, decode_message, seal
from protocol.selfplay import selfplay
from protocol.verify import replay, verify_bytes


def advance_to_choice(match) -> ChoosePlay:
    """Throw until a Jacquet turn awaits a play."""
    now = 0
    while not isinstance(match.awaiting, ChoosePlay):
        now += 1
        match.throw(match.awaiting.seat, now)
    return match.awaiting


def stopped_everywhere(match, culprit: int, error_type: type) -> None:
    for seat, session in enumerate(match.sessions):
        if seat == culprit:
            continue
        assert isinstance(session.stopped, error_type)
        assert session.stopped.seat == culprit
        assert session.ended == MatchEnded("stopped", seat=culprit, error=session.stopped)
        with pytest.raises(LocalProtocolError, match="stopped"):
            session.receive_bytes(b"\x90", 0)


def test_forged_share_is_a_bad_share_on_every_side(make_match) -> None:
    match, keys = make_match("goose", players=3)
    match.throw(0, 1)  # lots: seat 0, then seat 1 throws
    assert match.awaiting == ThrowDice(1, 2)
    forged = seal(Share(1, 1, 2, bytes(range(32)), None, b""), keys[1], match.setup.match_id)
    for seat in (0, 2):
        with pytest.raises(BadShare, match="does not follow") as caught:
            match.sessions[seat].receive_bytes(forged.encode(), 2)
        assert caught.value.seat == 1
    stopped_everywhere(match, 1, BadShare)
    # The log keeps the evidence: verification names the forged record.
    report = verify_bytes(match.log_bytes())
    assert not report.ok and report.bad_record == len(match.sessions[0].records) - 1
    assert "seat 1" in report.error and "does not follow" in report.error


def test_replaying_an_old_link_for_a_new_throw_is_a_bad_share(make_match) -> None:
    match, keys = make_match("goose", players=2)
    match.throw(0, 1)
    old = decode_message(match.sessions[0].records[1])  # seat 1's reveal for throw 0
    assert isinstance(old, Share) and old.seat == 1
    replayed = seal(Share(1, 1, 5, old.link, None, b""), keys[1], match.setup.match_id)
    with pytest.raises(BadShare, match="forged or replayed"):
        match.sessions[0].receive_bytes(replayed.encode(), 5)


def test_a_relayed_duplicate_changes_nothing_but_a_logged_one_fails(make_match) -> None:
    match, _ = make_match("goose", players=2)
    match.throw(0, 1)
    session = match.sessions[0]
    again = session.records[1]
    assert session.receive_bytes(again, 2) == [Ignored("a message already received")]
    assert session.stopped is None and len(session.records) == 2
    tampered = match.log_bytes() + pack(again)
    report = verify_bytes(tampered)
    assert not report.ok and report.bad_record == 2 and "replayed" in report.error


def test_a_message_signed_for_another_seat_is_dropped_and_its_sender_named(make_match) -> None:
    """Seat 2 sends a share that names seat 0, with a signature that cannot be seat 0's. It
    proves nothing against seat 0: it is dropped, the seat that sent it is named, and the
    match goes on (it used to stop the match and blame seat 0)."""
    match, keys = make_match("goose", players=3)
    fake = seal(Share(0, 0, 1, bytes(32), None, b""), keys[2], match.setup.match_id)
    victim = match.sessions[1]
    with pytest.raises(BadSignature, match="P2 sent a message in P0's name") as caught:
        victim.receive_bytes(fake.encode(), 1, sender=2)
    assert caught.value.seat == 2
    with pytest.raises(BadSignature, match="not signed by their key") as caught:
        victim.receive_bytes(fake.encode(), 1)  # who sent it is not known: nobody is blamed
    assert caught.value.seat is None
    with pytest.raises(MalformedMessage) as caught:
        victim.receive_bytes(b"\xc1 not a message", 1, sender=2)
    assert caught.value.seat == 2
    assert all(session.stopped is None and session.ended is None for session in match.sessions)
    match.throw(0, 2)  # the real seat 0 throws: everyone goes on
    assert len(victim.records) == 3 and verify_bytes(match.log_bytes()).ok


def test_a_tampered_transcript_names_the_peer_who_sent_it(make_match) -> None:
    match, _ = make_match("goose", players=2)
    match.throw(0, 1)
    records = list(match.sessions[0].records)
    records[1] = records[1][:-1] + bytes([records[1][-1] ^ 1])  # seat 1's share, bit flipped
    from protocol.session import MatchSession

    late = MatchSession(match.setup, seat=None)
    with pytest.raises(BadSignature, match="in a transcript") as caught:
        late.receive_transcript(pack(records), 2, sender=0)
    assert caught.value.seat == 0 and late.stopped is None and len(late.records) == 1


def test_a_message_from_another_match_is_refused(make_match) -> None:
    match, keys = make_match("goose", players=2, seed="one")
    from protocol.identity import seeded_source
    from protocol.local import LocalMatch

    other = LocalMatch.create("goose", {}, names=("P0", "P1"), now=0, identities=keys,
                              random_source=seeded_source("two"))  # same keys, another match
    assert other.setup.match_id != match.setup.match_id
    share = other.sessions[0]
    share.throw(1)
    data = share.data_to_send()[0]
    with pytest.raises(BadSignature):
        match.sessions[1].receive_bytes(data, 1)


def test_illegal_jacquet_play_stops_the_match(make_match) -> None:
    match, keys = make_match("jacquet", seed="illegal")
    choice = advance_to_choice(match)
    mover = choice.seat
    legal = {p for p in legal_plays(match.state.position, choice.dice)}
    from engine.jacquet import parse_play

    illegal = "24/off"  # nobody is on 24 at the start, and bearing off is not allowed yet
    assert parse_play(illegal) not in legal
    message = seal(Play(mover, match.sessions[0].throw_index - 1, 9, illegal,
                        bytes(32), b""), keys[mover], match.setup.match_id)
    victim = match.sessions[1 - mover]
    with pytest.raises(IllegalPlay) as caught:
        victim.receive_bytes(message.encode(), 9)
    assert caught.value.seat == mover and f"P{mover}" in str(caught.value)
    report = verify_bytes(parse_log_bytes(victim))
    assert not report.ok and report.bad_record == len(victim.records) - 1


def test_wrong_state_hash_is_a_desync(make_match) -> None:
    match, keys = make_match("jacquet", seed="desync")
    choice = advance_to_choice(match)
    mover = choice.seat
    from engine.jacquet import format_play

    play = match.state.legal_plays()[0]
    message = seal(Play(mover, match.sessions[0].throw_index - 1, 9, format_play(play),
                        b"\x01" * 32, b""), keys[mover], match.setup.match_id)
    with pytest.raises(Desync, match="differs from ours") as caught:
        match.sessions[1 - mover].receive_bytes(message.encode(), 9)
    assert caught.value.seat == mover


def test_play_out_of_turn_is_illegal(make_match) -> None:
    match, keys = make_match("jacquet", seed="turn")
    choice = advance_to_choice(match)
    other = 1 - choice.seat
    from engine.jacquet import format_play

    message = seal(Play(other, match.sessions[0].throw_index - 1, 9,
                        format_play(match.state.legal_plays()[0]), bytes(32), b""),
                   keys[other], match.setup.match_id)
    # The receiver is the mover: a message claiming its own seat is refused outright,
    # so send it to a spectator replaying the same records instead.
    from protocol.session import MatchSession

    spectator = MatchSession(match.setup, seat=None)
    for record in match.sessions[0].records:
        spectator.receive_bytes(record, 9)
    with pytest.raises(IllegalPlay, match="out of turn"):
        spectator.receive_bytes(message.encode(), 9)


def test_unknown_version_is_reported_as_such() -> None:
    with pytest.raises(VersionMismatch, match="version 1, expected 2"):
        decode_message(pack([1, 1, 0, 0, 0, bytes(32), None, bytes(64)]))
    with pytest.raises(VersionMismatch, match="version 7, expected 2"):
        decode_message(pack([7, "some future shape"]))


def test_unknown_log_format_version(make_match) -> None:
    match, _ = make_match("goose")
    data = match.log_bytes()
    header = pack(["tablier-log", 9, [], b""])
    with pytest.raises(CorruptLog, match="log format version 9, expected 2"):
        parse_log(header + data[len(header):])
    with pytest.raises(NotALog):
        parse_log(b"PK\x03\x04 a zip file")


def test_truncated_log_keeps_its_good_prefix() -> None:
    match = selfplay("jacquet", {}, seed="trunc", start_time=0)
    data = match.log_bytes()
    records = match.sessions[0].records
    cut = data[:-7]
    contents = parse_log(cut)
    assert contents.records == tuple(records[:-1])
    assert contents.problem is not None and "truncated" in str(contents.problem)
    assert contents.problem.record == len(records) - 1
    assert len(list(replay(contents))) == len(records) - 1
    report = verify_bytes(cut)
    assert not report.ok and report.bad_record == len(records) - 1


def test_every_flipped_byte_of_a_log_is_caught() -> None:
    match = selfplay("jacquet", {}, seed="flip", start_time=1_700_000_000_000)
    full = match.log_bytes()
    offsets = parse_log(full).offsets
    short = full[: offsets[10]]  # header and ten records: every position, quickly
    assert verify_bytes(short).ok
    rng = random.Random(3)
    positions = [(short, p) for p in range(0, len(short), 2)]
    positions += [(full, p) for p in rng.sample(range(offsets[10], len(full)), 12)]
    for data, position in positions:
        flipped = bytearray(data)
        flipped[position] ^= 1 << rng.randrange(8)
        try:
            report = verify_bytes(bytes(flipped))
        except NotALog:
            continue
        except CorruptLog:
            continue
        assert not report.ok, f"flip at byte {position} went unnoticed"


def test_a_record_moved_out_of_place_is_refused() -> None:
    match = selfplay("goose", {}, seed="order", start_time=0, players=3)
    records = list(match.sessions[0].records)
    records[3], records[4] = records[4], records[3]  # two shares of one throw swapped
    from protocol.logfile import encode_log

    report = verify_bytes(encode_log(match.setup, records))
    assert not report.ok and report.bad_record == 3 and "out of order" in report.error


def test_garbage_from_the_relay_is_malformed(make_match) -> None:
    match, _ = make_match("goose")
    with pytest.raises(MalformedMessage):
        match.sessions[0].receive_bytes(b"\xc1\x00garbage", 1)


def parse_log_bytes(session) -> bytes:
    from protocol.logfile import encode_log

    return encode_log(session.setup, session.records)


def test_goose_thrower_from_another_game_state_is_a_desync(make_match) -> None:
    match, keys = make_match("goose", players=3, seed="goose-desync")
    match.throw(0, 1)
    session = match.sessions[2]
    # Seat 1 throws for real (its true next link), then re-signs the share claiming another
    # game state, as a client with a different engine would.
    match.sessions[1].throw(2)
    honest = decode_message(match.sessions[1].data_to_send()[0])
    lying = seal(replace(honest, state=b"\x07" * 32), keys[1], match.setup.match_id)
    with pytest.raises(Desync, match="throws from a game state that differs") as caught:
        session.receive_bytes(lying.encode(), 2)
    assert caught.value.seat == 1
    report = verify_bytes(parse_log_bytes(session))
    assert not report.ok and "differs from ours" in report.error


def test_a_log_has_one_byte_form_so_copies_compare_by_hash() -> None:
    """A record's bin header re-encoded as bin16, with the very same signed bytes inside,
    used to verify: two byte-different logs of one match both passed. Now every object must
    be in its one canonical encoding."""
    match = selfplay("goose", {}, seed="canonical", start_time=0, players=2)
    data = match.log_bytes()
    offsets = parse_log(data).offsets
    at = offsets[3]
    assert data[at] == 0xC4  # bin8: the shortest form for a record under 256 bytes
    widened = data[:at] + b"\xc5\x00" + data[at + 1 :]  # bin16, same length, same record
    contents = parse_log(widened)
    assert contents.records == parse_log(data).records[:3]
    assert contents.problem is not None and contents.problem.record == 3
    assert "canonical encoding" in str(contents.problem)
    report = verify_bytes(widened)
    assert not report.ok and report.bad_record == 3
    header = pack(["tablier-log", 2, match.setup.fields(), match.setup.match_id])
    assert data.startswith(header)
    padded = b"\x94\xab" + b"tablier-log" + b"\xd0\x02" + header[14:]  # 2 as int8
    with pytest.raises(CorruptLog, match="bad header: not in its one canonical encoding"):
        parse_log(padded + data[len(header) :])


def test_verify_checks_one_signature_per_seat_yet_names_the_first_bad_record() -> None:
    """Each seat's last signed game record commits to the history before it, so its one
    signature vouches for the seat's others: verify checks that one per seat. A signature
    broken further back still shows: the records after it no longer follow the history their
    signers saw, and the log is then checked signature by signature to name the broken one."""
    from protocol.messages import signed_data
    from protocol.session import MatchSession
    from protocol.verify import vouched

    match = selfplay("jacquet", {}, seed="vouch", start_time=0)
    data = match.log_bytes()
    contents = parse_log(data)
    checked: list[bytes] = []

    def verify(key: bytes, signature: bytes, signed: bytes) -> bool:
        checked.append(signed)
        return True

    fast = MatchSession(match.setup, seat=None, strict=True, check_signatures=False,
                        verify=verify)  # fmt: skip
    for record in contents.records:
        fast.receive_bytes(record, 0)
    assert not checked and vouched(fast)
    last = [decode_message(raw) for raw in contents.records[-3:]]
    vouchers = {signed_data(match.setup.match_id, m.unsigned_fields()) for m in last}
    assert len(checked) == 2 and set(checked) <= vouchers
    for index in (4, len(contents.records) - 1):  # early on, and a voucher itself
        end = contents.offsets[index + 1] if index + 1 < len(contents.records) else len(data)
        broken = bytearray(data)
        broken[end - 1] ^= 1  # the last byte of the record: its signature
        report = verify_bytes(bytes(broken))
        assert not report.ok and report.bad_record == index
        assert "is not signed by their key" in (report.error or "")
