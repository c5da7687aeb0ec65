"""NetMatch and its sans-I/O pieces through a room in a list: no relay, no socket, no clock
but the test's. Each test fails on the behaviour its name denies."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest

from client.game.link_status import LinkStatus
from client.net import wire
from client.net.catchup import (
    ACT_MARGIN_MS,
    ANSWER_SPACING_MS,
    BEHIND_LIMIT_MS,
    CatchUp,
    transcript,
)
from client.net.game import NetworkGame
from client.net.link import RelayLink
from client.net.match import NetMatch, Outgoing
from client.net.rematch import REMATCH_TIMEOUT_MS
from client.setup import SessionSettings
from protocol.clock import MIN_TIME_LIMIT_MS
from protocol.codec import unpack_transcript
from protocol.errors import LocalProtocolError
from protocol.events import ChatReceived
from protocol.identity import seeded_source
from protocol.setup import MatchSetup, Proposal
from tests.client.net.loop import TOKEN, LoopRoom


@pytest.fixture
def trio(tmp_path: Path) -> Iterator[LoopRoom]:
    room = LoopRoom.meet(tmp_path, ["Ada", "Bob", "Cy"])
    yield room
    room.close()


def ended(room: LoopRoom) -> None:
    """Cy resigns the match: it is over for everyone."""
    room.matches[2].act(lambda session: session.resign(room.now))
    room.pump()
    assert all(match.ended is not None for match in room.matches)


def ask_all(room: LoopRoom, seats: list[int]) -> None:
    for seat in seats:
        room.matches[seat].ask_rematch(room.now)
        room.pump()


def test_every_player_asks_and_the_rematch_is_a_new_match_for_everyone(trio: LoopRoom) -> None:
    first = trio.matches[0].setup
    ended(trio)
    winner = trio.matches[0].ended.winner  # type: ignore[union-attr]
    ask_all(trio, [1, 2])
    assert trio.matches[0].rematch_note() == "Bob, Cy would like a rematch: press a to play again."
    ask_all(trio, [0])
    assert all(m.setup is not first and m.setup == trio.matches[0].setup for m in trio.matches)
    assert all(m.ended is None and not m.rematching for m in trio.matches)
    wins = ["1" if seat == winner else "0" for seat in range(3)]
    for match in trio.matches:  # the room's score goes on across its matches
        assert match.score is not None and match.score.line() == (
            f"Running score after 1 game: Ada {wins[0]}, Bob {wins[1]}, Cy {wins[2]}"
        )


def test_a_proposal_a_player_never_joins_is_withdrawn_by_the_host_then_times_out(
    trio: LoopRoom,
) -> None:
    ended(trio)
    first = trio.matches[0].setup
    for seat in (1, 2):
        trio.matches[seat].ask_rematch(trio.now)
    trio.pump()
    trio.leave(2)  # Cy leaves after asking: no rematch without him
    with pytest.raises(LocalProtocolError, match="Cy left the room"):
        trio.matches[0].ask_rematch(trio.now)
    trio.back(2, complete=True)
    trio.matches[0].ask_rematch(trio.now)
    trio.here[2] = False  # Cy's app froze: it hears the proposal no more
    trio.pump()
    host, bob = trio.matches[0], trio.matches[1]
    assert host.rematching and bob.rematching
    # Bob joined with a fresh chain; his seat file still keeps the ended match's
    assert bob.seat_secret is not None and bob.seat_secret != bob.chain_secret
    assert host.rematch_note() == (
        "Ada proposed the rematch: 2 of 3 players joined… Press w to withdraw it."
    )
    with pytest.raises(LocalProtocolError, match="rematch is being set up"):
        bob.act(lambda session: session.chat("still there?", trio.now))
    with pytest.raises(LocalProtocolError, match="only the host"):
        bob.withdraw_rematch()
    trio.tick(REMATCH_TIMEOUT_MS - 1)
    assert host.rematching
    trio.tick(1)  # the host's timer withdraws it
    assert trio.said(wire.RematchWithdrawn) == [0]
    assert not host.rematching and not bob.rematching and host.setup is first
    assert bob.rematch_note() == "Ada withdrew the rematch: press a to ask for one again."
    trio.act_all(1, "next time then")  # chat works between matches again, in the ended log
    assert [line.text for line in host.chats if isinstance(line, ChatReceived)][-1:] == [
        "next time then"
    ]
    # Cy comes back: everyone asks again and the rematch begins, Cy seated as before.
    trio.back(2, complete=True)
    ask_all(trio, [0, 1, 2])
    assert all(m.setup is not first and m.setup == host.setup for m in trio.matches)
    assert trio.matches[2].seat == 2
    assert bob.seat_secret == bob.chain_secret  # the rematch's, now that it began


def test_a_withdrawal_from_anyone_but_the_host_is_his_fault_and_changes_nothing(
    trio: LoopRoom,
) -> None:
    ended(trio)
    ask_all(trio, [2])
    trio.here[2] = False  # Cy's app froze after asking: the proposal waits for him
    ask_all(trio, [1, 0])
    bob = trio.matches[1]
    assert bob.setup is not None
    match_id = bob.setup.match_id
    bob.outbox.append(Outgoing(wire.encode(wire.RematchWithdrawn(match_id))))  # Bob forges it
    trio.pump()
    assert trio.matches[0].rematching
    assert [(o.who, o.text) for o in trio.matches[0].offences] == [
        ("Bob", "withdrew a rematch, which only the host does")
    ]


def test_one_hello_per_reconnection_and_one_answer_each(trio: LoopRoom) -> None:
    trio.leave(1)
    trio.matches[0].act(lambda session: session.throw(trio.now))
    trio.pump()
    start = len(trio.sent)
    trio.back(1)  # the relay could not replay what Bob missed
    trio.pump()
    assert trio.said(wire.Hello, start) == [1, 0, 2]  # Bob's, then one answer from each
    transcripts = trio.said(wire.Transcript, start)
    assert transcripts and set(transcripts) <= {0, 2}
    records = {len(m.session.records) for m in trio.matches if m.session}
    assert len(records) == 1  # Bob caught up


def test_a_hostile_asker_gets_the_same_records_once() -> None:
    catch_up = CatchUp()
    records = [bytes([n]) * 100 for n in range(50)]
    sent = []
    for have in (10, 10, 30, 10, 9):
        out = catch_up.heard(3, seat=1, have=have, my_seat=0, records=records, heard_by={0, 3},
                             now=0)  # fmt: skip
        sent.append([p for p in out if isinstance(p, wire.Transcript)])
    starts = [[part.start for part in parts] for parts in sent]
    assert starts == [[10], [], [], [], [9]]  # only records never sent: from earlier than before
    assert catch_up_records(sent[4][0]) == records[9:10]  # and only those
    catch_up.came(3)  # it reconnected: the relay replays it what it missed, nothing is news
    for relay_seat in (3, 4):  # (nor is a new connection of the same signed seat)
        out = catch_up.heard(relay_seat, seat=1, have=10, my_seat=0, records=records,
                             heard_by={0, 3}, now=1)  # fmt: skip
        assert not [p for p in out if isinstance(p, wire.Transcript)]
    assert catch_up.due(records, now=ANSWER_SPACING_MS - 1) == []
    again = catch_up.due(records, now=ANSWER_SPACING_MS)  # what it asked, once per spacing
    assert [p.start for p in again if isinstance(p, wire.Transcript)] == [10]
    assert catch_up.due(records, now=3 * ANSWER_SPACING_MS) == []


def catch_up_records(part: wire.Payload) -> list[bytes]:
    assert isinstance(part, wire.Transcript)
    return list(unpack_transcript(part.data))


def test_transcripts_fit_the_relays_frame() -> None:
    records = [bytes(4000)] * 10
    chunks = transcript(records, 0)
    assert [chunk.start for chunk in chunks] == [0, 3, 6, 9]
    assert all(len(wire.encode(chunk)) <= wire.MAX_PAYLOAD for chunk in chunks)


def test_a_resumed_seat_is_told_whom_it_waits_for_and_acts_after_the_time_limit() -> None:
    catch_up = CatchUp()
    out = catch_up.caught_up(1, 7, heard_by={0, 1, 2}, wait_for={0, 2}, now=5_000)
    assert out == [wire.Hello(1, 7)] and not catch_up.in_step
    catch_up.heard(0, seat=0, have=7, my_seat=1, records=[b"r"] * 7, heard_by={0, 1, 2}, now=0)
    waiting = catch_up.waiting()
    assert waiting is not None and waiting.seats == (2,) and waiting.since == 5_000
    catch_up.heard(2, seat=2, have=9, my_seat=1, records=[b"r"] * 7, heard_by={0, 1, 2}, now=0)
    assert not catch_up.in_step  # Cy holds more: his records come first
    catch_up.grown(8, now=0)
    assert not catch_up.in_step
    catch_up.grown(9, now=0)  # his transcript came: Cy's word is heard
    assert catch_up.in_step and catch_up.waiting() is None


def test_a_seat_is_behind_until_it_holds_what_a_peer_said_and_never_past_the_limit() -> None:
    catch_up = CatchUp()
    catch_up.caught_up(0, 5, heard_by={0, 1}, now=0)
    assert catch_up.in_step and not catch_up.behind
    catch_up.heard(1, seat=1, have=8, my_seat=0, records=[b"r"] * 5, heard_by={0, 1}, now=100)
    assert catch_up.behind and not catch_up.in_step  # Bob holds more: his records first
    catch_up.grown(7, now=200)
    assert catch_up.behind
    catch_up.grown(8, now=1_000, moved_by={1})  # (his own records: they renew nothing)
    assert catch_up.in_step and not catch_up.behind
    # A claim never made good: behind for what is left of BEHIND_LIMIT_MS (900 ms spent),
    # then on what it holds, Bob named for it.
    catch_up.heard(1, seat=1, have=12, my_seat=0, records=[b"r"] * 8, heard_by={0, 1},
                   now=2_000)  # fmt: skip
    end = 2_000 + BEHIND_LIMIT_MS - 900
    assert catch_up.give_up(end - 1) == (False, []) and catch_up.behind
    assert catch_up.give_up(end) == (True, [(1, 12)]) and catch_up.in_step
    # Said again, or met by a chat line and said again, it holds it back no more...
    catch_up.heard(1, seat=1, have=12, my_seat=0, records=[b"r"] * 8, heard_by={0, 1},
                   now=40_000)  # fmt: skip
    assert catch_up.in_step
    catch_up.grown(12, now=41_000)
    catch_up.heard(1, seat=1, have=13, my_seat=0, records=[b"r"] * 12, heard_by={0, 1},
                   now=41_000)  # fmt: skip
    assert catch_up.in_step
    # ...until another seat's game record moves the match on: a new budget.
    catch_up.grown(13, now=42_000, moved_by={0})
    catch_up.heard(1, seat=1, have=14, my_seat=0, records=[b"r"] * 13, heard_by={0, 1},
                   now=42_000)  # fmt: skip
    assert catch_up.behind
    assert BEHIND_LIMIT_MS + ACT_MARGIN_MS <= MIN_TIME_LIMIT_MS  # its turn cannot be claimed


def test_catching_up_from_the_relays_welcome_until_the_records_a_peer_holds_are_in(
    trio: LoopRoom,
) -> None:
    """The sans-I/O state the game screen shows as "Catching up…": from the relay's
    welcome to the end of its replay, then while a peer's hello says it holds records this
    seat has not got (held back here by delivering the hello and not the transcript); the
    time passing ends it, a record of ours never did."""
    ada, bob = trio.matches[0], trio.matches[1]
    assert not bob.catching_up
    trio.leave(1)
    ada.act(lambda session: session.chat("while you were away", trio.now))
    trio.pump()
    trio.here[1] = True
    for other in (0, 2):
        trio.matches[other].presence(1, "reconnected", "Bob", trio.now)
    bob.welcomed(1, [(0, "Ada", True), (2, "Cy", True)], trio.now)
    assert bob.catching_up  # the relay replays what it kept
    bob.caught_up(trio.now, complete=False)  # it kept nothing: Bob says how far he is
    assert not bob.catching_up  # (nobody said he holds more yet)
    [hello] = [item.data for item in bob.outbox]
    bob.outbox.clear()
    ada.receive(1, hello, trio.now)
    answer = [(wire.decode(item.data), item.data) for item in ada.outbox]
    ada.outbox.clear()
    [ada_hello] = [data for payload, data in answer if isinstance(payload, wire.Hello)]
    parts = [data for payload, data in answer if isinstance(payload, wire.Transcript)]
    assert parts
    bob.receive(0, ada_hello, trio.now)
    assert bob.catching_up and bob.catch_up.behind  # Ada holds a record Bob has not
    for data in parts:
        bob.receive(0, data, trio.now)
    assert not bob.catching_up
    assert bob.session is not None and ada.session is not None
    assert bob.session.records == ada.session.records
    # Ada says again she holds more than Bob (as if a record were on its way) and never
    # sends it: Bob acts on what he holds once BEHIND_LIMIT_MS has passed.
    bob.catch_up.heard(0, seat=0, have=len(ada.session.records) + 1, my_seat=1,
                       records=bob.session.records, heard_by={0, 1, 2}, now=trio.now)  # fmt: skip
    assert bob.catching_up
    bob.tick(trio.now + BEHIND_LIMIT_MS - 1)
    assert bob.catching_up
    bob.tick(trio.now + BEHIND_LIMIT_MS)
    assert not bob.catching_up


def test_a_resumed_seat_says_whom_it_waits_for_and_may_act_past_the_bound(
    trio: LoopRoom,
) -> None:
    bob = trio.matches[1]
    assert bob.session is not None
    bob.catch_up.caught_up(1, 0, heard_by=set(), wait_for={0, 2}, now=trio.now)
    assert not bob.in_step
    assert bob.waiting_note(trio.now + 12_000) == (
        "Back in your seat: waiting for Ada, Cy to say how far the match went (for 12 s), so "
        "that nothing you sent before stopping is said twice. Wait, or leave with esc (your "
        "seat is kept); if nobody answers within 8 s, play goes on from where your log stops."
    )
    trio.here[0] = trio.here[2] = False  # nobody answers
    trio.tick(BEHIND_LIMIT_MS - 1)
    assert not bob.in_step
    trio.tick(1)
    assert bob.in_step and bob.waiting_note(trio.now) is None


class Unlinked:
    """What a NetworkGame asks of its relay link; the loop room does the sending."""

    status = LinkStatus("connected")

    def flush(self) -> None:
        pass


def test_a_computer_seat_accepts_the_rematch_a_person_asked_for(tmp_path: Path) -> None:
    room = LoopRoom.meet(tmp_path, ["Ada", "Bot"])
    settings = SessionSettings(animation=False, data_dir=tmp_path, computer_pause=0,
                               clock=lambda: room.now)  # fmt: skip
    computer = NetworkGame(room.matches[1], cast(RelayLink, Unlinked()), settings, computer=True)
    room.matches[0].act(lambda session: session.resign(room.now))
    room.pump()
    first = room.matches[0].setup
    assert room.matches[1].rematch is None  # nobody asked: the computer asks nothing
    room.matches[0].ask_rematch(room.now)
    room.pump()
    assert computer.superseded and room.matches[0].setup is not first
    assert room.matches[1].setup == room.matches[0].setup
    room.close()


def test_a_rematch_proposed_ten_years_ahead_is_refused_naming_the_host(trio: LoopRoom) -> None:
    """A rematch's start time is held to the receiver's clock as the first match's is: its
    first deadline would be out of anyone's reach."""
    from protocol.identity import seeded_source
    from protocol.setup import Proposal

    first = trio.matches[0].setup
    assert first is not None
    ended(trio)
    ask_all(trio, [1, 2])
    ahead = Proposal.create(first.game, dict(first.proposal.options), seats=first.seats,
                            start_time=trio.now + 10 * 365 * 86_400_000,
                            random_source=seeded_source("ahead"))  # fmt: skip
    token = trio.matches[0].spectator_token
    assert token is not None
    bob = trio.matches[1]
    bob.receive(0, wire.encode(wire.ProposalMsg(ahead.encode(), token)), trio.now)
    (offence,) = bob.offences
    assert offence.who == "Ada" and not offence.fatal
    assert offence.text.startswith("the proposed match starts more than a day ahead")
    assert not bob.rematching and bob.setup == first and not bob.outbox  # nothing joined


