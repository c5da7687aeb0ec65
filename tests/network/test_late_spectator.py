"""A spectator who arrives after the relay's backlog moved past the match's start: a real
relay process keeping only 8 events per room, real players' apps (their NetworkGame, driven
by the bot), a real spectator's room. The relay announces him, the lowest seat present sends
him the match so far, and he ends with the players' log, byte for byte; a player who sends
him a forged catch-up is named."""

from __future__ import annotations

import asyncio
import types
from collections.abc import Callable, Iterator

import msgpack  # type: ignore[import-untyped]
import pytest

from client.net import wire
from client.net.match import NetMatch
from client.net.outbox import ANSWER, Outgoing
from client.net.room import Room, host_room, join_room
from client.net.spectators import catch_up
from client.setup import SessionSettings
from relay.server import RelayServer
from tests.network.conftest import QUICK, PlayersClock, RelayProcess
from tests.network.players import TIMEOUT, assert_same_verified_logs, autoplay, meet
from tests.network.test_seat_resume import host_relay_killed, resume

NAMES = ["Ada", "Bob", "Cy"]
BACKLOG = 8  # events: a few turns in, the start of the match is gone from the relay


@pytest.fixture
def short_memory_relay() -> Iterator[RelayProcess]:
    relay = RelayProcess.spawn(0, "--backlog", str(BACKLOG))
    yield relay
    relay.kill()


async def a_few_turns_in(
    relay: RelayProcess, settings: Callable[[str], SessionSettings]
) -> list[Room]:
    rooms = await meet(relay.url, "goose", {"rules": "daumont"}, NAMES, settings)
    games = [room.game(settings(name)) for room, name in zip(rooms, NAMES, strict=True)]
    async with asyncio.timeout(TIMEOUT):
        await asyncio.gather(*(autoplay(game, stop_after=4) for game in games))
    session = rooms[0].match.session
    assert session is not None and len(session.records) > BACKLOG  # the start is trimmed
    return rooms


async def watch(rooms: list[Room], settings: Callable[[str], SessionSettings]) -> Room:
    invite = rooms[0].spectator_invite
    assert invite is not None
    watcher = await join_room(invite, name="Eve", settings=settings("Eve"), backoff=QUICK)
    async with asyncio.timeout(TIMEOUT):
        await watcher.wait_started()
    return watcher


async def test_a_spectator_after_the_backlog_was_trimmed_ends_with_the_players_log(
    short_memory_relay: RelayProcess, settings: Callable[[str], SessionSettings]
) -> None:
    rooms = await a_few_turns_in(short_memory_relay, settings)
    games = [room.game(settings(name)) for room, name in zip(rooms, NAMES, strict=True)]
    watcher = None
    try:
        watcher = await watch(rooms, settings)
        assert watcher.link._resync  # the relay could not replay the match to him
        watching = watcher.game(settings("Eve"))
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(*(autoplay(game) for game in games), autoplay(watching))
        assert {game.ended.reason for game in games if game.ended} == {"finished"}
        assert watching.ended == games[0].ended
        await assert_same_verified_logs([*games, watching])
        assert not watcher.match.offences
        assert all(not room.match.offences for room in rooms)
    finally:
        await asyncio.gather(*(room.close() for room in [*rooms, *([watcher] if watcher else [])]))


def forged_offer(match: NetMatch) -> None:
    """Ada's catch-up with one record's bytes changed (its signature no longer holds)."""
    NetMatch._offer(match)
    header = next(i for i, sent in enumerate(match.outbox)
                  if isinstance(wire.decode(sent.data), wire.Spectate))  # fmt: skip
    part = wire.decode(match.outbox[header + 1].data)
    assert isinstance(part, wire.Transcript)
    records = msgpack.unpackb(part.data)
    records[3] = records[3][:-1] + bytes([records[3][-1] ^ 1])
    forged = wire.Transcript(part.start, msgpack.packb(records, use_bin_type=True))
    match.outbox[header + 1] = match.outbox[header + 1]._replace(data=wire.encode(forged))


async def test_a_player_who_sends_a_forged_catch_up_is_named_by_the_spectator(
    short_memory_relay: RelayProcess, settings: Callable[[str], SessionSettings]
) -> None:
    rooms = await a_few_turns_in(short_memory_relay, settings)
    ada = rooms[0].match
    ada._offer = types.MethodType(forged_offer, ada)  # type: ignore[method-assign]
    watcher = None
    try:
        watcher = await watch(rooms, settings)
        [offence] = watcher.match.offences
        assert offence.who == "Ada" and offence.fatal
        assert offence.text.startswith("sent a false catch-up:"), offence.text
    finally:
        await asyncio.gather(*(room.close() for room in [*rooms, *([watcher] if watcher else [])]))


SHORT_BY = 3  # records Ada keeps back at the end of her catch-up


