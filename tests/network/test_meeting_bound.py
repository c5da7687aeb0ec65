"""The meeting is bound to the relay's members (peer attacks 2 and 3): one join per relay
seat under its relay name, the setup holds the joins the room heard, only the host (the
room's first relay seat) proposes the first match and offers it again to whoever comes,
and a member back with no match asks the host for the setup that passed him by. Real
relay, real apps; the attacker is a hostile client or a host whose meeting seats otherwise."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from client.net import wire
from client.net.link import Backoff
from client.net.meeting import Meeting
from client.net.room import host_room, join_room
from client.setup import SessionSettings
from protocol.chain import HashChain
from protocol.codec import pack
from protocol.identity import Identity, seeded_source
from protocol.messages import Chat
from protocol.setup import Join, MatchSetup, Proposal
from relay.server import RelayServer
from tests.network.conftest import QUICK
from tests.network.hostile import Hostile
from tests.network.players import TIMEOUT


async def until(condition: Callable[[], bool], what: str) -> None:
    try:
        async with asyncio.timeout(TIMEOUT):
            while not condition():
                await asyncio.sleep(0.01)
    except TimeoutError:
        raise AssertionError(f"never: {what}") from None


async def test_one_connection_takes_one_seat_under_its_own_name(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    """Mallory's one connection signs a second join with a sock key under "Bob" (attack
    peer/04): every app refuses it, naming Mallory, and the real Bob gets the seat."""
    ada = await host_room(relay.url, "goose", {"rules": "daumont"}, seats=3, name="Ada",
                          settings=settings("Ada"), backoff=QUICK)  # fmt: skip
    mallory = Hostile(ada.invite, settings("Mallory"))
    bob = None
    try:
        await asyncio.wait_for(ada.link.connected.wait(), TIMEOUT)
        await mallory.enter()
        me = mallory.match.identity.public_key
        meeting = mallory.match.meetings.meeting
        await mallory.follow(lambda: any(j.public_key == me for j in meeting.joins))
        proposal = mallory.match.meetings.meeting.proposal
        assert proposal is not None and mallory.connection is not None
        source = seeded_source("sock")
        for name in ("Bob", "Mallory"):  # another's name; then his own, a second time
            sock = Identity.generate(source)
            join = Join.create(proposal, sock, name, HashChain.generate(source).tip)
            await mallory.connection.send(wire.encode(wire.JoinMsg(join.encode())))
        await until(lambda: len(ada.match.offences) == 2, "Ada's app refuses both joins")
        assert [(o.who, o.text) for o in ada.match.offences] == [
            ("Mallory", "joined the match a second time, as Bob"),
            ("Mallory", "joined the match a second time, as Mallory"),
        ]
        assert not ada.match.started
        bob = await join_room(ada.invite, name="Bob", settings=settings("Bob"), backoff=QUICK)
        await mallory.follow(lambda: mallory.match.started)
        await ada.wait_started(TIMEOUT)
        await bob.wait_started(TIMEOUT)
        assert ada.match.session is not None and bob.match.session is not None
        assert ada.match.session.setup.names == ("Ada", "Mallory", "Bob")
        assert bob.match.session.setup == ada.match.session.setup and bob.match.seat == 2
    finally:
        for room in (ada, bob):
            if room is not None:
                await room.close()
        if mallory.connection is not None:
            await mallory.connection.close()
        mallory.match.close()


async def test_a_host_who_seats_another_in_a_joined_players_place_is_named_and_left(
    relay: RelayServer,
    settings: Callable[[str], SessionSettings],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Mallory hosts and seats a sock of his own under Bob's name in Bob's place (attack
    peer/09): Bob's app does not quietly watch a match "Bob" plays; it stops, naming Mallory."""
    source = seeded_source("sock")
    sock = Identity.generate(source)

    def seated(self: Meeting) -> MatchSetup:  # (only the host's app seats)
        assert self.proposal is not None
        joins = [self.joins[0]] + [
            Join.create(self.proposal, sock, join.name, HashChain.generate(source).tip)
            for join in self.joins[1:]
        ]
        return MatchSetup.create(self.proposal, joins)

    monkeypatch.setattr(Meeting, "seated", seated)
    mallory = await host_room(relay.url, "jacquet", {"match_to": 1}, seats=2, name="Mallory",
                              settings=settings("Mallory"), backoff=QUICK)  # fmt: skip
    bob = None
    try:
        bob = await join_room(mallory.invite, name="Bob", settings=settings("Bob"),
                              backoff=QUICK)  # fmt: skip
        await until(lambda: bob is not None and bob.match.broken is not None, "Bob's app stops")
        said = "the match stopped: Mallory: seated the match without Bob, who joined it"
        assert bob.match.broken == said
        assert [(o.who, o.fatal) for o in bob.match.offences] == [("Mallory", True)]
        assert bob.match.session is None  # no match begun, nothing logged as his
        await until(lambda: bob is not None and bob.link.status.state == "failed",
                    "Bob's link leaves on it")  # fmt: skip
        assert bob.link.status.detail == said
    finally:
        for room in (mallory, bob):
            if room is not None:
                await room.close()