def test_a_proposal_with_a_malformed_spectator_token_is_refused(trio: LoopRoom) -> None:
    """The token becomes a watch invite and a field of every seat file: of its shape or
    nothing."""
    first = trio.matches[0].setup
    assert first is not None
    bob = trio.matches[1]
    forged = wire.ProposalMsg(first.proposal.encode(), "../../../.bashrc")
    bob.receive(0, wire.encode(forged), trio.now)
    (offence,) = bob.offences
    assert (offence.who, offence.text) == ("Ada", "proposed a match with a malformed spectator "
                                                  "token")  # fmt: skip
    assert bob.spectator_token != "../../../.bashrc"


def test_a_match_begun_long_after_its_proposal_gives_the_first_thrower_his_whole_limit(
    tmp_path: Path,
) -> None:
    """Ada opened the room and proposed at once; Bob joined ten minutes later, twice the time
    limit. The first turn is Ada's, and its limit runs from when each saw the match set up,
    not from the proposal's start time: Bob cannot claim her abandoned the moment it begins."""
    matches = [NetMatch("host", "Ada", random_source=seeded_source("late-Ada"),
                        data_dir=tmp_path / "Ada"),
               NetMatch("player", "Bob", random_source=seeded_source("late-Bob"),
                        data_dir=tmp_path / "Bob")]  # fmt: skip
    room = LoopRoom(matches)
    limit = 5 * 60_000
    proposal = Proposal.create("jacquet", {"match_to": 1}, seats=2, start_time=room.now,
                               random_source=seeded_source("late"),
                               time_limit_ms=limit)  # fmt: skip
    matches[0].propose(proposal, TOKEN)
    room.now += 2 * limit  # the proposal waits in the room; Bob comes
    room.pump()
    ada, bob = (match.session for match in matches)
    assert ada is not None and bob is not None and bob.awaited_seats() == (0,)
    assert bob.deadline() == ada.deadline() == room.now + limit
    with pytest.raises(LocalProtocolError, match="still has 5 min to answer"):
        bob.claim_abandonment(0, room.now)


