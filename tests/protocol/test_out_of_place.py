"""A record out of its place proves nothing against its signer (``protocol/errors.py``).

A member that lacks records — a seat whose log lost its tail, a spectator given a short
catch-up — is sent genuine records that follow the ones it lacks: a dice share "far ahead",
a play for a throw it has not rolled, a record signed over a history it does not hold. They
used to stop its match, naming their honest signer (#29, stop36 09 and 10). They are
refused now, naming nobody (:class:`~protocol.errors.OutOfPlace`), counted so the client asks
for what it lacks; in a transcript, its sender is named, never fatally; and once the
missing records come, the member catches up with the match."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.awaiting import ChoosePlay, ThrowDice
from protocol.chain import HashChain
from protocol.codec import pack
from protocol.errors import OutOfPlace, RemoteProtocolError
from protocol.identity import seeded_source
from protocol.local import LocalMatch
from protocol.messages import Play, Share, decode_message, seal
from protocol.selfplay import bot_choice
from protocol.session import MatchSession

ADA, BOB, MALLORY = 0, 1, 2


@cache
def played(game: str, players: int, actions: int) -> LocalMatch:
    """A match of *actions* throws and plays between honest seats (resumable: a seat can be
    rebuilt from a part of its log)."""
    match = LocalMatch.create(game, {}, names=[f"P{seat}" for seat in range(players)],
                              random_source=seeded_source(f"out-of-place {game}"), now=0,
                              resumable=True)  # fmt: skip
    now = 0
    for _ in range(actions):
        now += 1_000
        awaiting = match.awaiting
        if isinstance(awaiting, ThrowDice):
            match.throw(awaiting.seat, now)
        elif isinstance(awaiting, ChoosePlay):
            match.play(awaiting.seat, bot_choice(match.state, awaiting.dice), now)
        else:
            break
    return match


def back_from_a_short_log(match: LocalMatch, seat: int, kept: int) -> MatchSession:
    """*seat* rebuilt from the first *kept* records of its log (the tail was lost)."""
    source = seeded_source(match.renewal_secrets[seat])
    chain = HashChain.from_seed(match.chain_seeds[seat])
    session = MatchSession(match.setup, seat=seat, identity=match.identities[seat],
                           chain=chain, random_source=source)  # fmt: skip
    session.restore(match.sessions[0].records[:kept], NOW)
    return session


NOW = 10**7  # every record of :func:`played` is dated before it


def last_share_of(records: list[bytes], seat: int) -> bytes:
    return next(raw for raw in reversed(records)
                if isinstance(m := decode_message(raw), Share) and m.seat == seat)  # fmt: skip


def test_a_transcript_holding_an_honest_share_far_ahead_names_its_sender_not_its_signer() -> None:
    """Stop36 10: Mallory sends Bob, back two throws and more behind, a transcript of one
    genuine record, Ada's share of the current throw. It was judged as a live record and
    Bob's match stopped, naming Ada ("far ahead"). Now Mallory is named, the match goes on,
    and Ada's honest transcript then brings Bob to where the match is."""
    match = played("goose", 3, 12)
    records = match.sessions[0].records
    bob = back_from_a_short_log(match, BOB, len(records) - 9)
    assert match.sessions[0].throw_index - bob.throw_index >= 2
    refused = bob.refused
    with pytest.raises(RemoteProtocolError, match="in a transcript: P0's dice share") as caught:
        bob.receive_transcript(pack([last_share_of(records, ADA)]), NOW, sender=MALLORY)
    assert caught.value.seat == MALLORY and not caught.value.fatal
    assert bob.stopped is None and bob.ended is None and bob.refused == refused + 1
    bob.receive_transcript(match.sessions[ADA].transcript_from(len(bob.records)), NOW,
                           sender=ADA)  # fmt: skip
    assert bob.records == records and bob.state == match.state


def test_a_live_share_far_ahead_is_refused_naming_nobody_and_taken_once_its_turn_comes() -> None:
    """Stop36 09, in the session: a spectator whose catch-up stopped short hears Ada's live
    share of a later throw. Refused (OutOfPlace, no seat, not fatal), not held: the same
    bytes are taken once the records before them come."""
    match = played("goose", 3, 12)
    records = match.sessions[0].records
    eve = MatchSession(match.setup, seat=None)
    for record in records[:-9]:
        eve.receive_bytes(record, NOW)
    share = last_share_of(records, ADA)
    with pytest.raises(OutOfPlace, match=r"P0's dice share for throw \d+, ahead of") as caught:
        eve.receive_bytes(share, NOW, sender=ADA)
    assert caught.value.seat is None and not caught.value.fatal
    assert eve.stopped is None and eve.refused == 1 and not eve.holds(share)
    for record in records[-9:]:
        eve.receive_bytes(record, NOW)
    assert eve.records == records