def short_offer(match: NetMatch) -> None:
    """Ada's catch-up, every record genuine and in its place, announced and sent without
    the match's last SHORT_BY records."""
    session = match.session
    assert session is not None
    records = session.records[: len(session.records) - SHORT_BY]
    payloads = [wire.encode(payload) for payload in catch_up(session.setup.encode(), records)]
    match.offers.sent(payloads[0], payloads[-1])
    match.outbox.extend(Outgoing(data, lane=ANSWER, follows=index > 0)
                        for index, data in enumerate(payloads))  # fmt: skip


async def test_a_catch_up_short_of_the_match_names_its_sender_not_an_honest_player(
    short_memory_relay: RelayProcess, settings: Callable[[str], SessionSettings]
) -> None:
    """Stop36 09 through a real relay: Ada's catch-up stops a few records short, each one
    genuine and in place; the live records of Bob and Cy that follow the missing ones used
    to stop Eve's match, naming Cy ("far ahead"). Eve now names Ada, once Ada's own next
    record does not follow her catch-up, and never an honest player; the match goes on."""
    rooms = await a_few_turns_in(short_memory_relay, settings)
    ada = rooms[0].match
    ada._offer = types.MethodType(short_offer, ada)  # type: ignore[method-assign]
    games = [room.game(settings(name)) for room, name in zip(rooms, NAMES, strict=True)]
    watcher = None
    try:
        watcher = await watch(rooms, settings)
        assert watcher.link._resync  # the relay could not replay the match to him
        eve = watcher.match
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(*(autoplay(game, stop_after=6) for game in games))
        await settled(lambda: bool(eve.offences))
        [offence] = eve.offences
        assert offence.who == "Ada" and offence.fatal, offence
        assert offence.text.startswith("sent a catch-up short of the match"), offence.text
        assert eve.session is not None and eve.session.stopped is None and eve.unfollowed
        assert all(not room.match.offences for room in rooms)
    finally:
        await asyncio.gather(*(room.close() for room in [*rooms, *([watcher] if watcher else [])]))


async def settled(condition: Callable[[], bool]) -> None:
    """Let the rooms run until *condition* holds (TIMEOUT: a hang)."""
    async with asyncio.timeout(TIMEOUT):
        while not condition():
            await asyncio.sleep(0.02)


async def test_a_spectator_who_came_during_the_first_turn_takes_a_claim_made_in_time(
    relay: RelayServer, settings: Callable[[str], SessionSettings], clock: PlayersClock
) -> None:
    """Eve comes 20 s into a first turn the thrower never takes: the relay replays the setup
    to her, but the first turn's limit runs from the start time, not from when she came, so
    the claim the players take 1 s after the limit ends her match too (it used to be refused,
    "19 s before the limit", naming the honest claimant: her log and theirs parted)."""
    limit = 30_000
    host = await host_room(relay.url, "goose", {"rules": "daumont"}, seats=2, name="Mal",
                           settings=settings("Mal"), backoff=QUICK,
                           time_limit_ms=limit)  # fmt: skip
    rooms = [host]
    try:
        rooms.append(await join_room(host.invite, name="Ada", settings=settings("Ada"),
                                     backoff=QUICK))  # fmt: skip
        await asyncio.gather(*(room.wait_started(TIMEOUT) for room in rooms))
        session = rooms[0].match.session
        assert session is not None
        [stalls] = session.awaited_seats()
        claimant = rooms[1 - stalls].game(settings(["Mal", "Ada"][1 - stalls]))
        clock.advance(20_000)
        assert rooms[0].spectator_invite is not None
        rooms.append(await join_room(rooms[0].spectator_invite, name="Eve",
                                     settings=settings("Eve"), backoff=QUICK))  # fmt: skip
        await rooms[2].wait_started(TIMEOUT)
        clock.advance(limit - 20_000 + 1_000)
        assert claimant.claimable(clock()) == stalls
        claimant.claim_abandonment(stalls)
        watched = rooms[2].match
        await settled(lambda: watched.session is not None and watched.session.ended is not None)
        assert watched.session is not None and watched.session.ended is not None
        assert watched.session.ended.reason == "abandoned" and not watched.offences
        assert watched.session.records == session.records
    finally:
        await asyncio.gather(*(room.close() for room in rooms))


async def test_a_spectator_after_the_hosts_relay_came_back_is_sent_the_match(
    settings: Callable[[str], SessionSettings],
) -> None:
    """``tablier host`` ran the relay; his app is killed, and ``tablier join`` brings the
    room back with his seat. The re-created room's events begin there, not at the match's
    start: Eve, coming after, must be announced and sent the match (she used to be replayed
    what the room kept as if it were all, and wait for a proposal forever)."""
    ada_room, bob, following, live = await host_relay_killed(settings)
    try:
        live.append(await resume(ada_room.invite, "Ada", settings("Ada")))
        back = live[-1].game(settings("Ada"))
        live.append(await watch([ada_room], settings))
        assert live[-1].link._resync  # the room no longer holds the match's start
        watching = live[-1].game(settings("Eve"))
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(following, autoplay(back), autoplay(watching))
        assert watching.ended is not None and watching.ended == bob.ended
        await assert_same_verified_logs([bob, back, watching])
        assert not live[-1].match.offences
    finally:
        following.cancel()
        await asyncio.gather(*(room.close() for room in live))