def test_a_joiner_whose_name_reads_as_the_hosts_is_turned_away_blaming_nobody(
    tmp_path: Path,
) -> None:
    """The host joined as "ada" (a relay that let both names in, or one he lied to); Ada's
    own join comes second, so every client leaves it out. Ada's client does not blame
    itself, nor does anyone blame her: each signed his own name, nothing shows who lied. Her
    client stops with a sentence she can act on; nobody is seated for her."""
    names = ["ada", "Ada", "Bob"]
    matches = [
        NetMatch("host" if seat == 0 else "player", name,
                 random_source=seeded_source(f"clash-{seat}"), data_dir=tmp_path / str(seat))
        for seat, name in enumerate(names)
    ]  # fmt: skip
    room = LoopRoom(matches)
    proposal = Proposal.create("goose", {"rules": "daumont"}, seats=3, start_time=room.now,
                               random_source=seeded_source("clash"))  # fmt: skip
    matches[0].propose(proposal, TOKEN)
    room.pump()
    ada, bob = matches[1:]
    assert ada.broken == ("this room already has a player called ada: join again with another "
                          "name")  # fmt: skip
    assert [offence.who for match in matches for offence in match.offences] == []
    assert [join.name for join in bob.meetings.meeting.joins] == ["ada", "Bob"]
    assert not any(match.started for match in matches)  # the third seat waits for another
    room.close()


