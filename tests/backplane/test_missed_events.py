"""What a relay hears of a room from Redis, at the moments it could miss something: an event
numbered while one of its members' join is being stored, events numbered while its lease on
the room had lapsed (a stalled process, a room where nothing happens after), and relays whose
hosts' clocks disagree. Nothing is skipped, nothing comes twice, nobody waits unanswered."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio
import websockets.asyncio.client

from relay.client import RelayError, RoomConnection, create_room
from relay.envelope import ErrorCode, Join, Message, Presence, PresenceEvent, encode
from relay.redis_backplane import RedisBackplane, room_keys
from tests.backplane.conftest import (
    RelayProcess,
    back,
    shared_relays,
    stopped,
    until_lapsed,
)
from tests.backplane.test_redis_faults import dropped
from tests.backplane.test_shared import receive


def answer_late(
    backplane: RedisBackplane, monkeypatch: pytest.MonkeyPatch
) -> tuple[asyncio.Event, asyncio.Event]:
    """Make *backplane* take in the answer to its next join's commit late: Redis has stored
    the join (``stored`` is set) and publishes the room's next events to this process, which
    does not know from which number the newcomer's stream starts until ``release`` is set."""
    commit = backplane._rooms._commit
    stored, release = asyncio.Event(), asyncio.Event()

    async def late(*args: Any) -> Any:
        answer = await commit(*args)
        stored.set()
        await release.wait()
        return answer

    monkeypatch.setattr(backplane._rooms, "_commit", late)
    return stored, release


async def held_back(backplane: RedisBackplane, room_id: str, seq: int) -> None:
    """Wait until *backplane* has heard event *seq* of the room and holds it back, as it
    must while a join's answer is awaited."""
    async with asyncio.timeout(5):
        while not backplane._order.holds(room_id, seq):
            await asyncio.sleep(0.005)


