"""Values at their extremes meet the gate, through the real client and a real relay (issue
28): a host proposing an ante of 2^63 or a start ten years ahead is refused by name, and the
joiner stays connected; a second "Ada" is refused by the relay, and by the clients
themselves where a relay or a peer lets one through."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace

import pytest

from client.game.driver import Offence
from client.net import wire
from client.net.invite import Invite
from client.net.link import LinkFailed
from client.net.room import Room, host_room, join_room
from client.setup import SessionSettings
from protocol.chain import HashChain
from protocol.identity import Identity, seeded_source
from protocol.setup import Join, Proposal
from relay.client import RoomConnection, create_room
from relay.envelope import Message, Presence, PresenceEvent, RelayMessage
from relay.fault import Fault
from relay.server import RelayServer
from tests.network.conftest import QUICK, PlayersClock
from tests.network.lying_relay import LyingRelay
from tests.network.players import TIMEOUT

TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000


@asynccontextmanager
async def hostile_host(url: str, proposal: Proposal) -> AsyncIterator[Invite]:
    """Mallory creates a room and proposes *proposal* in it (as a hostile host's program
    would: any fields, packed as the protocol packs them); yields the player's invite."""
    created = await create_room(url, proposal.seats)
    mallory = await RoomConnection.join(url, created.room_id, created.player_token, "Mallory")
    try:
        offer = wire.ProposalMsg(proposal.encode(), created.spectator_token)
        await mallory.send(wire.encode(offer))
        yield Invite(url, created.room_id, created.player_token, "player")
    finally:
        await mallory.close()


async def first_offence(room: Room) -> Offence:
    """The first fault the room's client found in what another member sent."""
    changed = asyncio.Event()
    unsubscribe = room.match.subscribe(changed.set)
    try:
        async with asyncio.timeout(TIMEOUT):
            while not room.match.offences:
                assert room.failure is None, room.failure
                changed.clear()
                await changed.wait()
    finally:
        unsubscribe()
    return room.match.offences[0]


