"""A shared room's place among the counted rooms (tablier:{rooms} and its creator's set,
which --max-rooms, --max-rooms-per-ip and the memory check read) lives at least as long as
the room's keys: every commit that renews the keys renews the count to the same end, so that
no room is alive in Redis and uncounted (a spectator's blinks renewed the keys alone)."""

from __future__ import annotations

import redis.asyncio

from relay.client import RoomConnection, create_room
from tests.backplane.conftest import shared_relays


async def test_a_spectators_blink_renews_the_rooms_count_with_its_keys(backplane: str) -> None:
    async with (
        shared_relays(backplane, 1) as (one,),
        redis.asyncio.Redis.from_url(backplane) as direct,
    ):
        room = await create_room(one.url, seats=2)
        meta = f"tablier:{{{room.room_id}}}:meta"
        for _ in range(3):  # a spectator comes and goes: each a commit of the room
            eve = await RoomConnection.join(one.url, room.room_id, room.spectator_token, "Eve")
            await eve.close()
            keys_end = await direct.pexpiretime(meta)
            counted_end = await direct.zscore("tablier:{rooms}", room.room_id)
            creators_end = await direct.zscore("tablier:{rooms}:127.0.0.1", room.room_id)
            assert keys_end > 0 and counted_end is not None and creators_end is not None
            assert counted_end >= keys_end and creators_end >= keys_end
