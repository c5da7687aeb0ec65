"""A late spectator's arrival (client.net.spectators.Arrival) on its own: the room's payloads
in as bytes, the test's time, the spectator's Playing with a list for its log; no socket, no
shell. Each test fails on the behaviour its name denies."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from client.net import wire
from client.net.playing import Playing
from client.net.roster import Roster
from client.net.spectators import MAX_HELD, Arrival
from protocol.identity import Identity, seeded_source
from protocol.setup import MatchSetup
from tests.client.net.loop import LoopRoom


@pytest.fixture
def trio(tmp_path: Path) -> Iterator[LoopRoom]:
    room = LoopRoom.meet(tmp_path, ["Ada", "Bob", "Cy"])
    for _ in range(4):  # a few turns in
        session = room.matches[0].session
        assert session is not None and session.awaiting is not None
        seat = session.awaiting.seat  # type: ignore[union-attr]
        room.matches[seat].act(lambda s: s.throw(room.now))
        room.pump()
    yield room
    room.close()


class Spectator:
    """Eve, announced to the room at *now*: her Playing, and the matches she began."""

    def __init__(self, room: LoopRoom, connected: tuple[bool, ...] = (True, True, True)) -> None:
        self.roster = Roster("Eve")
        members = [(seat, m.name, connected[seat]) for seat, m in enumerate(room.matches)]
        self.roster.welcomed(None, members, room.now)
        self.logged: list[bytes] = []
        self.play = Playing(self.roster, lambda payload: None)
        self.begun: list[MatchSetup] = []
        self.arrival = Arrival(room.now)

    def begin(self, setup: MatchSetup, began: int = 0) -> None:
        self.begun.append(setup)
        self.play.begin(setup, identity=Identity.generate(seeded_source("eve")), chain=None,
                        random_source=None, log=self.logged, began=began)  # fmt: skip

    def receive(self, relay_seat: int, data: bytes, now: int) -> bool:
        return self.arrival.receive(relay_seat, data, now, self.play, self.begin)


def offer(room: LoopRoom) -> list[bytes]:
    ada = room.matches[0]
    assert ada.session is not None
    return ada.offers.offer(ada.session)


def chat(room: LoopRoom, seat: int, text: str) -> bytes:
    """*seat*'s chat line, as the room would pass it on (taken out of its outbox)."""
    match = room.matches[seat]
    start = len(match.outbox)
    match.act(lambda session: session.chat(text, room.now))
    [sent] = match.outbox[start:]
    del match.outbox[start:]
    return sent.data


def test_what_comes_before_the_catch_up_is_held_and_the_arrival_is_over_once_it_came_whole(
    trio: LoopRoom,
) -> None:
    eve = Spectator(trio)
    early = chat(trio, 1, "before Ada's catch-up")
    assert not eve.receive(1, early, trio.now)
    header, *parts = offer(trio)
    assert not eve.receive(0, header, trio.now)
    assert eve.begun == [trio.matches[0].setup] and eve.arrival.source == 0
    assert [eve.receive(0, part, trio.now) for part in parts] == [False] * (len(parts) - 1) + [
        True
    ]
    ada = trio.matches[0].session
    assert ada is not None and eve.play.session is not None
    assert eve.play.session.records == eve.logged == ada.records
    assert not eve.arrival.refused and eve.arrival.held == [(1, early)]
    assert eve.play.turns and not eve.play.offences  # the match so far, for the screens


def test_a_second_offer_is_held_not_taken_and_the_setup_begun_once(trio: LoopRoom) -> None:
    eve = Spectator(trio)
    header, *_parts = offer(trio)
    eve.receive(0, header, trio.now)
    bob = trio.matches[1]
    assert bob.session is not None
    second = bob.offers.offer(bob.session)  # Bob's, as if he thought he should send it
    assert not eve.receive(1, second[0], trio.now)
    assert eve.arrival.source == 0 and len(eve.begun) == 1
    assert eve.arrival.held == [(1, second[0])]


def test_a_sender_who_leaves_midway_is_named_and_the_arrival_refused(trio: LoopRoom) -> None:
    eve = Spectator(trio)
    header, *_parts = offer(trio)
    eve.receive(0, header, trio.now)
    assert not eve.arrival.gone(1, eve.play)  # not the sender: nothing to say
    assert eve.arrival.gone(0, eve.play)
    [offence] = eve.play.offences
    assert offence.who == "Ada" and offence.fatal and eve.arrival.refused
    assert offence.text.startswith("left before its catch-up was complete (0 of ")


