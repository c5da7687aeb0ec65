"""A member resuming at a shared room's head (he missed nothing) is served, not told to
resync: a spectator's join adds no event, so nothing from his number on is what is due, not
a backlog that no longer reaches back (as a room held in memory does)."""

from __future__ import annotations

from relay.client import RoomConnection, create_room
from relay.envelope import Message
from tests.backplane.conftest import shared_relays
from tests.backplane.test_shared import receive


async def test_a_spectator_resuming_at_a_quiet_rooms_head_is_not_told_to_resync(
    backplane: str,
) -> None:
    """Sam watches, drops, and comes back with the number his welcome gave him: no resync, no
    `watching` news for the players (which would have them send him the whole match), and
    the next event each hears is Ada's next message."""
    async with shared_relays(backplane, 1) as (one,):
        room = await create_room(one.url, seats=2)
        ada = await RoomConnection.join(one.url, room.room_id, room.player_token, "Ada")
        await receive(ada)
        for n in range(3):
            await ada.send(b"m%d" % n, tell=n == 2)
        await receive(ada, 3)  # all three, numbered, back to her too
        sam = await RoomConnection.join(one.url, room.room_id, room.spectator_token, "Sam")
        head, epoch = sam.welcome.next_seq, sam.welcome.epoch
        await sam.close()
        sam = await RoomConnection.join(
            one.url, room.room_id, room.spectator_token, "Sam", resume_from=head, epoch=epoch
        )
        assert not sam.welcome.resync
        await ada.send(b"after", tell=True)
        (told,) = await receive(ada)
        assert isinstance(told, Message) and told.payload == b"after"
        assert told.seq == head  # nothing came between (no `watching` news)
        (seen,) = await receive(sam)
        assert isinstance(seen, Message) and seen.payload == b"after" and seen.seq == head
        await ada.close()
        await sam.close()
