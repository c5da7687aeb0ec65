"""The time limit rests on times every seat can check: a message dated ahead of the
receiver's clock is refused, a record dated before the one it follows is refused, a seat
whose turn came late says when it saw it, and a claim or resignation names a place the match
has reached. Each refusal names the seat that sent or signed the message."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.awaiting import ThrowDice
from protocol.bounds import MAX_TIME
from protocol.chain import HashChain
from protocol.clock import CLOCK_TOLERANCE_MS, MIN_TIME_LIMIT_MS
from protocol.codec import pack
from protocol.errors import (
    BadTime,
    IllegalPlay,
    LocalProtocolError,
    MalformedMessage,
    OutOfPlace,
    RemoteProtocolError,
)
from protocol.events import DiceRolled
from protocol.identity import Identity, seeded_source
from protocol.logfile import encode_log
from protocol.messages import Claim, Resign, Seen, Share, decode_message, seal
from protocol.session import MatchSession
from protocol.setup import Join, MatchSetup, Proposal
from protocol.verify import verify_bytes
from tests.protocol.helpers import Room, seats


def test_a_share_dated_far_ahead_is_refused_so_the_limit_still_runs() -> None:
    """The last revealer, who can work out the dice first, dates his share at the latest time
    a message may carry (the year 9999) to push the time limit away for ever. It is refused,
    naming him; the limit still runs from the throw, and after it the thrower may claim the
    match."""
    setup, (ann, bob), keys = seats("jacquet", 2)
    ann.throw(1_000)
    (throw,) = ann.data_to_send()
    bob.receive_bytes(throw, 1_000)
    (reveal,) = bob.data_to_send()
    stalling = seal(replace(decode_message(reveal), time=MAX_TIME), keys[1], setup.match_id)
    with pytest.raises(BadTime, match="more than a day ahead of this computer's clock") as caught:
        ann.receive_bytes(stalling.encode(), 2_000, sender=1)
    assert caught.value.seat == 1 and not caught.value.fatal
    assert ann.stopped is None and ann.awaited_seats() == (1,) and ann.deadline() == 61_000
    with pytest.raises(LocalProtocolError, match="still has 59 s to answer"):
        ann.claim_abandonment(1, 2_000)
    ended = ann.claim_abandonment(1, 61_000)[-1]
    assert (ended.reason, ended.seat, ended.winner) == ("abandoned", 1, 0)


def test_a_claim_dated_ahead_cannot_end_the_match_early() -> None:
    """Ann claims Bob abandoned one second into his turn, dating her claim at the limit (the
    tolerance used to be 60 s, as long as a limit could be). Bob's clock refuses it, naming
    her; he throws, and the match goes on."""
    setup, (ann, bob), keys = seats("goose", 2)
    ann.throw(1_000)  # the lots: Ann, then Bob
    bob.receive_bytes(ann.data_to_send()[0], 1_000)
    ann.receive_bytes(bob.data_to_send()[0], 1_000)
    assert bob.awaiting == ThrowDice(1, 2) and bob.deadline() == 61_000
    progress = bob.progress
    early = seal(Claim(0, progress.position, 61_000, 1, b"", progress.digest), keys[0],
                 setup.match_id)  # fmt: skip
    with pytest.raises(BadTime, match="P0's message is dated 59 s ahead") as caught:
        bob.receive_bytes(early.encode(), 2_000, sender=0)
    assert caught.value.seat == 0 and not caught.value.fatal and bob.ended is None
    bob.throw(3_000)
    assert len(bob.records) == 3 and bob.ended is None


def test_a_time_limit_is_never_shorter_than_six_times_the_tolerance() -> None:
    assert MIN_TIME_LIMIT_MS == 6 * CLOCK_TOLERANCE_MS
    with pytest.raises(LocalProtocolError, match="from 30 s to 24 h, not 1000 ms"):
        Proposal.create("goose", {}, seats=2, start_time=0, random_source=seeded_source(1),
                        time_limit_ms=1_000)  # fmt: skip
    proposal = Proposal.create("goose", {}, seats=2, start_time=0,
                               random_source=seeded_source(1))  # fmt: skip
    fields = proposal.fields()
    fields[5] = 1_000
    with pytest.raises(MalformedMessage, match="time limit"):  # a host's hand-made proposal
        Proposal.decode(pack(fields))


def test_a_record_dated_before_the_one_it_follows_is_refused_in_play_and_in_verify() -> None:
    setup, (ann, bob), keys = seats("goose", 2)
    ann.throw(100_000)
    (throw,) = ann.data_to_send()
    bob.receive_bytes(throw, 100_000)
    (reveal,) = bob.data_to_send()
    backwards = seal(replace(decode_message(reveal), time=90_000), keys[1], setup.match_id)
    with pytest.raises(BadTime, match="P1 dated a record 10 s before the one it follows") as caught:
        ann.receive_bytes(backwards.encode(), 100_500, sender=1)
    assert caught.value.seat == 1 and caught.value.fatal and ann.stopped is caught.value
    report = verify_bytes(encode_log(setup, ann.records))  # the log keeps the evidence
    assert not report.ok and report.bad_record == 1
    assert "dated a record 10 s before the one it follows" in (report.error or "")
    # Within the tolerance a record may come before the one it follows: clocks differ a bit.
    setup, (ann, bob), keys = seats("goose", 2)
    ann.throw(100_000)
    bob.receive_bytes(ann.data_to_send()[0], 100_000)
    skewed = seal(replace(decode_message(bob.data_to_send()[0]), time=96_000), keys[1],
                  setup.match_id)  # fmt: skip
    ann.receive_bytes(skewed.encode(), 100_500, sender=1)
    assert ann.throw_index == 1 and verify_bytes(encode_log(setup, ann.records)).ok


def test_a_resignation_or_claim_must_name_a_place_the_match_reached() -> None:
    """Resign and Claim used to accept any index (999,999 was accepted): now they name the
    position (how many game records came before) and one the match has not reached is
    dropped: it may follow records this member lacks, so it names nobody, and is counted
    among the refused (the client asks the others for what it lacks)."""
    setup, (ann, _), keys = seats("goose", 2)
    history = ann.progress.digest
    for message in (Resign(1, 999_999, 1_000, b"", history),
                    Claim(1, 999_999, 100_000, 0, b"", history)):  # fmt: skip
        signed = seal(message, keys[1], setup.match_id).encode()
        refused = ann.refused
        with pytest.raises(OutOfPlace, match="after record 999999, not reached") as caught:
            ann.receive_bytes(signed, 100_000, sender=1)
        assert caught.value.seat is None and not caught.value.fatal
        assert ann.refused == refused + 1
        with pytest.raises(OutOfPlace, match="not reached"):  # and a log holding one is bad
            MatchSession(setup, seat=None, strict=True).receive_bytes(signed, 0)
    assert ann.ended is None and ann.records == []
    ann.resign(2_000)  # a real resignation names the position it was made at
    assert decode_message(ann.records[0]).n == 0 and ann.ended.reason == "resigned"


def throw_and_hold_cys_reveal(room: Room) -> None:
    """Ann's lot reaches everyone at 1 s and Bob's reveal too; Cy's stays in his queue."""
    room.place(0)
    for member in range(4):
        room.read(member, 1_000)
    room.place(1)
    for member in range(4):
        room.read(member, 1_000)