async def flush(hostile: Hostile, payload: bytes, count: int) -> None:
    """Push the relay's backlog (256 KiB a room) past what came before, paced under its
    default rate."""
    assert hostile.connection is not None
    for _ in range(count):
        await hostile.connection.send(payload)
        await asyncio.sleep(1 / 19)


async def test_a_late_joiner_gets_the_hosts_proposal_again_and_no_one_elses(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    """Mallory pushes the host's proposal out of the relay's backlog, then proposes a match
    of his own (attack peer/12). Bob, arriving, hears the host's proposal again (the host
    offers it to whoever comes) and joins it; Mallory's is refused, naming him."""
    ada = await host_room(relay.url, "goose", {"rules": "daumont"}, seats=3, name="Ada",
                          settings=settings("Ada"), backoff=QUICK)  # fmt: skip
    mallory = Hostile(ada.invite, settings("Mallory"))
    bob = None
    try:
        await asyncio.wait_for(ada.link.connected.wait(), TIMEOUT)
        await mallory.enter()
        await flush(mallory, wire.encode(wire.Spectate(b"\x00" * 15_000, 0)), 18)
        mine = Proposal.create("goose", {"rules": "daumont"}, seats=2,
                               start_time=settings("Mallory").clock(),
                               random_source=seeded_source("mallory-proposal"))  # fmt: skip
        assert mallory.connection is not None
        await mallory.connection.send(wire.encode(wire.ProposalMsg(mine.encode(), "M" * 43)))
        bob = await join_room(ada.invite, name="Bob", settings=settings("Bob"), backoff=QUICK)
        await until(lambda: bob is not None and bob.link._resync, "Bob came after the flush")
        await mallory.follow(lambda: mallory.match.started)
        await bob.wait_started(TIMEOUT)
        assert ada.match.session is not None and bob.match.session is not None
        assert bob.match.session.setup == ada.match.session.setup
        assert bob.match.session.setup.proposal == ada.match.meetings.meeting.proposal
        assert bob.match.seat is not None
        assert ("Mallory", "proposed a match, which only the host does") in [
            (o.who, o.text) for o in ada.match.offences
        ]
        assert not any(o.who == "Bob" for o in ada.match.offences)
    finally:
        for room in (ada, bob):
            if room is not None:
                await room.close()
        if mallory.connection is not None:
            await mallory.connection.close()
        mallory.match.close()


async def test_a_player_who_missed_the_setup_asks_for_it_and_plays(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    """Bob's connection drops just after his join; the host seats the three meanwhile and
    Mallory pushes the setup out of the relay's backlog (attack peer/13). Back, Bob's app
    asks for the setup, the host answers, and Bob is in the match with its records: the
    match waits on Bob's own throw, not on a reveal his app never sends."""
    ada = await host_room(relay.url, "goose", {"rules": "daumont"}, seats=3, name="Ada",
                          settings=settings("Ada"), backoff=QUICK)  # fmt: skip
    bob = mallory = None
    try:
        await asyncio.wait_for(ada.link.connected.wait(), TIMEOUT)
        bob = await join_room(ada.invite, name="Bob", settings=settings("Bob"),
                              backoff=Backoff(first=6.0, most=6.0, jitter=0.0))  # fmt: skip
        await until(lambda: len(ada.match.meetings.meeting.joins) >= 2, "Bob's join")
        bob.link.drop()  # a network blip, just after his join went out
        mallory = Hostile(ada.invite, settings("Mallory"))
        await mallory.enter()
        await mallory.follow(lambda: mallory is not None and mallory.match.started)
        await ada.wait_started(TIMEOUT)
        seat = mallory.match.seat
        assert seat is not None
        await mallory.send_game(Chat(seat, 0, settings("Mallory").clock(), "hi", b""))
        session = ada.match.session
        assert session is not None
        await until(lambda: len(session.records) >= 1, "Mallory's line")
        filler = wire.encode(wire.Transcript(0, pack([session.records[-1]] * 170)))
        await flush(mallory, filler, 256 * 1024 // len(filler) + 2)
        await until(lambda: bob is not None and bob.link._resync and bob.match.started,
                    "Bob back in the match")  # fmt: skip
        assert bob.match.session is not None
        assert bob.match.session.setup == session.setup and bob.match.seat == 1
        ada.match.act(lambda s: s.throw(settings("Ada").clock()))
        ada.link.flush()
        theirs = mallory.match

        def bobs_turn() -> bool:  # every reveal in, Bob's automatic one included
            return theirs.session is not None and theirs.session.awaited_seats() == (1,)

        await mallory.follow(bobs_turn)
        await until(lambda: session.awaited_seats() == (1,), "Ada's throw done; Bob's turn")
        await until(lambda: bob is not None and bob.match.session is not None
                    and len(bob.match.session.records) == len(session.records),
                    "Bob holds the match's records")  # fmt: skip
        assert not bob.match.offences
    finally:
        for room in (ada, bob):
            if room is not None:
                await room.close()
        if mallory is not None:
            if mallory.connection is not None:
                await mallory.connection.close()
            mallory.match.close()