async def test_an_event_numbered_while_a_join_is_stored_reaches_the_newcomer(
    backplane: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with shared_relays(backplane, 2) as (one, two):
        room = await create_room(one.url, seats=2)
        ada = await RoomConnection.join(one.url, room.room_id, room.player_token, "Ada")
        assert await receive(ada) == [Presence(0, 0, PresenceEvent.JOINED, "Ada")]
        # Relay two takes in the answer to Bob's join late: Redis has stored it (so it
        # publishes the room's next events to relay two), relay two does not know yet
        # from which number Bob's stream starts.
        backplane_two = two.backplane
        assert backplane_two is not None
        stored, release = answer_late(backplane_two, monkeypatch)
        joining = asyncio.create_task(
            RoomConnection.join(two.url, room.room_id, room.player_token, "Bob")
        )
        await asyncio.wait_for(stored.wait(), 3)
        await ada.send(b"while Bob joins")  # nothing after it would reveal a gap
        await held_back(backplane_two, room.room_id, 2)  # relay two heard it, kept for Bob
        release.set()
        bob = await joining
        assert await receive(bob, 2) == [
            Presence(1, 1, PresenceEvent.JOINED, "Bob"),
            Message(2, 0, b"while Bob joins"),
        ]
        for member in (ada, bob):
            await member.close()


async def _numbered(url: str, room_id: str, seq: int) -> None:
    """Wait until Redis has numbered event ``seq`` of the room."""
    log = room_keys(room_id)[2]
    async with redis.asyncio.Redis.from_url(url) as direct, asyncio.timeout(5):
        while not await direct.xrange(log, f"{seq}-1", f"{seq}-1"):
            await asyncio.sleep(0.01)


async def test_a_member_let_go_while_his_relay_stalled_is_told_at_once(
    backplane: str, relays: Callable[..., RelayProcess]
) -> None:
    """Bob's relay stalls past its lease (1 s here): Redis lets his seat go and does not
    publish that to it. When it wakes, Bob is closed with 1012 (by the renewal that shows
    his relay the number it missed, or by Redis not numbering his next move for him: never
    a silent drop, nor a match hanging for the seat's grace); he resumes, sees what he
    missed, and sends his move again."""
    stalling = relays(backplane)
    async with shared_relays(backplane, 1, seat_grace=30.0) as (one,):  # Bob comes back
        room = await create_room(one.url, seats=2)
        ada = await RoomConnection.join(one.url, room.room_id, room.player_token, "Ada")
        bob = await RoomConnection.join(stalling.url, room.room_id, room.player_token, "Bob")
        await receive(ada, 2)
        await receive(bob, 1)
        with stopped(stalling):
            assert await receive(ada) == [Presence(2, 1, PresenceEvent.LEFT, "Bob")]
            await bob.send(b"Bob's move")  # his relay reads it as it wakes
        assert await dropped(bob) == 1012
        bob = await back(bob)
        assert await receive(bob, 2) == [
            Presence(2, 1, PresenceEvent.LEFT, "Bob"),
            Presence(3, 1, PresenceEvent.RECONNECTED, "Bob"),
        ]
        await bob.send(b"Bob's move")
        assert await receive(ada, 2) == [  # numbered once, after he came back
            Presence(3, 1, PresenceEvent.RECONNECTED, "Bob"),
            Message(4, 1, b"Bob's move"),
        ]
        for member in (ada, bob):
            await member.close()


async def test_a_relay_that_stalled_fetches_what_it_was_not_sent_in_a_quiet_room(
    backplane: str, relays: Callable[..., RelayProcess]
) -> None:
    """Eve watches through a relay that stalls past its lease: Ada's message, numbered
    meanwhile, is not published to it, and nothing after it would show the gap (nor does a
    relay holding only spectators ever append). The lease renewal that follows the stall
    answers the room's next number, and her relay fetches the message from the stream."""
    stalling = relays(backplane)
    async with shared_relays(backplane, 1) as (one,):
        room = await create_room(one.url, seats=2)
        ada = await RoomConnection.join(one.url, room.room_id, room.player_token, "Ada")
        assert await receive(ada) == [Presence(0, 0, PresenceEvent.JOINED, "Ada")]
        eve = await RoomConnection.join(stalling.url, room.room_id, room.spectator_token, "Eve")
        with stopped(stalling):
            await until_lapsed(backplane, room.room_id, stalling.name)
            await ada.send(b"while Eve's relay stalled")
            await _numbered(backplane, room.room_id, 1)
        assert await receive(eve) == [Message(1, 0, b"while Eve's relay stalled")]
        for member in (ada, eve):
            await member.close()


def skewed(offset: str) -> dict[str, str]:
    """The environment of a process whose wall clock is ``offset`` off (libfaketime)."""
    found = sorted(Path("/usr/lib").glob("*/faketime/libfaketime.so.1"))
    assert found, "libfaketime is not installed (.ci/run installs Debian's package)"
    return {"LD_PRELOAD": str(found[0]), "FAKETIME": offset, "FAKETIME_DONT_FAKE_MONOTONIC": "1"}


async def _renewed(url: str, room_id: str, processes: list[str], times: int) -> None:
    """Wait until each process has renewed its lease on the room ``times`` times more."""
    leases = room_keys(room_id)[3]
    async with redis.asyncio.Redis.from_url(url) as direct, asyncio.timeout(10):
        seen = [await direct.zscore(leases, process) for process in processes]
        renewals = [0] * len(processes)
        while min(renewals) < times:
            await asyncio.sleep(0.02)
            for index, process in enumerate(processes):
                score = await direct.zscore(leases, process)
                if score != seen[index]:
                    seen[index], renewals[index] = score, renewals[index] + 1


async def test_relays_whose_clocks_disagree_keep_hearing_each_other(
    backplane: str, relays: Callable[..., RelayProcess]
) -> None:
    """Whether a relay's lease still runs is decided on Redis's clock: relays on hosts 30 s
    behind and 30 s ahead neither take each other for dead nor stop publishing to each
    other."""
    behind = relays(backplane, env=skewed("-30s"))
    ahead = relays(backplane, env=skewed("+30s"))
    async with shared_relays(backplane, 1) as (one,):
        assert one.backplane is not None
        room = await create_room(one.url, seats=2)
        ada = await RoomConnection.join(one.url, room.room_id, room.player_token, "Ada")
        bob = await RoomConnection.join(behind.url, room.room_id, room.player_token, "Bob")
        eve = await RoomConnection.join(ahead.url, room.room_id, room.spectator_token, "Eve")
        await receive(ada, 2)
        await receive(bob, 1)
        # Long enough for every relay to judge the others' leases, twice.
        processes = [one.backplane.process, behind.name, ahead.name]
        await _renewed(backplane, room.room_id, processes, 2)
        await ada.send(b"from the true clock")
        assert await receive(bob) == [Message(2, 0, b"from the true clock")]
        await bob.send(b"from 30 s behind")
        expected = [Message(2, 0, b"from the true clock"), Message(3, 1, b"from 30 s behind")]
        assert await receive(ada, 2) == await receive(eve, 2) == expected
        for member in (ada, bob, eve):
            await member.close()


async def test_a_member_back_on_the_relay_he_just_left_misses_nothing(
    backplane: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ada leaves relay one (its last member of the room) and comes straight back to it,
    before relay one's upkeep has forgotten where the room stood; Bob, on relay two, moves
    while her join is being stored. The move reaches her: she starts from her join, not
    from where she stood when she left."""
    async with shared_relays(backplane, 2, backplane_lease=10.0, seat_grace=30.0) as (one, two):
        room = await create_room(one.url, seats=2)
        ada = await RoomConnection.join(one.url, room.room_id, room.player_token, "Ada")
        bob = await RoomConnection.join(two.url, room.room_id, room.player_token, "Bob")
        await receive(ada, 2)
        backplane_one = one.backplane
        assert backplane_one is not None
        await ada.close()
        async with asyncio.timeout(5):  # her departure (2) numbered and heard on relay one
            while backplane_one._order.cursor(room.room_id) == 1:
                await asyncio.sleep(0.005)
        stored, release = answer_late(backplane_one, monkeypatch)
        joining = asyncio.create_task(
            RoomConnection.join(
                one.url, room.room_id, ada.token, "Ada",
                resume_from=ada.next_seq, epoch=ada.welcome.epoch,
            )
        )  # fmt: skip
        await asyncio.wait_for(stored.wait(), 3)
        await bob.send(b"your move")
        await _numbered(backplane, room.room_id, 4)
        await held_back(backplane_one, room.room_id, 4)  # relay one heard it, kept for Ada
        release.set()
        ada = await joining
        assert await receive(ada, 3) == [
            Presence(2, 0, PresenceEvent.LEFT, "Ada"),
            Presence(3, 0, PresenceEvent.RECONNECTED, "Ada"),
            Message(4, 1, b"your move"),
        ]
        for member in (ada, bob):
            await member.close()


async def test_a_client_gone_while_its_join_is_stored_gives_its_seat_back(
    backplane: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client that drops its connection while the relay stores its join in Redis: the
    seat Redis gave it goes back (Ada hears it leave), and after the grace Bob takes it —
    nobody can fill a room with seats held by connections long gone."""
    async with shared_relays(backplane, 1, seat_grace=0.5) as (relay,):
        room = await create_room(relay.url, seats=2)
        ada = await RoomConnection.join(relay.url, room.room_id, room.player_token, "Ada")
        await receive(ada)
        backplane_one = relay.backplane
        assert backplane_one is not None
        stored, release = answer_late(backplane_one, monkeypatch)
        ghost = await websockets.asyncio.client.connect(relay.url, compression=None)
        await ghost.send(encode(Join(room.room_id, room.player_token, "Ghost")))
        await asyncio.wait_for(stored.wait(), 3)
        ghost.transport.abort()  # gone before the relay has its answer
        async with asyncio.timeout(5):  # the relay has handled the ghost's close
            while len(relay.core.sessions) > 1:
                await asyncio.sleep(0.005)
        release.set()
        assert await receive(ada, 2) == [
            Presence(1, 1, PresenceEvent.JOINED, "Ghost"),
            Presence(2, 1, PresenceEvent.LEFT, "Ghost"),
        ]
        async with asyncio.timeout(5):  # the seat is Bob's once its grace has passed
            while True:
                try:
                    bob = await RoomConnection.join(
                        relay.url, room.room_id, room.player_token, "Bob"
                    )
                    break
                except RelayError as refused:
                    assert refused.code == ErrorCode.ROOM_FULL
                    await asyncio.sleep(0.1)
        assert bob.seat == 1
        for member in (ada, bob):
            await member.close()