def test_a_late_reveal_cannot_eat_the_next_players_time() -> None:
    """Goose, three seats, the lots: Ann throws, Bob reveals, and Cy, the last revealer, sits
    on his share for 55 of the 60 seconds (it is dated at the throw, as every reveal is), so
    that Bob, whose turn it then is, would have 5 s before Cy claims him abandoned. Bob's
    client says when it saw its turn — a signed ``seen`` — and his limit runs from there: Cy's
    claim at 61 s is refused, and every member's log says the same."""
    setup, sessions, keys = seats("goose", 3, echoed=True)
    ann, bob, cy = sessions
    room = Room(sessions, spectators=[MatchSession(setup, seat=None)])
    ann.throw(1_000)
    throw_and_hold_cys_reveal(room)
    room.place(2)  # 55 s later
    told = [room.read(member, 56_000) for member in range(4)]
    assert bob.awaiting == ThrowDice(1, 2)
    for member in (0, 1, 3):  # (Cy's own game took his share when he made it)
        assert any(isinstance(event, DiceRolled) for event in told[member])
    (seen,) = list(room.queues[1])
    assert isinstance(decode_message(seen), Seen) and decode_message(seen).time == 56_000
    assert bob.deadline() == 116_000  # in effect for Bob at once, for the others once placed
    room.place(1)
    for member in range(4):
        room.read(member, 56_100)
    assert all(member.deadline() == 116_000 for member in room.members)
    progress = cy.progress
    claim = seal(Claim(2, progress.position, 61_000, 1, b"", progress.digest), keys[2],
                 setup.match_id)  # fmt: skip
    with pytest.raises(IllegalPlay, match="P2 claimed P1 abandoned 55 s before the limit"):
        ann.receive_bytes(claim.encode(), 61_000, sender=2)
    with pytest.raises(LocalProtocolError, match="still has 55 s"):
        cy.claim_abandonment(1, 61_000)
    bob.throw(100_000)
    room.settle(100_000)
    assert len(room.logs()) == 1 and verify_bytes(room.logs().pop()).ok
    assert all(member.throw_index == 2 and member.ended is None for member in room.members)