def test_a_play_for_a_throw_not_rolled_here_is_out_of_place_not_illegal() -> None:
    """Jacquet: a play for a throw the receiver has not rolled was "sent a play for throw N,
    which is not awaited" — a fatal IllegalPlay naming its honest signer."""
    match = played("jacquet", 2, 30)
    records = match.sessions[0].records
    plays = [k for k, raw in enumerate(records) if isinstance(decode_message(raw), Play)]
    last = plays[-1]
    player = decode_message(records[last]).seat
    eve = MatchSession(match.setup, seat=None)
    for record in records[: plays[-2] - 2]:  # before the dice of the play before
        eve.receive_bytes(record, NOW)
    with pytest.raises(OutOfPlace, match="play for throw"):
        eve.receive_bytes(records[last], NOW, sender=player)
    assert eve.stopped is None
    for record in records[plays[-2] - 2 :]:
        eve.receive_bytes(record, NOW)
    assert eve.records == records


def _before_the_third_share() -> tuple[LocalMatch, list[bytes], MatchSession, Share]:
    """A two-seat Goose match, a spectator holding its first two records, and its third
    record: a thrower's share."""
    match = played("goose", 2, 4)
    records = match.sessions[0].records
    eve = MatchSession(match.setup, seat=None)
    for record in records[:2]:
        eve.receive_bytes(record, NOW)
    thrower = decode_message(records[2])
    assert isinstance(thrower, Share)
    return match, records, eve, thrower


def test_a_share_at_its_throw_signed_over_another_history_is_refused_not_a_desync() -> None:
    """The receiver lacks a record that moves no throw (a ``seen``, say): the next share
    names the current throw but was signed over a history the receiver does not hold. It
    used to be a fatal Desync ("saw another match than ours")."""
    match, records, eve, thrower = _before_the_third_share()
    assert thrower.state is not None
    # The thrower's share as its signer would sign it over a history the receiver lacks.
    elsewhere = Share(thrower.seat, thrower.n, thrower.time, thrower.link, thrower.renew, b"",
                      thrower.state, bytes(32))  # fmt: skip
    sealed = seal(elsewhere, match.identities[thrower.seat], match.setup.match_id)
    with pytest.raises(OutOfPlace, match="does not follow the 2 records held here"):
        eve.receive_bytes(sealed.encode(), NOW, sender=thrower.seat)
    assert eve.stopped is None
    for record in records[2:]:
        eve.receive_bytes(record, NOW)
    assert eve.records == records


def test_a_forged_link_at_a_throw_reached_stays_fatal_whatever_history_it_names() -> None:
    """What the receiver can judge from what it holds still proves the fault: a share off
    its signer's chain stops the match, naming him, even signed over a history it lacks."""
    match, _, eve, thrower = _before_the_third_share()
    forged = Share(thrower.seat, thrower.n, thrower.time, bytes(32), None, b"", thrower.state,
                   bytes(32))  # fmt: skip
    sealed = seal(forged, match.identities[thrower.seat], match.setup.match_id)
    with pytest.raises(RemoteProtocolError, match="committed chain") as caught:
        eve.receive_bytes(sealed.encode(), NOW, sender=thrower.seat)
    assert caught.value.fatal and caught.value.seat == thrower.seat and eve.stopped is not None


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(
    game=st.sampled_from([("goose", 3, 14), ("jacquet", 2, 24)]),
    data=st.data(),
)
def test_genuine_records_in_any_subset_and_order_never_stop_a_member_that_is_behind(
    game: tuple[str, int, int], data: st.DataObject
) -> None:
    """A spectator holds the first *kept* records of an honest match; any subset of the
    rest, in any order, comes to it — live from their signers, or in transcripts from any
    seat. Every record is genuine, so no error is fatal and the match never stops; an error
    names nobody or the transcript's sender. Then the whole match, in a transcript, brings
    it to the end of the honest log."""
    match = played(*game)
    records = match.sessions[0].records
    seats = match.setup.seats
    kept = data.draw(st.integers(0, len(records)), label="kept")
    rest = list(range(kept, len(records)))
    chosen = data.draw(st.lists(st.sampled_from(rest), unique=True) if rest else st.just([]),
                       label="delivered")  # fmt: skip
    eve = MatchSession(match.setup, seat=None)
    for record in records[:kept]:
        eve.receive_bytes(record, NOW)
    position = 0
    while position < len(chosen):
        size = data.draw(st.integers(1, len(chosen) - position), label="batch")
        batch = [records[k] for k in chosen[position : position + size]]
        position += size
        sender = data.draw(st.integers(0, seats - 1), label="sender")
        try:
            if data.draw(st.booleans(), label="in a transcript"):
                eve.receive_transcript(pack(batch), NOW, sender=sender)
            else:
                for record in batch:
                    signer = decode_message(record).seat
                    try:
                        eve.receive_bytes(record, NOW, sender=signer)
                    except RemoteProtocolError as error:
                        assert not error.fatal, error
                continue
        except RemoteProtocolError as error:
            assert not error.fatal, error
            assert error.seat in (None, sender), error
        assert eve.stopped is None
    assert eve.stopped is None
    eve.receive_transcript(pack(records), NOW, sender=0)
    assert eve.records == records and eve.state == match.state
