"""Two real apps play whole matches through relays that share their rooms in Redis, while a
relay process is killed behind a real nginx, or Redis restarts: the match ends with
identical, valid logs on both machines."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from client.setup import SessionSettings
from tests.backplane.conftest import Nginx, RedisServer, RelayProcess, spawn_shared
from tests.network.players import TIMEOUT, assert_same_verified_logs, autoplay, meet, play_out
from tests.relay.test_live import http_get


async def connections(relay: RelayProcess) -> int:
    port = int(relay.url.rstrip("/").rsplit(":", 1)[1])
    body = (await http_get(port, "/metrics"))[2]
    return int(body.split("\ntablier_relay_connections ", 1)[1].split()[0])


async def test_a_relay_killed_mid_match_behind_nginx_loses_nothing(
    backplane: str,
    nginx_for: Callable[[list[int]], Nginx],
    settings: Callable[[str], SessionSettings],
) -> None:
    relays = [spawn_shared(backplane), spawn_shared(backplane)]
    ports = [int(r.url.rstrip("/").rsplit(":", 1)[1]) for r in relays]
    balancer = nginx_for(ports)
    rooms = await meet(balancer.url, "jacquet", {"match_to": 1}, ["Ada", "Bob"], settings)
    ada, bob = (room.game(settings(name)) for room, name in zip(rooms, ["Ada", "Bob"], strict=True))
    try:
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(autoplay(ada, stop_after=8), autoplay(bob, stop_after=8))
        counts = [await connections(relay) for relay in relays]
        assert max(counts) >= 1
        doomed = relays[counts.index(max(counts))]  # the one holding more of the players
        doomed.process.kill()  # kill -9: nobody is told, nothing is flushed
        doomed.process.wait()
        await play_out([ada, bob])
        assert sum(room.link.reconnections for room in rooms) >= max(counts)
        await assert_same_verified_logs([ada, bob])
    finally:
        await asyncio.gather(*(room.close() for room in rooms))
        for relay in relays:
            if relay.process.poll() is None:
                relay.process.kill()
                relay.process.wait()


async def test_redis_restarted_mid_match_and_both_players_carry_on(
    tmp_path: Path, settings: Callable[[str], SessionSettings]
) -> None:
    server = RedisServer(tmp_path / "redis")
    server.directory.mkdir()
    server.start()
    relay = spawn_shared(server.fresh_url())
    rooms = await meet(relay.url, "jacquet", {"match_to": 1}, ["Ada", "Bob"], settings)
    ada, bob = (room.game(settings(name)) for room, name in zip(rooms, ["Ada", "Bob"], strict=True))
    try:
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(autoplay(ada, stop_after=8), autoplay(bob, stop_after=8))
        server.stop()  # SIGTERM: Redis writes its append-only file out and stops
        server.start()
        await play_out([ada, bob])
        assert all(room.link.reconnections >= 1 for room in rooms)
        await assert_same_verified_logs([ada, bob])
    finally:
        await asyncio.gather(*(room.close() for room in rooms))
        relay.process.kill()
        relay.process.wait()
        server.stop()
