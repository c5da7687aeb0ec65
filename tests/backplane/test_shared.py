"""Rooms shared by several relays through one real redis-server: one order for everybody,
whichever relay each member is on; resuming, reclaiming and limits across relays."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio

from relay.client import RelayError, RoomConnection, create_room
from relay.envelope import ErrorCode, Message, Presence, PresenceEvent
from relay.redis_backplane import room_keys
from relay.rooms import RoomState
from relay.stream import Event
from tests.backplane.conftest import shared_relays, spawn_shared


async def receive(member: RoomConnection, count: int = 1) -> list[Event]:
    """The next ``count`` events, each within a few seconds (never a silent wait)."""
    return [await asyncio.wait_for(member.receive(), 3) for _ in range(count)]


async def test_members_on_three_relays_see_one_stream(backplane: str) -> None:
    async with shared_relays(backplane, 3) as (one, two, three):
        room = await create_room(one.url, seats=2)
        ada = await RoomConnection.join(one.url, room.room_id, room.player_token, "Ada")
        bob = await RoomConnection.join(two.url, room.room_id, room.player_token, "Bob")
        eve = await RoomConnection.join(three.url, room.room_id, room.spectator_token, "Eve")
        assert (ada.seat, bob.seat, eve.seat) == (0, 1, None)
        await asyncio.gather(
            # Each one's last asks for its number: nothing may come after it to place it.
            *(ada.send(f"ada {i}".encode(), tell=i == 19) for i in range(20)),
            *(bob.send(f"bob {i}".encode(), tell=i == 19) for i in range(20)),
        )
        ada_events = await receive(ada, 42)
        bob_events = await receive(bob, 41)
        eve_events = await receive(eve, 40)
        assert ada_events[:2] == [
            Presence(0, 0, PresenceEvent.JOINED, "Ada"),
            Presence(1, 1, PresenceEvent.JOINED, "Bob"),
        ]
        assert ada_events[2:] == bob_events[1:] == eve_events  # one order, numbered 2..41
        assert [event.seq for event in eve_events] == list(range(2, 42))  # type: ignore[union-attr]
        for seat, name in ((0, "ada"), (1, "bob")):  # each sender's own order kept
            sent = [e.payload for e in eve_events if isinstance(e, Message) and e.seat == seat]
            assert sent == [f"{name} {i}".encode() for i in range(20)]
        for member in (ada, bob, eve):
            await member.close()


async def test_a_member_resumes_through_another_relay(backplane: str) -> None:
    async with shared_relays(backplane, 2) as (one, two):
        room = await create_room(one.url, seats=2)
        ada = await RoomConnection.join(one.url, room.room_id, room.player_token, "Ada")
        bob = await RoomConnection.join(one.url, room.room_id, room.player_token, "Bob")
        await receive(ada, 2)
        await receive(bob, 1)
        await bob.close()
        assert await receive(ada) == [Presence(2, 1, PresenceEvent.LEFT, "Bob")]
        for i in range(5):
            await ada.send(bytes([i]), tell=i == 4)
        assert await receive(ada, 5) == [  # all numbered (her own, placed by the stamped)
            Message(3 + i, 0, bytes([i])) for i in range(5)
        ]
        bob.url = two.url  # as if a load balancer sent him to the other relay
        bob = await bob.reconnect()
        replayed = await receive(bob, 7)
        assert replayed == [
            Presence(2, 1, PresenceEvent.LEFT, "Bob"),
            *(Message(3 + i, 0, bytes([i])) for i in range(5)),
            Presence(8, 1, PresenceEvent.RECONNECTED, "Bob"),
        ]
        await ada.send(b"live")
        assert await receive(bob) == [Message(9, 0, b"live")]
        for member in (ada, bob):
            await member.close()


async def test_a_spectator_the_backlog_cannot_serve_is_announced_on_every_relay(
    backplane: str,
) -> None:
    async with shared_relays(backplane, 2, backlog=4) as (one, two):
        room = await create_room(one.url, seats=2)
        ada = await RoomConnection.join(one.url, room.room_id, room.player_token, "Ada")
        for i in range(10):  # 0: Ada's arrival, 1..10 her messages: 7..10 are kept
            await ada.send(bytes([i]), tell=i == 9)
        await receive(ada, 11)
        join = RoomConnection.join
        eve = await join(two.url, room.room_id, room.spectator_token, "Eve", resume_from=7)
        assert not eve.welcome.resync and len(await receive(eve, 4)) == 4  # served: no news
        late = await join(two.url, room.room_id, room.spectator_token, "Late", resume_from=0)
        assert late.welcome.resync and late.welcome.next_seq == 11
        watching = Presence(11, 0, PresenceEvent.WATCHING, "Late")
        assert await receive(ada) == await receive(eve) == await receive(late) == [watching]
        await ada.send(b"the match so far")
        assert await receive(late) == [Message(12, 0, b"the match so far")]
        for member in (ada, eve, late):
            await member.close()


async def two_seated(url: str) -> tuple[RoomConnection, RoomConnection, str]:
    """Ada and Bob seated in a new room through the relay at ``url``, their joins read."""
    room = await create_room(url, seats=2)
    ada = await RoomConnection.join(url, room.room_id, room.player_token, "Ada")
    bob = await RoomConnection.join(url, room.room_id, room.player_token, "Bob")
    await receive(ada, 2)
    await receive(bob, 1)
    return ada, bob, room.spectator_token


async def test_a_seat_reclaimed_through_another_relay_closes_the_old_connection(
    backplane: str,
) -> None:
    async with shared_relays(backplane, 2) as (one, two):
        ada, bob, _ = await two_seated(one.url)
        again = await RoomConnection.join(two.url, bob.room_id, bob.token, "Bob")
        assert again.seat == 1
        with pytest.raises(RelayError) as refused:
            await receive(bob)
        assert refused.value.code == ErrorCode.REPLACED
        assert await receive(ada) == [Presence(2, 1, PresenceEvent.RECONNECTED, "Bob")]
        await again.send(b"from the other relay")
        assert await receive(ada) == [Message(3, 1, b"from the other relay")]
        for member in (ada, again):
            await member.close()


async def test_failed_joins_count_on_every_relay(backplane: str) -> None:
    async with shared_relays(backplane, 2, join_failures_per_minute=3) as (one, two):
        room = await create_room(one.url, seats=2)
        for relay in (one, two, one):
            with pytest.raises(RelayError) as refused:
                await RoomConnection.join(relay.url, room.room_id, "guess" * 8, "Mallory")
            assert refused.value.code == ErrorCode.BAD_TOKEN
        with pytest.raises(RelayError) as refused:  # even the real token, on the other relay
            await RoomConnection.join(two.url, room.room_id, room.player_token, "Mallory")
        assert refused.value.code == ErrorCode.TOO_MANY_FAILURES


async def test_rooms_per_address_count_on_every_relay(backplane: str) -> None:
    async with shared_relays(backplane, 2, max_rooms_per_ip=2) as (one, two):
        await create_room(one.url, seats=2)
        await create_room(two.url, seats=2)
        with pytest.raises(RelayError) as refused:
            await create_room(one.url, seats=2)
        assert refused.value.code == ErrorCode.TOO_MANY_ROOMS
        assert "2 rooms" in refused.value.text


async def test_the_members_of_a_relay_process_that_died_are_let_go(backplane: str) -> None:
    """kill -9 leaves nobody to say its members left: the others' relay finds its lease
    lapsed (1 s here), announces them away, and their seats expire after the grace."""
    doomed = spawn_shared(backplane, "--seat-grace", "0.5")
    async with shared_relays(backplane, 1) as (survivor,):
        ada, bob, _ = await two_seated(doomed.url)
        bob = await RoomConnection.join(survivor.url, ada.room_id, bob.token, "Bob")
        assert await receive(bob) == [Presence(2, 1, PresenceEvent.RECONNECTED, "Bob")]
        doomed.process.kill()
        doomed.process.wait()
        events = await receive(bob, 2)  # within the lease, the renewal and the grace
        assert events == [
            Presence(3, 0, PresenceEvent.LEFT, "Ada"),
            Presence(4, 0, PresenceEvent.SEAT_EXPIRED, "Ada"),
        ]
        with pytest.raises(RelayError) as refused:
            await RoomConnection.join(survivor.url, ada.room_id, ada.token, "Ada")
        assert refused.value.code == ErrorCode.SEAT_EXPIRED
        await bob.close()


async def test_a_spectator_who_leaves_gives_his_place_back(backplane: str) -> None:
    """Spectators count in the room's state in Redis: one who leaves is taken out of it (a
    change with no event, stored all the same), so his place is free for the next."""
    async with shared_relays(backplane, 1, max_spectators=1) as (relay,):
        room = await create_room(relay.url, seats=2)
        eve = await RoomConnection.join(relay.url, room.room_id, room.spectator_token, "Eve")
        await eve.close()
        state = room_keys(room.room_id)[1]
        async with redis.asyncio.Redis.from_url(backplane) as direct, asyncio.timeout(5):
            while RoomState.from_bytes(room.room_id, await direct.get(state)).spectators:
                await asyncio.sleep(0.02)
        zoe = await RoomConnection.join(relay.url, room.room_id, room.spectator_token, "Zoe")
        assert zoe.seat is None
        await zoe.close()
