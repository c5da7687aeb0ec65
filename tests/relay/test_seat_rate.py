"""A player's sends are paced by his seat, not his connection (relay.core: the seat's
bucket): reclaiming the seat from a new connection does not bring a fresh burst, and the
reclaim itself costs a token."""

from __future__ import annotations

import asyncio

import pytest

from relay.client import RelayError, RoomConnection, create_room
from relay.envelope import ErrorCode, Send, encode
from tests.relay.conftest import spawn_relay


async def test_reclaiming_a_seat_does_not_refill_its_send_rate() -> None:
    """Burst 10 at half a message a second: Ada spends her burst, and her seat reclaimed
    from a new connection (the flood's "reclaim, send, close" loop) is refused rate_limited
    within its first sends, where a fresh connection's bucket would take its join and 9 more.
    (Nothing comes back to the sender but a refusal: no send asks for its number.)"""
    relay = spawn_relay("--rate", "0.5", "--burst", "10")
    try:
        room = await create_room(relay.url, seats=2)
        ada = await RoomConnection.join(relay.url, room.room_id, room.player_token, "Ada")
        for n in range(10):
            await ada.send(b"%d" % n)
        again = await RoomConnection.join(relay.url, room.room_id, ada.token, "Ada")  # reclaim
        assert again.seat == ada.seat
        frame = encode(Send(b"more"))
        for _ in range(9):  # with its join, all a fresh connection's burst
            await again.websocket.send(frame)
        with pytest.raises(RelayError) as refused:
            while True:
                await asyncio.wait_for(again.receive(), 5)
        assert refused.value.code == ErrorCode.RATE_LIMITED
    finally:
        relay.process.kill()
        relay.process.wait()
