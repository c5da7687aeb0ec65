"""wss:// served by the relay itself: a TCP connection is counted from accept, before its TLS
handshake (relay.connection.TLSGate), so that one address cannot hold thousands of silent
connections that nobody counts (each some kilobytes of TLS state)."""

from __future__ import annotations

import asyncio
import json
import ssl
from pathlib import Path

from relay.client import RoomConnection, create_room
from tests.relay.conftest import spawn_relay
from tests.relay.test_live import _self_signed


def _address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("wss://").rstrip("/").rsplit(":", 1)
    return host, int(port)


async def test_silent_tcp_connections_count_before_tls_and_are_released_when_they_go(
    tmp_path: Path,
) -> None:
    """With --max-connections-per-ip 4, five silent TCP connections are held (four and the
    one whose refusal an upgrade would carry) and the sixth is closed the moment it connects,
    before a byte of TLS; once they go, a wss:// member joins from that address."""
    cert, key = _self_signed(tmp_path)
    relay = spawn_relay(
        "--certfile", str(cert), "--keyfile", str(key), "--max-connections-per-ip", "4"
    )  # fmt: skip
    silent: list[asyncio.StreamWriter] = []
    try:
        assert relay.url.startswith("wss://")
        for _ in range(5):
            silent.append((await asyncio.open_connection(*_address(relay.url)))[1])
        reader, writer = await asyncio.open_connection(*_address(relay.url))
        assert await asyncio.wait_for(reader.read(), 5) == b""  # closed at accept
        writer.close()
        for held in silent:
            held.close()
        trust = ssl.create_default_context(cafile=str(cert))
        async with asyncio.timeout(10):  # until the relay has seen them go
            while True:
                try:
                    room = await create_room(relay.url, seats=1, tls=trust)
                    break
                except (ConnectionError, OSError, ssl.SSLError):
                    await asyncio.sleep(0.05)
        ada = await RoomConnection.join(
            relay.url, room.room_id, room.player_token, "Ada", tls=trust
        )
        await ada.close()
    finally:
        text = await asyncio.to_thread(relay.log_text)
    assert "Traceback" not in text
    logged = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    refused = [line for line in logged if line["event"] == "refused"]
    assert [(line["why"], line["ip"]) for line in refused][:1] == [("address", "127.0.0.1")]