def honest_proposal(clock: PlayersClock) -> Proposal:
    return Proposal.create("goose", {}, seats=2, start_time=clock(),
                           random_source=seeded_source("mallory"))  # fmt: skip


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ((("ante", 2**63),), "the ante is at most 1,000 tokens, not 9,223,372,036,854,775,808"),
        ((("fee", 2**63 // 3),), "the fee is at most 1,000 tokens, not 3,074,457,345,618,258,602"),
    ],
    ids=["ante 2^63", "fee 2^63/3"],
)
async def test_a_proposal_beyond_the_bounds_is_refused_naming_the_host(
    relay: RelayServer,
    settings: Callable[[str], SessionSettings],
    clock: PlayersClock,
    options: tuple[tuple[str, int], ...],
    said: str,
) -> None:
    """The joiner's engine used to overflow on the first share, its link task died behind a
    "connected" line and the host claimed the match. Now the proposal is refused as it
    comes, naming the host; the joiner joins nothing and stays connected."""
    forged = replace(honest_proposal(clock), options=options)
    async with hostile_host(relay.url, forged) as invite:
        ada = await join_room(invite, name="Ada", settings=settings("Ada"), backoff=QUICK)
        try:
            offence = await first_offence(ada)
            assert offence.who == "Mallory"
            assert "the proposal is not a valid match" in offence.text and said in offence.text
            assert ada.match.meetings.meeting.proposal is None  # nothing joined
            assert ada.task is not None and not ada.task.done()
            assert ada.link.status.state == "connected"
        finally:
            await ada.close()


async def test_a_start_ten_years_ahead_is_refused_naming_the_host(
    relay: RelayServer, settings: Callable[[str], SessionSettings], clock: PlayersClock
) -> None:
    """Its first deadline would be ten years away: the first player could stall for ever
    and nobody could claim. The joiner's own clock refuses it."""
    forged = replace(honest_proposal(clock), start_time=clock() + TEN_YEARS_MS)
    async with hostile_host(relay.url, forged) as invite:
        ada = await join_room(invite, name="Ada", settings=settings("Ada"), backoff=QUICK)
        try:
            offence = await first_offence(ada)
            assert offence.who == "Mallory" and not offence.fatal
            assert offence.text == ("the proposed match starts more than a day ahead of this "
                                    "computer's clock: one of the two clocks is wrong")  # fmt: skip
            assert ada.match.meetings.meeting.proposal is None
            assert ada.link.status.state == "connected"
        finally:
            await ada.close()


async def test_a_start_within_the_tolerance_is_taken(
    relay: RelayServer, settings: Callable[[str], SessionSettings], clock: PlayersClock
) -> None:
    """The other side of the same rule: a host's clock a few seconds ahead is no fault."""
    host = await host_room(relay.url, "jacquet", {}, seats=2, name="Bob",
                           settings=settings("Bob"), backoff=QUICK)  # fmt: skip
    clock.advance(-4_000)  # the joiner's clock is 4 s behind the host's
    ada = await join_room(host.invite, name="Ada", settings=settings("Ada"), backoff=QUICK)
    try:
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(host.wait_started(), ada.wait_started())
        assert not ada.match.offences and not host.match.offences
    finally:
        await asyncio.gather(ada.close(), host.close())


@pytest.mark.parametrize("second", ["Ada", "ADA", "\uff21da", "ada"])
async def test_a_second_ada_is_refused_by_the_relay(
    relay: RelayServer, settings: Callable[[str], SessionSettings], second: str
) -> None:
    ada = await host_room(relay.url, "jacquet", {}, seats=2, name="Ada",
                          settings=settings("Ada"), backoff=QUICK)  # fmt: skip
    other = await join_room(ada.invite, name=second, settings=settings("Other"), backoff=QUICK)
    try:
        with pytest.raises(LinkFailed) as failed:
            await other.wait_started(TIMEOUT)
        assert str(failed.value) == ("Someone in this room already goes by that name (or one "
                                     "that reads the same); choose another.")  # fmt: skip
        assert failed.value.fault is Fault.INPUT  # the name chosen: another is the cure
        assert [member.name for member in ada.match.members.values()] == ["Ada"]
    finally:
        await asyncio.gather(other.close(), ada.close())


async def test_a_relay_that_lets_a_second_ada_in_is_not_believed(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    """The relay is anyone's server: one that says a second "ADA" came in is named."""

    def lie(message: RelayMessage) -> RelayMessage:
        if isinstance(message, Presence) and message.event == PresenceEvent.JOINED:
            return replace(message, name="ADA")
        return message

    async with LyingRelay(relay.url, lie) as liar:
        ada = await host_room(liar.url, "jacquet", {}, seats=2, name="Ada",
                              settings=settings("Ada"), backoff=QUICK)  # fmt: skip
        invite = Invite(relay.url, liar.rooms[ada.invite.room_id], ada.invite.token, "player")
        bob = await join_room(invite, name="Bob", settings=settings("Bob"), backoff=QUICK)
        try:
            with pytest.raises(LinkFailed) as failed:
                await ada.wait_started(TIMEOUT)
            assert str(failed.value) == (
                f"the relay at {liar.url} let a second member in as 'ADA', a name another "
                "member has: it is not a Tablier relay, or it is hostile"
            )
            assert failed.value.fault is Fault.RELAY
            assert "ADA" not in [member.name for member in ada.match.members.values()]
        finally:
            await asyncio.gather(bob.close(), ada.close())


async def test_a_peer_who_signs_his_join_as_ada_is_refused_naming_him(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    """The relay saw "Mallory"; his signed join says "ada". The host refuses the join (so
    he is never seated, and cannot chat as Ada), naming him as the relay does."""
    ada = await host_room(relay.url, "goose", {}, seats=3, name="Ada",
                          settings=settings("Ada"), backoff=QUICK)  # fmt: skip
    invite = ada.invite
    mallory = await RoomConnection.join(invite.relay_url, invite.room_id, invite.token,
                                        "Mallory", resume_from=0)  # fmt: skip
    try:
        async with asyncio.timeout(TIMEOUT):
            proposal = None
            while proposal is None:
                event = await mallory.receive()
                if isinstance(event, Message):
                    payload = wire.decode(event.payload)
                    if isinstance(payload, wire.ProposalMsg):
                        proposal = Proposal.decode(payload.data)
            source = seeded_source("mallory")
            join = Join.create(proposal, Identity.generate(source), "ada",
                               HashChain.generate(source).tip)  # fmt: skip
            await mallory.send(wire.encode(wire.JoinMsg(join.encode())))
            offence = await first_offence(ada)
        assert offence.who == "Mallory"
        assert offence.text == "joined as ada, which is not the name it goes by in the room"
        assert [j.name for j in ada.match.meetings.meeting.joins] == ["Ada"]
    finally:
        await mallory.close()
        await ada.close()


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["host", "jacquet", "--name", "\u3164\u3164"],
         "cannot hold the invisible character U+3164"),
        (["join", "tablier://h:1/" + "R" * 22 + "?player=" + "P" * 43, "--name", "\u2800"],
         "cannot hold the invisible character U+2800"),
        (["host", "goose", "--name", "e\u0301\u0301\u0301\u0301"], "at most 3 marks on one letter"),
        (["host", "goose", "--ante", str(2**63)], "the ante is at most 1000 tokens"),
        (["host", "jacquet", "--match-to", "100"], "a match is played to 1 to 99 points, not 100"),
    ],
)  # fmt: skip
def test_the_commands_refuse_a_name_or_option_past_the_gate_before_sending(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Refused here, in one line and exit 2, before any relay is asked for anything."""
    from client.cli import main

    assert main(argv) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"tablier {argv[0]}: ") and said in error, error


async def test_a_joiner_whose_name_the_host_took_first_is_told_so_and_leaves(
    relay: RelayServer, settings: Callable[[str], SessionSettings], clock: PlayersClock
) -> None:
    """The relay knows the host as "Mallory" and let Ada in; his signed join says "ada" and
    came first. A join is taken only under its sender's relay name: Ada's client refuses
    his, naming him, and takes her own (she is not turned away for a name he lied about)."""
    proposal = honest_proposal(clock)
    source = seeded_source("mallory-ada")
    join = Join.create(proposal, Identity.generate(source), "ada", HashChain.generate(source).tip)
    created = await create_room(relay.url, proposal.seats)
    mallory = await RoomConnection.join(relay.url, created.room_id, created.player_token,
                                        "Mallory")  # fmt: skip
    try:
        await mallory.send(wire.encode(wire.ProposalMsg(proposal.encode(),
                                                        created.spectator_token)))  # fmt: skip
        await mallory.send(wire.encode(wire.JoinMsg(join.encode())))
        invite = Invite(relay.url, created.room_id, created.player_token, "player")
        ada = await join_room(invite, name="Ada", settings=settings("Ada"), backoff=QUICK)
        try:
            offence = await first_offence(ada)
            assert (offence.who, offence.text) == (
                "Mallory", "joined as ada, which is not the name it goes by in the room"
            )
            assert ada.match.broken is None
            async with asyncio.timeout(TIMEOUT):
                while [j.name for j in ada.match.meetings.meeting.joins] != ["Ada"]:
                    await asyncio.sleep(0.01)
        finally:
            await ada.close()
    finally:
        await mallory.close()
