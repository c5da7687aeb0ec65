"""The match in progress (client.net.playing) on its own: payloads in, the test's time, a
list for the log and one for what it sends; no socket, no shell. The matches are met in a
room in a list (tests/client/net/loop.py). Each test fails on the behaviour its name denies."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from client import i18n
from client.net import wire
from client.net.catchup import transcript
from client.net.match import NetMatch
from client.net.playing import Playing
from client.net.roster import Roster
from protocol.codec import pack
from protocol.errors import LocalProtocolError, RemoteProtocolError
from protocol.identity import Identity, seeded_source
from protocol.logfile import encode_log, read_log
from protocol.messages import Share, decode_message
from protocol.setup import MatchSetup
from tests.client.net.loop import TOKEN, LoopRoom


@pytest.fixture
def duo(tmp_path: Path) -> Iterator[LoopRoom]:
    room = LoopRoom.meet(tmp_path, ["Ada", "Bob"])
    yield room
    room.close()


class Watcher:
    """A spectator's Playing, fed by hand: what it sends and what it logs, in lists."""

    def __init__(self, room: LoopRoom) -> None:
        self.sent: list[wire.Payload] = []
        self.logged: list[bytes] = []
        self.roster = Roster("Eve")
        members = [(seat, match.name, True) for seat, match in enumerate(room.matches)]
        self.roster.welcomed(None, members, room.now)
        self.play = Playing(self.roster, self.sent.append)

    def begin(self, setup: MatchSetup, began: int = 0) -> None:
        self.play.begin(setup, identity=Identity.generate(seeded_source("eve")), chain=None,
                        random_source=None, log=self.logged, began=began)  # fmt: skip


def throws(room: LoopRoom, count: int) -> None:
    for _ in range(count):
        session = room.matches[0].session
        assert session is not None and session.awaiting is not None
        seat = session.awaiting.seat  # type: ignore[union-attr]
        room.matches[seat].act(lambda s: s.throw(room.now))
        room.pump()


def test_the_rooms_game_traffic_becomes_turns_chat_and_log_and_a_spectator_sends_nothing(
    duo: LoopRoom,
) -> None:
    start = len(duo.sent)
    throws(duo, 4)
    duo.act_all(1, "bonsoir")
    eve = Watcher(duo)
    assert duo.matches[0].setup is not None
    eve.begin(duo.matches[0].setup)
    for sender, payload in duo.sent[start:]:
        assert eve.play.traffic(sender, payload, duo.now, rematching=False)
        eve.play.cut_turn()
    ada = duo.matches[0].session
    assert ada is not None and eve.play.session is not None
    assert eve.logged == eve.play.session.records == ada.records
    assert len(eve.play.turns) == 4 and [line.text for line in eve.play.chats] == ["bonsoir"]
    assert not eve.sent and not eve.play.offences


def test_a_meeting_payload_is_not_the_plays(duo: LoopRoom) -> None:
    eve = Watcher(duo)
    assert duo.matches[0].setup is not None
    eve.begin(duo.matches[0].setup)
    setup = wire.SetupMsg(duo.matches[0].setup.encode())
    assert not eve.play.traffic(0, setup, duo.now, rematching=False)


def test_game_traffic_before_the_match_began_is_its_senders_fault_not_ours(
    duo: LoopRoom,
) -> None:
    eve = Watcher(duo)
    eve.roster.me = 5
    eve.play.traffic(5, wire.Game(b"mine, placed"), duo.now, rematching=False)
    assert not eve.play.offences
    eve.play.traffic(1, wire.Game(b"early"), duo.now, rematching=False)
    [offence] = eve.play.offences
    assert (offence.who, offence.text, offence.fatal) == (
        "Bob", "sent game traffic before the match began", False)  # fmt: skip


def test_a_fault_is_named_after_its_signer_else_its_sender_else_a_peer_in_each_language(
    duo: LoopRoom,
) -> None:
    eve = Watcher(duo)
    assert duo.matches[0].setup is not None
    eve.begin(duo.matches[0].setup)
    eve.play.remote_error(0, RemoteProtocolError("signed against the rules", seat=1))
    eve.play.remote_error(0, RemoteProtocolError("not signed by its seat", fatal=False))
    eve.play.remote_error(None, RemoteProtocolError("surfaced by our move", fatal=False))
    try:
        i18n.use("fr")
        eve.play.remote_error(None, RemoteProtocolError("surfaced by our move", fatal=False))
    finally:
        i18n.use("en")
    assert [offence.who for offence in eve.play.offences] == ["Bob", "Ada", "a peer", "un pair"]


