"""deploy/nginx-tablier-relays.conf in front of two real relay processes: what one client
address can do to everyone else through nginx."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from relay.client import RoomConnection, create_room
from tests.backplane.conftest import Nginx, spawn_shared
from tests.relay.conftest import RelayProcess
from tests.relay.test_hostile_transport import upgrade_request


def _port(url: str) -> int:
    return int(url.rstrip("/").rsplit(":", 1)[1])


async def _upgrade(
    port: int, *extra: bytes
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, bytes]:
    """An upgrade request through nginx, and the head of its answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(upgrade_request(*extra))
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    return reader, writer, head


async def test_an_oversized_upgrade_is_answered_431_and_every_relay_stays_in_rotation(
    backplane: str, nginx_for: Callable[[list[int]], Nginx]
) -> None:
    """A request past relay.limits.UPGRADE_REQUEST_BYTES (within nginx's own 8 KiB lines) is
    answered 431, which nginx passes back to its sender; right after it, through both
    processes, an honest create and join go through (no 502 "no live upstreams")."""
    relays: list[RelayProcess] = [
        spawn_shared(backplane, "--trust-proxy"),
        spawn_shared(backplane, "--trust-proxy"),
    ]
    try:
        balancer = nginx_for([_port(relay.url) for relay in relays])
        padding = [b"X-Padding-%d: %s\r\n" % (n, b"a" * 1000) for n in range(5)]
        for _ in relays:  # nginx tries each process in turn
            _, writer, head = await _upgrade(balancer.port, *padding)
            assert head.startswith(b"HTTP/1.1 431 ")
            writer.close()
        for _ in range(4):  # and each still takes newcomers
            room = await create_room(balancer.url, seats=2)
            ada = await RoomConnection.join(balancer.url, room.room_id, room.player_token, "Ada")
            await ada.close()
    finally:
        for relay in relays:
            relay.process.kill()
            relay.process.wait()


async def test_nginx_holds_33_connections_from_one_address_and_answers_the_next_429(
    backplane: str, nginx_for: Callable[[list[int]], Nginx]
) -> None:
    """The relay behind a proxy sees one address's connections only once upgraded; nginx's
    limit_conn bounds them before: 33 (the relay's 32 and one to carry its refusal), the
    34th answered 429 by nginx without reaching a relay. (The relays here allow more, so
    that it is nginx's bound that is seen.)"""
    relays: list[RelayProcess] = [
        spawn_shared(backplane, "--trust-proxy", "--max-connections-per-ip", "100"),
        spawn_shared(backplane, "--trust-proxy", "--max-connections-per-ip", "100"),
    ]
    held: list[asyncio.StreamWriter] = []
    try:
        balancer = nginx_for([_port(relay.url) for relay in relays])
        for _ in range(33):
            _, writer, head = await _upgrade(balancer.port)
            assert head.startswith(b"HTTP/1.1 101 ")
            held.append(writer)
        _, writer, head = await _upgrade(balancer.port)
        assert head.startswith(b"HTTP/1.1 429 ")
        writer.close()
        held.pop().close()  # one goes: a newcomer from that address is let in again
        async with asyncio.timeout(10):
            while True:
                _, writer, head = await _upgrade(balancer.port)
                if head.startswith(b"HTTP/1.1 101 "):
                    break
                assert head.startswith(b"HTTP/1.1 429 ")  # nginx has not seen it go yet
                writer.close()
                await asyncio.sleep(0.05)
        held.append(writer)
    finally:
        for writer in held:
            writer.close()
        for relay in relays:
            relay.process.kill()
            relay.process.wait()
