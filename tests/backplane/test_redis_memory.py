"""Redis's memory against rooms filled from many addresses: the relay stops creating rooms
while every room it holds can still fill its backlog, so an honest room is never cut for a
newcomer (the newcomer is refused with ``too_many_rooms``), and the shipped configuration
(deploy/redis-tablier.conf) holds ``--max-rooms`` full rooms."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import redis
from websockets.asyncio.client import ClientConnection, connect

from relay.backplane_rooms import REDIS_SHARE, room_bytes
from relay.client import RoomConnection, create_room
from relay.config import RelayConfig
from relay.envelope import (
    Create,
    Created,
    Error,
    ErrorCode,
    Join,
    Message,
    Send,
    Stamped,
    Welcome,
    decode_relay_frame,
    encode,
)
from tests.backplane.conftest import shared_relays
from tests.backplane.test_shared import receive
from tests.relay.conftest import RedisServer

DEPLOYED = Path(__file__).resolve().parents[2] / "deploy" / "redis-tablier.conf"

# Small rooms, so that a small Redis fills with a few dozen of them.
BACKLOG = 64
SMALL: dict[str, object] = {
    "backlog": BACKLOG,
    "backlog_bytes": 16 * 1024,
    "max_frame": 4096,
    "max_rooms": 100_000,
    "trust_proxy": True,  # each filler comes from an address of its own (X-Forwarded-For)
    "backplane_lease": 10.0,
    "room_idle": 120.0,  # the filled rooms stay, their fillers gone
    "seat_grace": 120.0,
    "rate": 5000.0,
    "burst": 5000,
    "handshake_timeout": 120.0,  # a loaded machine is slow to join, not a slow client
}
PAYLOAD = bytes(240)  # 64 of these fill a room's 16 KiB: the most entries and bytes at once


async def _ask(url: str, address: str, message: Create | Join) -> tuple[ClientConnection, object]:
    websocket = await connect(url, additional_headers={"X-Forwarded-For": address})
    await websocket.send(encode(message))
    return websocket, decode_relay_frame(await websocket.recv(decode=False))


async def _fill_a_room(url: str, address: str, backlog: int) -> Created | Error:
    """From ``address``: a new room, a player in it, and its backlog full; or the refusal."""
    websocket, created = await _ask(url, address, Create(2))
    await websocket.close()
    if isinstance(created, Error):
        return created
    assert isinstance(created, Created)
    join = Join(created.room_id, created.player_token, "Mallory")
    websocket, welcome = await _ask(url, address, join)
    assert isinstance(welcome, Welcome), welcome
    for n in range(backlog):
        await websocket.send(encode(Send(PAYLOAD, tell=n == backlog - 1)))
    # Its own arrival, then the last send's number: every send is numbered, the backlog full.
    while not isinstance(decode_relay_frame(await websocket.recv(decode=False)), Stamped):
        pass
    await websocket.close()
    return created


async def test_rooms_stop_before_redis_memory_and_no_honest_member_is_cut(
    tmp_path: Path,
) -> None:
    server = RedisServer(tmp_path)
    server.start()
    try:
        operator = redis.Redis(port=server.port)
        operator.config_set("maxmemory-policy", "noeviction")
        used = int(operator.info("memory")["used_memory"])
        config = replace(RelayConfig(), **SMALL)  # type: ignore[arg-type]
        # Room for a hundred full rooms beyond what Redis holds already, by the relay's
        # count (which counts a room's present memory beyond its frames twice, and sees the
        # relays' own connections to Redis come and go).
        most = used + 100 * room_bytes(config) * REDIS_SHARE // (REDIS_SHARE - 1)
        operator.config_set("maxmemory", str(most))
        async with shared_relays(server.fresh_url(), 2, **SMALL) as (one, two):
            honest = await create_room(one.url, seats=2)
            ada = await RoomConnection.join(one.url, honest.room_id, honest.player_token, "Ada")
            bob = await RoomConnection.join(two.url, honest.room_id, honest.player_token, "Bob")
            await receive(ada, 2)
            await receive(bob, 1)
            filled: list[Created] = []
            refusal: Error | None = None
            while refusal is None:
                assert len(filled) < 400, "the relay never refused a room"
                relay = (one, two)[len(filled) % 2]
                address = f"10.0.{len(filled) // 250}.{len(filled) % 250 + 1}"
                answer = await _fill_a_room(relay.url, address, BACKLOG)
                if isinstance(answer, Error):
                    refusal = answer
                else:
                    filled.append(answer)
            assert refusal.code == ErrorCode.TOO_MANY_ROOMS
            assert "as many rooms as it may" in refusal.text
            assert 30 <= len(filled) < 100
            # The honest room fills its backlog too, and its members go on: nobody is cut.
            for n in range(BACKLOG * 2):
                await ada.send(PAYLOAD + n.to_bytes(2, "big"))
            got = await receive(bob, BACKLOG * 2)
            assert [e.payload[-2:] for e in got if isinstance(e, Message)] == [
                n.to_bytes(2, "big") for n in range(BACKLOG * 2)
            ]
            await bob.send(b"still here", tell=True)
            *_hers, last = await receive(ada, BACKLOG * 2 + 1)  # hers, in place
            assert isinstance(last, Message) and last.payload == b"still here"
            assert one.backplane is not None and one.backplane.unavailable is None
            assert two.backplane is not None and two.backplane.unavailable is None
            assert int(operator.info("memory")["used_memory"]) < most
            for member in (ada, bob):
                await member.close()
    finally:
        server.stop()


def test_the_shipped_redis_holds_max_rooms_full_rooms() -> None:
    """deploy/redis-tablier.conf's maxmemory, less Redis's share, holds the default
    ``--max-rooms`` rooms at their worst (counted as the relay counts them when it decides:
    each room's most, and what it holds beyond its frames, twice)."""
    text = DEPLOYED.read_text()
    (megabytes,) = re.findall(r"^maxmemory (\d+)mb$", text, re.MULTILINE)
    most = int(megabytes) * 1024 * 1024
    config = RelayConfig()
    room = room_bytes(config)
    beyond_frames = room - (config.backlog_bytes - config.max_frame)
    promised = (config.max_rooms + 1) * room + config.max_rooms * beyond_frames
    assert promised <= most - most // REDIS_SHARE