def test_a_transcript_is_taken_in_its_place_and_not_after_a_gap(duo: LoopRoom) -> None:
    throws(duo, 3)
    ada = duo.matches[0]
    assert ada.session is not None and ada.setup is not None
    records = list(ada.session.records)
    eve = Watcher(duo)
    eve.begin(ada.setup)
    [later] = transcript(records, 2)
    eve.play.transcript(0, later, duo.now, rematching=False)
    assert eve.play.session is not None and eve.play.session.records == []
    assert eve.sent == []  # a spectator has no count to say (a player's: below)
    for part in transcript(records, 0):
        eve.play.transcript(0, part, duo.now, rematching=False)
    assert eve.play.session.records == records


def test_a_player_after_a_gap_says_how_far_he_is_once_and_not_while_a_rematch_is_met(
    duo: LoopRoom,
) -> None:
    throws(duo, 3)
    bob = duo.matches[1]
    assert bob.session is not None
    have = len(bob.session.records)
    past = wire.Transcript(have + 1, b"")  # records after one Bob does not hold
    start = len(bob.outbox)
    bob.play.transcript(0, past, duo.now, rematching=True)  # the next match is being met
    assert len(bob.outbox) == start
    for _ in range(2):
        bob.play.transcript(0, past, duo.now, rematching=False)
    [hello] = [wire.decode(sent.data) for sent in bob.outbox[start:]]
    assert isinstance(hello, wire.Hello) and (hello.seat, hello.have) == (1, have)


def test_no_action_while_the_rematch_is_met_and_an_action_sends_what_it_says(
    duo: LoopRoom,
) -> None:
    eve = Watcher(duo)
    with pytest.raises(LocalProtocolError, match="has not started"):
        eve.play.act(lambda session: session.chat("hi", duo.now), rematching=False)
    ada = duo.matches[0]
    with pytest.raises(LocalProtocolError, match="rematch is being set up"):
        ada.play.act(lambda session: session.chat("hi", duo.now), rematching=True)
    start = len(ada.outbox)
    assert ada.play.act(lambda session: session.chat("hi", duo.now), rematching=False)
    [said] = [wire.decode(sent.data) for sent in ada.outbox[start:]]
    assert isinstance(said, wire.Game)


def test_a_resumed_seat_skips_earlier_matches_traffic_keeping_who_sits_where(
    duo: LoopRoom,
) -> None:
    ada = duo.matches[0]
    assert ada.setup is not None
    setup = ada.setup
    joins = [payload for _, payload in duo.sent if isinstance(payload, wire.JoinMsg)]
    eve = Watcher(duo)
    eve.begin(setup)
    eve.roster.seat_of_member.clear()
    assert eve.play.replayed(7, joins[1])  # a join of this match's players: Bob is relay 7
    assert eve.roster.seat_of_member == {7: 1}
    assert eve.play.replayed(3, wire.Hello(0, 12))
    assert eve.roster.seat_of_member == {7: 1}  # a hello is not signed: it binds nobody
    assert eve.play.replayed(3, joins[1])  # nor does a copy of Bob's join, sent by another
    assert eve.roster.seat_of_member == {7: 1}
    assert eve.play.replayed(0, wire.Game(b"an earlier match's"))
    assert not eve.play.replayed(0, wire.SetupMsg(setup.encode()))  # this match begins


def test_only_a_throwers_share_leaves_its_place_to_the_answer_it_gets(duo: LoopRoom) -> None:
    """The relay tells a sender where it placed a message only when asked (Send.tell): the
    thrower's share need not ask, the other seat's share answers it at once and places it;
    after that answer, or a chat line, the room may wait on a person, so they ask."""
    session = duo.matches[0].session
    assert session is not None
    seat = session.awaiting.seat  # type: ignore[union-attr]
    thrower, other = duo.matches[seat], duo.matches[1 - seat]
    thrower.act(lambda s: s.throw(duo.now))
    [share] = thrower.outbox
    assert not share.tell
    other.receive(seat, share.data, duo.now)
    [answer] = other.outbox
    assert answer.tell and isinstance(wire.decode(answer.data), wire.Game)
    other.act(lambda s: s.chat("à toi", duo.now))
    assert [sent.tell for sent in other.outbox] == [True, True]


