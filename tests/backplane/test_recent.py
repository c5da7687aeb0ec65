"""What a relay process keeps of a shared room's recent events for members arriving on it
(relay.shared.LocalRoom.recent) is bounded by bytes as well as by count: --backlog-bytes,
as the room's backlog in Redis, so large frames cannot make each room cost megabytes."""

from __future__ import annotations

from relay.client import RoomConnection, create_room
from relay.shared import RECENT_EVENTS
from tests.backplane.conftest import shared_relays
from tests.backplane.test_shared import receive


async def test_a_process_keeps_at_most_backlog_bytes_of_a_rooms_recent_events(
    backplane: str,
) -> None:
    """20 frames of 15 KiB through a room (backlog 64 KiB): the process keeps the last few,
    within 64 KiB, far under its RECENT_EVENTS count; and Bob, arriving after them on
    another process, is still welcomed and hears what is sent next."""
    limit = 64 * 1024
    async with shared_relays(backplane, 2, backlog_bytes=limit, max_frame=16 * 1024) as (one, two):
        room = await create_room(one.url, seats=2)
        ada = await RoomConnection.join(one.url, room.room_id, room.player_token, "Ada")
        await receive(ada)
        big = b"x" * (15 * 1024)
        for n in range(20):
            await ada.send(big + b"%d" % n, tell=n == 19)
        events = await receive(ada, 1)  # its number, once all 20 were read back
        assert events
        local = one.core.shared[room.room_id]
        assert RECENT_EVENTS > 20  # the count alone would have kept all 20
        assert local.recent_bytes <= limit and len(local.recent) < 20
        assert local.recent_bytes == sum(len(frame) for _, frame in local.recent)
        bob = await RoomConnection.join(two.url, room.room_id, room.player_token, "Bob")
        await ada.send(b"hello")
        heard = await receive(bob, 2)  # his arrival, then Ada's message
        assert heard[-1].payload == b"hello"  # type: ignore[union-attr]
        await ada.close()
        await bob.close()