def test_a_setup_from_anyone_but_the_proposer_is_refused_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading a setup checks the signature of every join in it (up to fifteen): a member
    who did not propose the match is refused on who he is, before any of that work."""
    names = ["Ada", "Bob", "Cy"]
    matches = [NetMatch("host" if seat == 0 else "player", name,
                        random_source=seeded_source(f"early-{name}"), data_dir=tmp_path / name)
               for seat, name in enumerate(names)]  # fmt: skip
    room = LoopRoom(matches)
    room.leave(2)  # Cy is away: the meeting waits for its third seat
    proposal = Proposal.create("goose", {"rules": "daumont"}, seats=3, start_time=room.now,
                               random_source=seeded_source("early-proposal"))  # fmt: skip
    matches[0].propose(proposal, TOKEN)
    room.pump()
    bob = matches[1]
    assert not bob.started and bob.meetings.meeting.proposer == 0
    other = LoopRoom.meet(tmp_path / "other", names)  # a setup Cy could send: any will do
    forged = other.matches[0].setup
    assert forged is not None
    read = []
    real = MatchSetup.decode
    monkeypatch.setattr(MatchSetup, "decode", lambda data: read.append(data) or real(data))
    bob.receive(2, wire.encode(wire.SetupMsg(forged.encode())), room.now)
    (offence,) = bob.offences
    assert (offence.who, offence.text) == ("Cy", "tried to start a match it did not propose")
    assert read == [] and not bob.started
    other.close()
    room.close()


def test_a_record_refused_for_want_of_room_is_asked_for_again(trio: LoopRoom) -> None:
    """Cy's chat line numbered past what may wait is refused (naming Cy); Bob's client then
    says where it stands, so that whoever holds what he lacks sends it — now, and once more
    when he holds more (what he refused may follow what comes)."""
    from protocol.bounds import CHAT_AHEAD
    from protocol.messages import Chat, seal

    bob, cy = trio.matches[1], trio.matches[2]
    assert bob.session is not None and cy.session is not None
    ahead = cy.session.next_chat(2) + CHAT_AHEAD + 1
    line = seal(Chat(2, ahead, trio.now, "x", b""), cy.identity, cy.session.match_id).encode()
    bob.receive(2, wire.encode(wire.Game(line)), trio.now)
    assert [o.who for o in bob.offences] == ["Cy"]
    said = [wire.decode(sent.data) for sent in bob.outbox]
    assert [(p.seat, p.have) for p in said if isinstance(p, wire.Hello)] == [(1, 0)]
    bob.outbox.clear()
    thrower = trio.matches[0]  # Ada throws first: Bob's records grow, and he asks again
    thrower.act(lambda session: session.throw(trio.now))
    trio.pump()
    assert any(isinstance(p, wire.Hello) and p.seat == 1 and p.have > 0
               for sender, p in trio.sent if sender == 1)  # fmt: skip
