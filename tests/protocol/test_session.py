"""The session's rules beyond plain play: arrival order, renewal, time limits, resign, chat,
resync, spectators, and the line between local misuse and a peer's fault."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.awaiting import ChoosePlay, ThrowDice
from protocol.bounds import CHAT_AHEAD, HELD_PER_SEAT
from protocol.codec import pack
from protocol.errors import (
    BadShare,
    BadSignature,
    IllegalPlay,
    LocalProtocolError,
    MalformedMessage,
    RemoteProtocolError,
)
from protocol.events import ChatReceived, DiceRolled, Ignored, MatchEnded
from protocol.identity import verify_signature
from protocol.logfile import encode_log
from protocol.messages import Chat, Claim, Share, decode_message, seal
from protocol.progress import first_digest
from protocol.session import MatchSession
from protocol.verify import verify_bytes
from tests.protocol.helpers import pump, seats


def play_to_end(sessions, now: int = 0) -> int:
    while not sessions[0].ended:
        now += 1000
        awaiting = sessions[0].awaiting
        actor = sessions[awaiting.seat]
        if isinstance(awaiting, ThrowDice):
            actor.throw(now)
        else:
            actor.play(actor.state.legal_plays()[0], now)
        pump(sessions, now)
    return now


def test_chains_renew_before_running_out_and_the_log_verifies() -> None:
    setup, sessions, _ = seats("goose", 2, links=3)
    play_to_end(sessions)
    shares = [decode_message(r) for r in sessions[0].records]
    renewals = [s for s in shares if isinstance(s, Share) and s.renew is not None]
    assert sessions[0].throw_index > 3
    assert sorted(s.seat for s in renewals) == [0, 1]
    assert all(s.n == 2 for s in renewals)  # with the third and last link of each chain
    assert verify_bytes(encode_log(setup, sessions[0].records)).ok


def test_shares_arriving_out_of_order_are_logged_in_canonical_order() -> None:
    _, sessions, _ = seats("goose", 4)
    sessions[0].throw(1)  # lots: seat 0 throws first
    thrower_share = sessions[0].data_to_send()
    # Seat 3 hears the thrower first and reveals; its share reaches seats 1 and 2 before the
    # thrower's does.
    sessions[3].receive_bytes(thrower_share[0], 1)
    early = sessions[3].data_to_send()
    for seat in (2, 1):
        assert sessions[seat].receive_bytes(early[0], 1) == []  # held back, nothing accepted
    pump(sessions, 1, order=[3, 2, 1, 0])
    sessions[0].receive_bytes(early[0], 1)  # the thrower hears seat 3 before seats 1 and 2
    for seat in (1, 2):
        sessions[seat].receive_bytes(thrower_share[0], 1)
    pump(sessions, 1, order=[3, 2, 1, 0])
    records = sessions[0].records
    assert [decode_message(r).seat for r in records] == [0, 1, 2, 3]
    assert all(s.records == records for s in sessions)
    assert sessions[0].throw_index == 1


def test_abandonment_claim_after_the_time_limit_only() -> None:
    setup, sessions, _ = seats("jacquet", 2)
    sessions[0].throw(1_000)
    pump(sessions, 1_000)
    awaiting = sessions[0].awaiting
    silent = awaiting.seat
    claimant = sessions[1 - silent]
    assert claimant.awaited_seats() == (silent,)
    with pytest.raises(LocalProtocolError, match="still has 1 min to answer"):
        claimant.claim_abandonment(silent, 1_000)
    with pytest.raises(LocalProtocolError, match="not the one the match is waiting for"):
        claimant.claim_abandonment(1 - silent, 100_000)
    events = claimant.claim_abandonment(silent, 61_000)
    ended = events[-1]
    assert ended.reason == "abandoned" and ended.seat == silent and ended.winner == 1 - silent
    assert ended.error.seat == silent
    pump(sessions, 61_500)
    seen = sessions[silent].ended
    assert (seen.reason, seen.seat, seen.winner) == ("abandoned", silent, 1 - silent)
    report = verify_bytes(encode_log(setup, sessions[0].records))
    assert report.ok and "abandoned" in report.result


def test_a_claim_before_the_limit_is_dropped_naming_the_claimant() -> None:
    """It proves nothing against the accused: the match goes on (it used to stop it)."""
    setup, sessions, keys = seats("goose", 2)
    early = seal(Claim(1, 0, 30_000, 0, b"", first_digest(setup.match_id)), keys[1],
                 setup.match_id)  # fmt: skip
    with pytest.raises(IllegalPlay, match="30 s before the limit") as caught:
        sessions[0].receive_bytes(early.encode(), 30_000)
    assert caught.value.seat == 1 and not caught.value.fatal
    assert sessions[0].stopped is None and sessions[0].ended is None
    assert sessions[0].records == []
    with pytest.raises(IllegalPlay, match="30 s before the limit"):  # a log holding it is bad
        MatchSession(setup, seat=None, strict=True).receive_bytes(early.encode(), 0)


def test_chat_is_signed_ordered_and_logged() -> None:
    setup, sessions, keys = seats("goose", 3)
    sessions[1].chat("bonjour à tous", 5)
    sessions[2].chat("salut", 6)
    pump(sessions, 6)
    assert len(sessions[0].records) == 2
    session = MatchSession(setup, seat=None)
    events = [e for r in sessions[0].records for e in session.receive_bytes(r, 7)]
    assert events == [ChatReceived(1, "P1", "bonjour à tous", 5), ChatReceived(2, "P2", "salut", 6)]
    with pytest.raises(LocalProtocolError, match="printable"):
        sessions[0].chat("\x1b[2Jboo", 8)
    sneaky = pack([2, 3, 1, 1, 9, "\x1b]0;pwned\x07", bytes(64)])
    with pytest.raises(MalformedMessage, match="control characters"):
        sessions[0].receive_bytes(sneaky, 9)
    other = seal(Chat(2, 0, 6, "something else", b""), keys[2], setup.match_id)
    with pytest.raises(IllegalPlay, match="second, different chat line"):
        sessions[1].receive_bytes(other.encode(), 9)


def test_resync_from_a_peers_transcript() -> None:
    setup, sessions, _ = seats("goose", 2)
    behind, ahead = sessions
    behind.throw(1)
    ahead.receive_bytes(behind.data_to_send()[0], 1)
    ahead.data_to_send()  # ahead's reveal is lost on the way: behind never completes the throw
    assert len(behind.records) == 1 and len(ahead.records) == 2
    events = behind.receive_transcript(ahead.transcript_from(len(behind.records)), 3)
    assert any(isinstance(e, DiceRolled) for e in events)
    assert behind.records == ahead.records and behind.state == ahead.state
    # A late spectator catches up from record 0; a record tampered in transit is refused.
    spectator = MatchSession(setup, seat=None)
    spectator.receive_transcript(ahead.transcript_from(0), 3)
    assert spectator.state == ahead.state
    records = list(ahead.records)
    bad = decode_message(records[-1])
    records[-1] = Share(bad.seat, bad.n, bad.time, bytes(32), None, bad.signature).encode()
    with pytest.raises(RemoteProtocolError):
        MatchSession(setup, seat=None).receive_transcript(pack(records), 3)


def test_local_misuse_is_local_and_changes_nothing() -> None:
    _, sessions, _ = seats("jacquet", 2)
    with pytest.raises(LocalProtocolError, match="not your throw"):
        sessions[1].throw(1)
    sessions[0].throw(1)
    with pytest.raises(LocalProtocolError, match="not your throw"):
        sessions[0].throw(1)
    pump(sessions, 1)
    while not isinstance(sessions[0].awaiting, ChoosePlay):
        sessions[sessions[0].awaiting.seat].throw(2)
        pump(sessions, 2)
    mover = sessions[0].awaiting.seat
    from engine.jacquet import parse_play

    with pytest.raises(LocalProtocolError, match="not your turn"):
        sessions[1 - mover].play(parse_play("1/2"), 3)
    with pytest.raises(LocalProtocolError):
        sessions[mover].play(parse_play("24/off"), 3)
    assert sessions[mover].data_to_send() == [] and sessions[mover].stopped is None
    with pytest.raises(LocalProtocolError, match="spectator"):
        MatchSession(sessions[0].setup, seat=None).throw(3)


def test_duplicates_from_the_relay_are_ignored_and_own_echo_too() -> None:
    _, sessions, _ = seats("goose", 2)
    sessions[0].throw(1)
    data = sessions[0].data_to_send()[0]
    sessions[1].receive_bytes(data, 1)
    assert sessions[1].receive_bytes(data, 1) == [Ignored("a message already received")]
    assert sessions[0].receive_bytes(data, 1) == [Ignored("our own message, echoed back")]


def test_replayed_share_after_the_throw_is_a_bad_share() -> None:
    setup, sessions, keys = seats("goose", 2)
    sessions[0].throw(1)
    pump(sessions, 1)
    old = decode_message(sessions[0].records[0])
    again = seal(Share(0, 0, 9, old.link, None, b""), keys[0], setup.match_id)
    with pytest.raises(BadShare, match="second, different dice share"):
        sessions[1].receive_bytes(again.encode(), 9)


def test_a_match_that_ended_ignores_late_game_messages() -> None:
    _, sessions, _ = seats("jacquet", 2)
    sessions[0].resign(1)
    pump(sessions, 1)
    assert sessions[1].ended == MatchEnded("resigned", winner=1, seat=0)
    with pytest.raises(LocalProtocolError, match="over"):
        sessions[1].throw(2)
    sessions[1].chat("gg", 3)  # chat still flows after the end
    pump(sessions, 3)
    assert isinstance(decode_message(sessions[0].records[-1]), Chat)


def test_networked_own_records_are_logged_when_they_come_back_and_a_stop_loses_none() -> None:
    """``echoed=True``: our throw changes the game at once but waits for its echo to be
    logged; a peer's chat that the relay put first goes first. When a peer then stops the
    match, what waited is logged, and the offending record last."""
    setup, (ada, bob), keys = seats("jacquet", 2, seed="echo", echoed={0})
    ada.throw(1)
    (share,) = ada.data_to_send()
    assert ada.records == [] and ada.unlogged() == 1 and ada.awaited_seats() == (1,)
    bob.chat("hi", 1)
    (chat,) = bob.data_to_send()
    ada.receive_bytes(chat, 2)  # the relay: Bob's line first, then our share's echo
    assert ada.records == [chat]
    ada.receive_bytes(share, 2)
    assert ada.records == [chat, share] and ada.unlogged() == 0
    ada.chat("and you?", 3)
    (own_chat,) = ada.data_to_send()
    assert ada.records == [chat, share] and ada.unlogged() == 1
    forged = seal(Chat(1, 1, 4, "x" * 10, b""), keys[0], setup.match_id).encode()  # Ada's key
    with pytest.raises(BadSignature):  # proves nothing against Bob: dropped, nothing lost
        ada.receive_bytes(forged, 4, sender=1)
    assert ada.stopped is None and ada.records == [chat, share] and ada.unlogged() == 1
    other = seal(Chat(1, 0, 4, "not what I said", b""), keys[1], setup.match_id).encode()
    with pytest.raises(IllegalPlay, match="second, different chat line"):  # Bob's own word
        ada.receive_bytes(other, 4, sender=1)
    assert ada.records == [chat, share, own_chat, other] and ada.unlogged() == 0
    report = verify_bytes(encode_log(setup, ada.records))
    assert not report.ok and report.bad_record == 3


def test_messages_waiting_for_what_they_follow_are_bounded_and_the_excess_dropped() -> None:
    """Chat lines 1 to CHAT_AHEAD, with line 0 never sent, wait for it; the next one is
    dropped, naming its sender — it may be the receiver that missed line 0, so it is not
    his fault — and the match goes on; sent again once line 0 came, it is taken."""
    setup, (ann, _), keys = seats("goose", 2)
    for n in range(1, CHAT_AHEAD + 1):
        line = seal(Chat(1, n, 1_000, f"line {n}", b""), keys[1], setup.match_id).encode()
        assert ann.receive_bytes(line, 1_000, sender=1) == []
    beyond = CHAT_AHEAD + 1
    late = seal(Chat(1, beyond, 1_000, f"line {beyond}", b""), keys[1], setup.match_id).encode()
    with pytest.raises(IllegalPlay, match="a chat line numbered 5, far ahead of the 0") as caught:
        ann.receive_bytes(late, 1_000, sender=1)
    assert caught.value.seat == 1 and not caught.value.fatal and ann.stopped is None
    assert ann.refused == 1  # (the client asks the others again)
    first = seal(Chat(1, 0, 1_000, "line 0", b""), keys[1], setup.match_id).encode()
    events = ann.receive_bytes(first, 1_000, sender=1)
    assert [event.text for event in events] == [f"line {n}" for n in range(beyond)]
    assert ann.receive_bytes(late, 1_000, sender=1)[0].text == f"line {beyond}"  # taken now


def test_one_seat_s_records_waiting_never_take_another_seat_s_room() -> None:
    """Mallory's chat lines ahead fill his own room to the brim; Bob's share, which must
    wait for Mallory's in the share order, still waits (refused, as it was when all seats
    shared one room, it would have been dropped naming Bob, and nobody sends it again)."""
    setup, sessions, keys = seats("goose", 3)
    ann = sessions[0]
    for n in range(1, 3 * HELD_PER_SEAT):
        line = seal(Chat(1, n, 1_000, "x", b""), keys[1], setup.match_id).encode()
        try:
            ann.receive_bytes(line, 1_000, sender=1)
        except IllegalPlay as error:
            assert error.seat == 1 and not error.fatal
    assert 0 < len(ann.held(1)) <= HELD_PER_SEAT
    assert ann.awaiting.seat == 0  # type: ignore[union-attr]
    sessions[0].throw(1_000)
    [share] = sessions[0].data_to_send()
    sessions[2].receive_bytes(share, 1_000, sender=0)
    [bob] = sessions[2].data_to_send()  # Bob reveals at once; Mallory (seat 1) holds his
    assert ann.receive_bytes(bob, 1_000, sender=2) == []
    assert ann.held(2) == [bob] and ann.awaited_seats() == (1, 2)


def counted_checks() -> tuple[list[bytes], Callable[[bytes, bytes, bytes], bool]]:
    """A signature check that counts: the signatures it checked, and the check."""
    checks: list[bytes] = []

    def counting(key: bytes, signature: bytes, data: bytes) -> bool:
        checks.append(signature)
        return verify_signature(key, signature, data)

    return checks, counting


def test_a_transcript_of_copies_of_a_record_held_costs_no_signature_check() -> None:
    """One signed chat line, held already, packed 179 times into a transcript (what fits a
    relay frame): each copy is known by its bytes before anything is decoded or checked.
    Before, every copy cost a signature check: 179 for one frame the sender signed nothing
    for."""
    setup, (_, bob), _keys = seats("goose", 2)
    checks, counting = counted_checks()
    eve = MatchSession(setup, seat=None, verify=counting)
    bob.chat("hello", 1_000)
    [line] = bob.data_to_send()
    assert [type(e) for e in eve.receive_bytes(line, 1_000, sender=1)] == [ChatReceived]
    assert len(checks) == 1
    assert eve.receive_transcript(pack([line] * 179), 1_000, sender=1) == []
    assert len(checks) == 1 and eve.records == [line]
    bob.chat("again", 1_001)
    [second] = bob.data_to_send()  # a new record among the copies: checked once, taken
    events = eve.receive_transcript(pack([line, second, second, line]), 1_001, sender=1)
    assert [e.text for e in events] == ["again"] and len(checks) == 2  # type: ignore[attr-defined]


def test_a_transcript_of_records_that_change_nothing_is_read_no_further() -> None:
    """After the end, fifty distinct signed records (each would be ignored: the match is
    over) in one transcript: the first costs its signature check and changes nothing, and
    the rest is not read — a peer replaying that frame makes us check one signature per
    frame, not fifty."""
    from protocol.messages import Seen

    setup, (_, bob), keys = seats("goose", 2)
    checks, counting = counted_checks()
    eve = MatchSession(setup, seat=None, verify=counting)
    bob.resign(1_000)
    [resign] = bob.data_to_send()
    eve.receive_bytes(resign, 1_000, sender=1)
    assert eve.ended is not None and len(checks) == 1
    after = [seal(Seen(1, n, 1_000, b"", bytes(32)), keys[1], setup.match_id).encode()
             for n in range(50)]  # fmt: skip
    for _ in range(3):
        assert eve.receive_transcript(pack(after), 1_000, sender=1) == []
    assert len(checks) == 1 + 3 and eve.records == [resign]