def test_a_sender_who_says_something_else_midway_stopped_his_catch_up(trio: LoopRoom) -> None:
    eve = Spectator(trio)
    header, *_parts = offer(trio)
    eve.receive(0, header, trio.now)
    assert eve.receive(0, chat(trio, 0, "and now for something else"), trio.now)
    [offence] = eve.play.offences
    assert offence.who == "Ada" and offence.text.startswith("stopped its catch-up after 0 of")
    assert eve.arrival.refused


def test_when_no_catch_up_comes_the_lowest_connected_player_is_named_for_it(
    trio: LoopRoom,
) -> None:
    eve = Spectator(trio, connected=(False, True, True))  # Ada away: Bob should have sent it
    line = chat(trio, 2, "la la la")
    assert not any(eve.receive(2, line, trio.now) for _ in range(MAX_HELD))
    assert eve.receive(2, line, trio.now)  # one more than it holds: nothing is coming
    [offence] = eve.play.offences
    assert offence.who == "Bob" and offence.fatal and eve.arrival.refused
    assert offence.text.startswith("sent no catch-up while the room went on")


def test_a_catch_up_that_skips_records_is_its_senders_fault(trio: LoopRoom) -> None:
    eve = Spectator(trio)
    header, *_parts = offer(trio)
    eve.receive(0, header, trio.now)
    assert eve.receive(0, wire.encode(wire.Transcript(2, b"")), trio.now)
    [offence] = eve.play.offences
    assert offence.who == "Ada"
    assert offence.text == "sent a catch-up that skips records (it went on at record 3, after 0)"


def test_the_waiting_note_names_whom_the_catch_up_is_expected_from(trio: LoopRoom) -> None:
    eve = Spectator(trio, connected=(False, True, True))
    assert eve.arrival.note(eve.play, trio.now + 2_000) == (
        "The match began before you arrived and the relay no longer holds its start: "
        "waiting for Bob to send it (for 2 s)."
    )
    nobody = Spectator(trio, connected=(False, False, False))
    assert "waiting for a player to connect and send it" in nobody.arrival.note(
        nobody.play, trio.now
    )


def test_an_offer_from_anyone_but_the_chosen_player_is_held_not_taken(trio: LoopRoom) -> None:
    """Bob (not the lowest connected player) announces the match and sends none of it: his
    offer is held like any payload, so he cannot make the room's traffic pile up until
    Ada, who was to send it, is named for it; hers is the one taken."""
    eve = Spectator(trio)
    bob = trio.matches[1]
    assert bob.session is not None
    hijack, *_rest = bob.offers.offer(bob.session)
    assert not eve.receive(1, hijack, trio.now)
    assert eve.arrival.source is None and not eve.begun and not eve.play.offences
    header, *parts = offer(trio)
    assert not eve.receive(0, header, trio.now)
    assert eve.arrival.source == 0
    assert [eve.receive(0, part, trio.now) for part in parts][-1]
    assert not eve.arrival.refused and eve.arrival.held == [(1, hijack)]


def test_a_sender_who_announces_the_match_and_goes_quiet_is_named_not_the_others(
    trio: LoopRoom,
) -> None:
    """Ada away, Bob is the one to send the match: he announces it, sends none of it, and
    the room goes on until Eve holds all she may. Ada, back meanwhile (the lowest connected
    player now), was never asked: Bob, who announced it, is named."""
    eve = Spectator(trio, connected=(False, True, True))
    bob = trio.matches[1]
    assert bob.session is not None
    header, *_rest = bob.offers.offer(bob.session)
    assert not eve.receive(1, header, trio.now) and eve.arrival.source == 1
    eve.roster.presence(0, "reconnected", "Ada", trio.now)
    line = chat(trio, 2, "la la la")
    assert not any(eve.receive(2, line, trio.now) for _ in range(MAX_HELD))
    assert eve.receive(2, line, trio.now)
    [offence] = eve.play.offences
    assert offence.who == "Bob" and offence.fatal and eve.arrival.refused