def test_a_seen_on_its_way_does_not_hold_its_seat_back_and_a_claim_placed_first_wins() -> None:
    """Bob's turn came late: his client says so and he throws at once, both on their way. Cy
    had claimed him just before (past the limit as it stood): placed first, the claim ends
    the match on every screen, Bob's too; placed after, it was overtaken."""
    for claim_first in (True, False):
        setup, sessions, _ = seats("goose", 3, echoed=True)
        ann, bob, cy = sessions
        room = Room(sessions, spectators=[MatchSession(setup, seat=None)])
        ann.throw(1_000)
        throw_and_hold_cys_reveal(room)
        room.place(2)
        for member in (0, 2, 3):
            room.read(member, 1_000)
        room.read(1, 58_000)  # Bob's app was busy: his turn reaches him 57 s late
        bob.throw(58_000)
        cy.claim_abandonment(1, 61_100)
        room.collect()
        assert [type(decode_message(m)) for m in room.queues[1]] == [Seen, Share]
        if claim_first:
            room.place(2)
        room.settle(61_200)
        ends = {member.ended and (member.ended.reason, member.ended.seat) for member in
                room.members}  # fmt: skip
        assert ends == ({("abandoned", 1)} if claim_first else {None})
        assert len(room.logs()) == 1 and verify_bytes(room.logs().pop()).ok


def test_a_seen_stands_only_once_in_its_seats_turn_and_before_its_time_is_up() -> None:
    setup, (ann, bob), keys = seats("goose", 2)
    ann.throw(1_000)
    bob.receive_bytes(ann.data_to_send()[0], 1_000)
    ann.receive_bytes(bob.data_to_send()[0], 1_000)  # Bob's turn to throw his lot

    def seen(seat: int, time: int) -> bytes:
        progress = ann.progress
        message = Seen(seat, progress.position, time, b"", progress.digest)
        return seal(message, keys[seat], setup.match_id).encode()

    with pytest.raises(IllegalPlay, match="P0 says it is their turn, and it is not"):
        bob.receive_bytes(seen(0, 30_000), 30_000, sender=0)
    with pytest.raises(IllegalPlay, match="after their time was up"):
        ann.receive_bytes(seen(1, 70_000), 70_000, sender=1)
    ann.receive_bytes(seen(1, 30_000), 30_000, sender=1)
    assert ann.deadline() == 90_000
    with pytest.raises(IllegalPlay, match="said it was their turn twice"):
        ann.receive_bytes(seen(1, 40_000), 40_000, sender=1)
    assert ann.deadline() == 90_000 and ann.stopped is None


def test_the_first_turn_runs_from_when_its_player_saw_the_match_set_up() -> None:
    """The host dated his proposal when he opened the room (here at 0), and the match began
    ten minutes later, when its last seat was taken — or a hostile host dated it long ago on
    purpose, having seated his victim first. The first thrower's limit cannot have run out
    before he saw the match: his app takes the host's claim of abandonment as early and
    refuses it, naming the host, and a claim is taken only once the limit has run from when
    he saw the setup. A log's reader, who saw nothing live, still judges by the start time."""
    source = seeded_source("late-start")
    proposal = Proposal.create("jacquet", {}, seats=2, start_time=0, random_source=source,
                               time_limit_ms=60_000)  # fmt: skip
    keys = [Identity.generate(source) for _ in range(2)]
    chains = [HashChain.generate(source) for _ in range(2)]
    setup = MatchSetup.create(
        proposal,
        [
            Join.create(proposal, key, f"P{seat}", chain.tip)
            for seat, (key, chain) in enumerate(zip(keys, chains, strict=True))
        ],
    )
    victim = MatchSession(setup, seat=0, identity=keys[0], chain=chains[0], began=600_000)
    reader = MatchSession(setup, seat=None)
    assert victim.awaited_seats() == (0,) and victim.deadline() == 660_000
    early = seal(Claim(1, 0, 600_500, 0, b"", victim.progress.digest), keys[1], setup.match_id)
    with pytest.raises(
        RemoteProtocolError, match="P1 claimed P0 abandoned 1 min before the limit"
    ) as caught:
        victim.receive_bytes(early.encode(), 600_500, sender=1)
    assert caught.value.seat == 1 and not caught.value.fatal
    assert victim.ended is None and victim.stopped is None
    late = seal(Claim(1, 0, 660_000, 0, b"", victim.progress.digest), keys[1], setup.match_id)
    ended = victim.receive_bytes(late.encode(), 660_000, sender=1)[-1]
    assert (ended.reason, ended.seat, ended.winner) == ("abandoned", 0, 1)
    assert reader.deadline() == 60_000  # no live start given: the start time alone