def test_a_resumed_seat_hands_the_screen_the_match_turn_by_turn_as_it_was_played(
    duo: LoopRoom, tmp_path: Path
) -> None:
    """Back from its log, a seat's screen is handed the turns the live seat was handed — not
    the whole match as one turn, which the screen played back checker by checker as the
    first mover's (issue 29, item 7: wrong pips and a stale prompt for seconds)."""
    throws(duo, 6)
    bob = duo.matches[1]
    live = list(bob.turns)
    assert len(live) == 6 and bob.logs.path is not None and bob.chain_secret is not None
    bob.close()  # (the room goes on without him: his log as he left it)
    back = NetMatch.resume(
        "player", "Bob", identity=bob.identity, chain_secret=bob.chain_secret,
        spectator_token=TOKEN, log=read_log(bob.logs.path), log_path=bob.logs.path,
        random_source=seeded_source("back"), now=duo.now, data_dir=tmp_path / "back",
    )  # fmt: skip
    try:
        turns = list(back.turns)
        assert [turn.seat for turn in turns] == [turn.seat for turn in live]
        assert [(turn.before, turn.after) for turn in turns] == [
            (turn.before, turn.after) for turn in live
        ]
    finally:
        back.close()


def test_a_transcript_of_several_turns_is_handed_to_the_screen_turn_by_turn(
    duo: LoopRoom,
) -> None:
    """As a log is (above): one turn cut of a whole transcript was played back as one
    mover's moves, the catching up's wrong pips."""
    throws(duo, 4)
    ada = duo.matches[0]
    assert ada.session is not None and ada.setup is not None
    live = list(duo.matches[1].turns)
    eve = Watcher(duo)
    eve.begin(ada.setup)
    [whole] = transcript(list(ada.session.records), 0)
    eve.play.transcript(0, whole, duo.now, rematching=False)
    assert len(live) == 4
    assert [(turn.seat, turn.before, turn.after) for turn in eve.play.turns] == [
        (turn.seat, turn.before, turn.after) for turn in live
    ]


def test_a_transcript_holding_an_honest_record_far_ahead_names_its_sender_and_play_goes_on(
    tmp_path: Path,
) -> None:
    """Stop36 10, through the client: Bob is back from a log that lost its last throws;
    before anyone answers him, Mallory sends him a transcript of one genuine record, Ada's
    latest share. It used to stop Bob's match, naming Ada ("far ahead"). Now Mallory is
    named, as a warning, and Ada's answer to his hello brings him where the match is."""
    room = LoopRoom.meet(tmp_path, ["Ada", "Bob", "Mallory"])
    try:
        throws(room, 6)
        ada, bob = room.matches[0], room.matches[1]
        assert ada.session is not None and bob.logs.path is not None
        assert bob.chain_secret is not None
        bob.close()
        contents = read_log(bob.logs.path)
        bob.logs.path.write_bytes(encode_log(contents.setup, contents.records[:-7]))
        back = NetMatch.resume(
            "player", "Bob", identity=bob.identity, chain_secret=bob.chain_secret,
            spectator_token=TOKEN, log=read_log(bob.logs.path), log_path=bob.logs.path,
            random_source=seeded_source("back"), now=room.now, data_dir=tmp_path / "back",
        )  # fmt: skip
        try:
            assert back.session is not None
            assert ada.session.throw_index - back.session.throw_index >= 2
            roster = [(0, "Ada", True), (2, "Mallory", True)]
            back.welcomed(1, roster, room.now)
            back.caught_up(room.now, complete=False)
            back.outbox.clear()
            share = next(raw for raw in reversed(ada.session.records)
                         if isinstance(m := decode_message(raw), Share)
                         and m.seat == 0)  # fmt: skip
            lie = wire.Transcript(0, pack([share]))
            back.receive(2, wire.encode(lie), room.now)
            assert back.session.stopped is None and back.broken is None
            [offence] = back.offences
            assert offence.who == "Mallory" and not offence.fatal, offence
            assert "in a transcript" in offence.text, offence.text
            have = len(back.session.records)
            [answer] = transcript(list(ada.session.records), have)
            back.receive(0, wire.encode(answer), room.now)
            assert back.session.records == ada.session.records and back.offences == [offence]
        finally:
            back.close()
    finally:
        room.close()
