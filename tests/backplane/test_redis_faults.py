"""Redis going away, coming back, and coming back without its newest events: the relay says
so, refuses what it cannot do with a sentence, never crashes, and never reorders a stream
silently: a member either resumes where he was or is told to resync."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import redis
from websockets.exceptions import ConnectionClosedError

from relay.client import RelayError, RoomConnection, create_room
from relay.envelope import ErrorCode, Message, Presence, PresenceEvent
from relay.redis_backplane import room_keys
from relay.server import RelayServer
from tests.backplane.conftest import RedisServer, shared_relays
from tests.backplane.test_shared import receive, two_seated
from tests.relay.test_live import http_get


async def dropped(member: RoomConnection) -> int:
    """The close code the relay ended this member's connection with."""
    with pytest.raises(ConnectionClosedError) as closed:
        await receive(member, 100)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


async def until_healthy(relay: RelayServer) -> None:
    """Until /healthz says 200 (no deadline of its own: pytest-timeout stops a hang)."""
    while (await http_get(relay.port, "/healthz"))[0] != 200:
        await asyncio.sleep(0.05)


async def test_with_redis_down_the_relay_says_why_refuses_rooms_and_recovers(
    tmp_path: Path,
) -> None:
    server = RedisServer(tmp_path)
    server.start()
    try:
        async with shared_relays(server.fresh_url(), 1) as (relay,):
            ada, bob, _ = await two_seated(relay.url)
            epoch = ada.welcome.epoch
            server.stop()
            assert [await dropped(ada), await dropped(bob)] == [1012, 1012]  # come back later
            status, _, body = await http_get(relay.port, "/healthz")
            assert status == 503
            assert body.startswith(f"unavailable: Redis at redis://127.0.0.1:{server.port}/")
            with pytest.raises(RelayError) as refused:
                await create_room(relay.url, seats=2)
            assert refused.value.code == ErrorCode.UNAVAILABLE
            assert refused.value.text.endswith("try again in a moment.")
            metrics = (await http_get(relay.port, "/metrics"))[2]
            assert "tablier_relay_backplane_up 0" in metrics

            await asyncio.sleep(1.2)  # longer than the relay's lease (1 s here)
            server.start()  # the same folder: its append-only file brings the room back
            await until_healthy(relay)
            ada, bob = await ada.reconnect(), await bob.reconnect()
            # Redis restarted: the room counts in a new epoch, but nothing was lost, so
            # both resume where they were.
            assert not ada.welcome.resync and not bob.welcome.resync
            assert ada.welcome.epoch == bob.welcome.epoch != epoch
            await ada.send(b"after the outage")
            # The outage outlasted the relay's lease: both were let go first.
            assert await receive(bob, 5) == [
                Presence(2, 0, PresenceEvent.LEFT, "Ada"),
                Presence(3, 1, PresenceEvent.LEFT, "Bob"),
                Presence(4, 0, PresenceEvent.RECONNECTED, "Ada"),
                Presence(5, 1, PresenceEvent.RECONNECTED, "Bob"),
                Message(6, 0, b"after the outage"),
            ]
            metrics = (await http_get(relay.port, "/metrics"))[2]
            assert "tablier_relay_backplane_up 1" in metrics
            assert "tablier_relay_backplane_reconnects_total 1" in metrics
            for member in (ada, bob):
                await member.close()
    finally:
        server.stop()


async def test_events_redis_lost_are_never_silently_replaced(tmp_path: Path) -> None:
    """A crash with ``appendfsync everysec`` can lose Redis's last second. Whoever saw the
    lost events is told to resync; whoever had not got that far resumes as if nothing
    happened; and the numbers the lost events had are never given to others unannounced."""
    server = RedisServer(tmp_path)
    server.start()
    url = server.fresh_url()
    try:
        # Ada, dropped, does not come back: within a long grace her absence is not told, and
        # Eve's first news is Bob's return however long the restart takes (with the 0.5 s
        # grace, a busy machine had Ada's departure told first).
        async with shared_relays(url, 1, seat_grace=60.0) as (relay,):
            ada, bob, spectator_token = await two_seated(relay.url)
            eve = await RoomConnection.join(relay.url, ada.room_id, spectator_token, "Eve")
            await ada.send(b"kept")
            assert await receive(bob) == await receive(eve) == [Message(2, 0, b"kept")]
            await eve.close()  # Eve has seen everything up to 2
            await ada.send(b"lost")
            await ada.send(b"lost too")
            assert await receive(bob, 2) == [Message(3, 0, b"lost"), Message(4, 0, b"lost too")]
            server.stop()
            assert [await dropped(ada), await dropped(bob)] == [1012, 1012]
            server.start()
            meta, _, log, _ = room_keys(ada.room_id)
            with redis.Redis.from_url(url) as direct:  # what the crash took
                direct.xdel(log, "3-1", "4-1")
                direct.execute_command("XSETID", log, "2-1")
                direct.hset(meta, "seq", 3)
            await until_healthy(relay)
            bob = await bob.reconnect()
            assert bob.welcome.resync  # he saw 3 and 4, which are gone
            eve = await eve.reconnect()
            assert not eve.welcome.resync  # she had not got that far: her resume is served
            await bob.send(b"new")
            seen = await receive(eve, 2)
            assert seen[0] == Presence(3, 1, PresenceEvent.RECONNECTED, "Bob")
            assert seen[1] == Message(4, 1, b"new")  # numbers 3 and 4 again, but Eve never
            # had the lost ones, and Bob, who had, was told to resync
            for member in (bob, eve):
                await member.close()
    finally:
        server.stop()


async def test_a_function_list_it_cannot_read_is_said_and_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Something at the Redis address answers FUNCTION LIST in a form this relay does not
    read (another server speaking RESP, a Redis of another kind): the relay says so in
    /healthz, keeps trying, and serves once the answer is one it reads — its task that
    reaches Redis does not die on it."""
    server = RedisServer(tmp_path)
    server.start()
    try:
        async with shared_relays(server.fresh_url(), 1) as (relay,):
            backplane = relay.backplane
            assert backplane is not None
            answer = backplane._redis.function_list
            odd = [True]

            async def function_list(**options: Any) -> Any:
                return [[b"library_name"]] if odd[0] else await answer(**options)

            monkeypatch.setattr(backplane._redis, "function_list", function_list)
            server.stop()
            server.start()
            async with asyncio.timeout(10):
                while "cannot be read" not in (body := (await http_get(relay.port, "/healthz"))[2]):
                    await asyncio.sleep(0.05)
            assert body.startswith("unavailable: ")
            odd[0] = False
            await until_healthy(relay)
            ada, bob, _ = await two_seated(relay.url)
            for member in (ada, bob):
                await member.close()
    finally:
        server.stop()
