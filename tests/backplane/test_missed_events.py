"""What a relay hears of a room from Redis, at the moments it could miss something: an event
numbered while one of its members' join is being stored, and events numbered while its lease
on the room had lapsed (a stalled process). Nothing is skipped, nothing comes twice."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
import redis.asyncio
from websockets.exceptions import ConnectionClosedError

from relay.client import RoomConnection, create_room
from relay.envelope import Message, Presence, PresenceEvent
from relay.redis_backplane import room_keys
from relay.server import RelayServer
from tests.backplane.conftest import shared_relays
from tests.backplane.test_shared import receive


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
        commit = backplane_two._commit
        stored = asyncio.Event()

        async def late(*args: Any) -> Any:
            answer = await commit(*args)
            stored.set()
            await asyncio.sleep(0.5)
            return answer

        monkeypatch.setattr(backplane_two, "_commit", late)
        joining = asyncio.create_task(
            RoomConnection.join(two.url, room.room_id, room.player_token, "Bob")
        )
        await asyncio.wait_for(stored.wait(), 3)
        await ada.send(b"while Bob joins")  # nothing after it would reveal a gap
        bob = await joining
        assert await receive(bob, 2) == [
            Presence(1, 1, PresenceEvent.JOINED, "Bob"),
            Message(2, 0, b"while Bob joins"),
        ]
        for member in (ada, bob):
            await member.close()


async def _lease_renewed(relay: RelayServer, room_id: str, url: str) -> None:
    """Wait until Redis counts ``relay`` among the readers of the room again."""
    assert relay.backplane is not None
    leases = room_keys(room_id)[3]
    async with redis.asyncio.Redis.from_url(url) as direct, asyncio.timeout(5):
        while True:
            until = await direct.zscore(leases, relay.backplane.process)
            if until is not None and until > time.time() * 1000:
                return
            await asyncio.sleep(0.05)


async def test_a_relay_whose_lease_lapsed_learns_what_it_missed_from_the_stream(
    backplane: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A relay process that stalls past its lease (1 s here) is taken for dead: its member's
    departure is numbered, and not published to it. When it wakes, the next event shows it
    a gap, which it fills from the room's stream: its member, whose seat was let go
    meanwhile, is told to reconnect (1012) rather than carry on beside the stream."""
    async with shared_relays(backplane, 2) as (one, two):
        room = await create_room(one.url, seats=2)
        ada = await RoomConnection.join(one.url, room.room_id, room.player_token, "Ada")
        bob = await RoomConnection.join(two.url, room.room_id, room.player_token, "Bob")
        await receive(ada, 2)
        await receive(bob, 1)
        backplane_two = two.backplane
        assert backplane_two is not None
        renew = backplane_two._renew

        async def stalled(rooms: list[str]) -> None:
            return None

        monkeypatch.setattr(backplane_two, "_renew", stalled)
        assert await receive(ada) == [Presence(2, 1, PresenceEvent.LEFT, "Bob")]
        monkeypatch.setattr(backplane_two, "_renew", renew)
        await _lease_renewed(two, room.room_id, backplane)
        await ada.send(b"after the stall")  # 3: published to relay two, which lacks 2
        with pytest.raises(ConnectionClosedError) as closed:
            await receive(bob)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        bob = await bob.reconnect()  # and he resumes where he was, missing nothing
        assert await receive(bob, 3) == [
            Presence(2, 1, PresenceEvent.LEFT, "Bob"),
            Message(3, 0, b"after the stall"),
            Presence(4, 1, PresenceEvent.RECONNECTED, "Bob"),
        ]
        for member in (ada, bob):
            await member.close()
