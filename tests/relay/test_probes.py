"""What a stranger learns of a relay without a token: whether a room is live only through a
counted failure, and nothing from /metrics unless he is on the relay's machine."""

from __future__ import annotations

import asyncio
import ipaddress
import socket

import pytest

from relay.client import RelayError, RoomConnection, create_room
from relay.envelope import ErrorCode
from tests.relay.conftest import spawn_relay


async def _refusal(url: str, room_id: str, name: str) -> str:
    with pytest.raises(RelayError) as refused:
        await RoomConnection.join(url, room_id, "x" * 43, name)
    return refused.value.code


async def test_a_bad_name_tells_a_live_room_from_no_room_only_as_a_counted_failure() -> None:
    """The name is checked before the room is looked up: with a bad name, a live room and a
    made-up id get the same refusal; the room's liveness is learnt only from unknown_room,
    which counts toward the address's failed joins (here 2 a minute, then throttled)."""
    relay = spawn_relay("--join-failures-per-minute", "2")
    try:
        room = await create_room(relay.url, seats=2)
        made_up = "A" * len(room.room_id)
        for _ in range(5):  # as often as he likes: the same answer, nothing learnt
            assert await _refusal(relay.url, room.room_id, "") == ErrorCode.BAD_NAME
            assert await _refusal(relay.url, made_up, "") == ErrorCode.BAD_NAME
        codes = [await _refusal(relay.url, made_up, "Eve") for _ in range(3)]
        assert codes == [
            ErrorCode.UNKNOWN_ROOM,
            ErrorCode.UNKNOWN_ROOM,
            ErrorCode.TOO_MANY_FAILURES,
        ]
    finally:
        relay.process.kill()
        relay.process.wait()


def _outward_address() -> str:
    """This machine's address on its way out (no packet is sent: a UDP socket's route)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, only routed
        address: str = probe.getsockname()[0]
    assert not ipaddress.ip_address(address).is_loopback, "this machine has no outward address"
    return address


async def _get(host: str, port: int, path: str) -> int:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: relay\r\nConnection: close\r\n\r\n".encode())
    status = int((await asyncio.wait_for(reader.read(), 10)).split()[1])
    writer.close()
    return status


async def test_metrics_answer_only_the_relays_own_machine() -> None:
    """A relay listening on every interface answers /metrics to 127.0.0.1 and 403 to a peer
    at another address (here this machine's outward one), while /healthz answers both."""
    relay = spawn_relay("--host", "0.0.0.0")
    port = int(relay.url.rstrip("/").rsplit(":", 1)[1])
    outward = _outward_address()
    try:
        assert await _get("127.0.0.1", port, "/metrics") == 200
        assert await _get(outward, port, "/metrics") == 403
        assert await _get(outward, port, "/healthz") == 200
    finally:
        relay.process.kill()
        relay.process.wait()
