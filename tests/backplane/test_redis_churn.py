"""Spectators coming and going in a crowd, on two real relay processes sharing a real
redis-server: every change of the room's state races theirs, and members must still win.
A player reconnecting is never refused for it, and no departure is lost (no ghost
spectator stays in the room's state once the crowd is gone)."""

from __future__ import annotations

import asyncio
import contextlib

import redis.asyncio
from websockets.asyncio.client import connect

from relay.client import RelayError, RoomConnection, create_room
from relay.envelope import Join, encode
from relay.redis_backplane import room_keys
from relay.rooms import RoomState
from tests.backplane.conftest import spawn_shared

CROWD = ("--joins-per-minute", "100000", "--max-connections-per-ip", "1000")


async def spectate(url: str, room_id: str, token: str, stop: asyncio.Event) -> int:
    """Join as a spectator and leave at once, again and again until ``stop``."""
    joins = 0
    while not stop.is_set():
        with contextlib.suppress(OSError):
            async with connect(url) as websocket:
                await websocket.send(encode(Join(room_id, token, "Crowd")))
                await asyncio.wait_for(websocket.recv(), 10)  # welcome, or spectators_full
                joins += 1
    return joins


async def test_spectator_churn_neither_keeps_a_player_out_nor_leaves_ghosts(
    backplane: str,
) -> None:
    one, two = spawn_shared(backplane, *CROWD), spawn_shared(backplane, *CROWD)
    try:
        room = await create_room(one.url, seats=2)
        ada = await RoomConnection.join(one.url, room.room_id, room.player_token, "Ada")
        stop = asyncio.Event()
        crowd = [
            asyncio.create_task(spectate(url, room.room_id, room.spectator_token, stop))
            for url in (one.url, two.url) * 8
        ]
        refused: list[str] = []
        try:
            for n in range(12):  # Ada's reconnections, through either relay, amid the crowd
                await ada.close()
                url = (one.url, two.url)[n % 2]
                while True:  # as her app does: again after a refusal (counted)
                    try:
                        ada = await RoomConnection.join(url, room.room_id, ada.token, "Ada")
                        break
                    except RelayError as error:
                        refused.append(error.code)
        finally:
            stop.set()
            joins = sum(await asyncio.gather(*crowd))
        assert joins > 50  # the crowd did come and go meanwhile
        assert refused == []
        await ada.close()
        state_key = room_keys(room.room_id)[1]
        async with redis.asyncio.Redis.from_url(backplane) as direct, asyncio.timeout(10):
            while True:  # each departure is stored soon after its connection closes
                state = RoomState.from_bytes(room.room_id, await direct.get(state_key))
                if not state.spectators and state.seats[0].holder is None:
                    break
                await asyncio.sleep(0.05)
    finally:
        for relay in (one, two):
            relay.process.kill()
            relay.process.communicate()
