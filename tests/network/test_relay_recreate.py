"""The relay's re-create: after a restart, members of a lost room bring it back under its
old secrets, so invites already handed out keep working (what networked play relies on)."""

from __future__ import annotations

from websockets.asyncio.client import connect

from relay.client import RelayError, RoomConnection, create_room
from relay.config import RelayConfig
from relay.envelope import Create, Created, Error, decode_relay_frame, encode
from relay.server import RelayServer


async def _create(url: str, message: Create) -> Created | Error:
    async with connect(url, compression=None) as websocket:
        await websocket.send(encode(message))
        reply = decode_relay_frame(await websocket.recv(decode=False))
    assert isinstance(reply, Created | Error)
    return reply


async def test_a_lost_room_is_recreated_with_its_old_id_and_tokens() -> None:
    async with RelayServer(RelayConfig(port=0)) as first:
        room = await create_room(first.url, seats=2)
    async with RelayServer(RelayConfig(port=0)) as second:
        # The restarted relay does not know the room…
        try:
            await RoomConnection.join(second.url, room.room_id, room.player_token, "Ada")
        except RelayError as refusal:
            assert refusal.code == "unknown_room"
        else:
            raise AssertionError("a restarted relay still knew the room")
        # …until a member brings it back; a second member racing to do the same is answered
        # alike, and both tokens open it again.
        assert await _create(second.url, Create(2, room)) == room
        assert await _create(second.url, Create(2, room)) == room
        async with (
            await RoomConnection.join(second.url, room.room_id, room.player_token, "Ada") as ada,
            await RoomConnection.join(second.url, room.room_id, room.spectator_token, "Eve") as eve,
        ):
            assert (ada.seat, eve.seat) == (0, None)


async def test_recreating_a_live_room_needs_its_exact_secrets() -> None:
    async with RelayServer(RelayConfig(port=0)) as relay:
        room = await create_room(relay.url, seats=2)
        forged = Created(room.room_id, "x" * 43, room.spectator_token)
        reply = await _create(relay.url, Create(2, forged))
        assert isinstance(reply, Error) and reply.code == "bad_token"
        too_short = Create(2, Created("short", room.player_token, room.spectator_token))
        reply = await _create(relay.url, too_short)
        assert isinstance(reply, Error) and reply.code == "bad_envelope"
