"""A player's sends are paced by his seat, not his connection (relay.core: the seat's
bucket): reclaiming the seat from a new connection does not bring a fresh burst, the
reclaim itself costs a token, and a reclaim with none left is refused before the seat
changes hands (no departure and return for the room to hear)."""

from __future__ import annotations

import asyncio

import pytest

from relay.client import RelayError, RoomConnection, create_room
from relay.envelope import ErrorCode, Send, encode
from tests.relay.conftest import spawn_relay


async def test_reclaiming_a_seat_does_not_refill_its_send_rate() -> None:
    """Burst 10 at a message every ten seconds: Ada's join and 8 sends leave her seat one
    token, which her reclaim from a new connection (the flood's "reclaim, send, close" loop)
    spends: that connection is refused rate_limited within its first sends, where a fresh
    connection's bucket would take its join and 9 more; and the next reclaim is refused
    rate_limited at once, the seat left where it was."""
    relay = spawn_relay("--rate", "0.1", "--burst", "10")
    try:
        room = await create_room(relay.url, seats=2)
        ada = await RoomConnection.join(relay.url, room.room_id, room.player_token, "Ada")
        for n in range(8):
            await ada.send(b"%d" % n)
        again = await RoomConnection.join(relay.url, room.room_id, ada.token, "Ada")  # reclaim
        assert again.seat == ada.seat
        frame = encode(Send(b"more"))
        for _ in range(9):  # with its join, all a fresh connection's burst
            await again.websocket.send(frame)
        with pytest.raises(RelayError) as refused:
            while True:  # (nothing comes back to a sender but a refusal: no tell asked)
                await asyncio.wait_for(again.receive(), 5)
        assert refused.value.code == ErrorCode.RATE_LIMITED
        with pytest.raises(RelayError) as refused:
            await RoomConnection.join(relay.url, room.room_id, ada.token, "Ada")
        assert refused.value.code == ErrorCode.RATE_LIMITED
    finally:
        logged = await asyncio.to_thread(relay.log_lines)
    reclaims = [
        line for line in logged if line["event"] == "refused" and line.get("why") == "reclaim"
    ]
    assert len(reclaims) == 1
