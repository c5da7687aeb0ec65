"""Redis answering, but not as the relay needs: refusing writes (out of memory, a read-only
replica), or holding another relay version's functions, loaded before this process started
or after. Nothing is numbered beside another version, no member's message vanishes without
a word, /healthz says why, and the process serves again by itself once it can."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

import pytest
import redis
import redis.asyncio
from websockets.exceptions import ConnectionClosed

from relay import redis_library
from relay.client import RelayError, RoomConnection, create_room
from relay.envelope import ErrorCode, Message, Presence, PresenceEvent
from relay.redis_backplane import room_keys
from relay.server import RelayServer
from tests.backplane.conftest import RedisServer, back, free_port, shared_relays
from tests.backplane.test_redis_faults import dropped, until_healthy
from tests.backplane.test_shared import receive, two_seated
from tests.relay.test_live import http_get

V1_PROBE = (
    "#!lua name=tablier_relay_1\n"
    "redis.register_function('tablier_v1_probe', function() return 1 end)"
)


def _out_of_memory(operator: redis.Redis, refuse: bool) -> str:
    operator.config_set("maxmemory-policy", "noeviction")
    operator.config_set("maxmemory", "1" if refuse else "0")
    return "OOM command not allowed"


def _read_only(operator: redis.Redis, refuse: bool) -> str:
    # A replica of a master that is not there: what a failover gone wrong looks like.
    if refuse:
        operator.replicaof("127.0.0.1", free_port())
    else:
        operator.replicaof("NO", "ONE")
    return "READONLY"


@pytest.mark.parametrize("refusal", [_out_of_memory, _read_only], ids=["oom", "readonly"])
async def test_a_redis_refusing_writes_is_said_and_every_move_it_refused_is_sent_again(
    tmp_path: Path, refusal: Callable[[redis.Redis, bool], str]
) -> None:
    server = RedisServer(tmp_path)
    server.start()
    try:
        # Leases long enough that nobody is taken for dead meanwhile.
        async with shared_relays(server.fresh_url(), 2, backplane_lease=10.0) as (one, two):
            room = await create_room(one.url, seats=2)
            ada = await RoomConnection.join(one.url, room.room_id, room.player_token, "Ada")
            bob = await RoomConnection.join(two.url, room.room_id, room.player_token, "Bob")
            await receive(ada, 2)
            await receive(bob, 1)
            with redis.Redis(port=server.port) as operator:
                said = refusal(operator, True)
                await bob.send(b"a move Redis will not take")
                assert await dropped(bob) == 1012  # told: he resumes and sends it again
                status, _, body = await http_get(two.port, "/healthz")
                assert status == 503
                assert body.startswith(f"unavailable: Redis at redis://127.0.0.1:{server.port}/")
                assert f"refuses the relay's writes ({said}" in body
                with pytest.raises(RelayError) as refused:
                    await create_room(two.url, seats=2)
                assert refused.value.code == ErrorCode.UNAVAILABLE
                metrics = (await http_get(two.port, "/metrics"))[2]
                assert "tablier_relay_backplane_up 0" in metrics
                refusal(operator, False)
            await until_healthy(two)
            bob = await back(bob)
            await bob.send(b"a move Redis will not take")
            assert await receive(ada, 2) == [  # numbered once, when Redis took it
                Presence(2, 1, PresenceEvent.RECONNECTED, "Bob"),
                Message(3, 1, b"a move Redis will not take"),
            ]
            for member in (ada, bob):
                await member.close()
    finally:
        server.stop()


async def refuses_beside_version_1(relay: RelayServer, says: str) -> None:
    """While version 1's library is loaded, *relay* is unhealthy, saying *says* and how to
    remove the other library, and refuses new rooms."""
    status, _, body = await http_get(relay.port, "/healthz")
    assert status == 503 and says in body
    assert "redis-cli FUNCTION DELETE tablier_relay_1" in body
    with pytest.raises(RelayError) as refused:
        await create_room(relay.url, seats=2)
    assert refused.value.code == ErrorCode.UNAVAILABLE


async def test_another_version_loaded_after_the_relay_started_is_refused_until_it_goes(
    tmp_path: Path,
) -> None:
    """An old relay process started later loads its functions beside ours: within a quarter
    of a lease this process sees them, lets its members go (they come back once it is
    resolved), refuses rooms and says what to run."""
    server = RedisServer(tmp_path)
    server.start()
    try:
        async with shared_relays(server.fresh_url(), 1) as (relay,):
            ada, bob, _ = await two_seated(relay.url)
            operator = redis.Redis(port=server.port)
            operator.function_load(V1_PROBE)
            assert [await dropped(ada), await dropped(bob)] == [1012, 1012]
            await refuses_beside_version_1(relay, "another relay version (tablier_relay_1)")
            operator.function_delete("tablier_relay_1")
            await until_healthy(relay)
            ada = await back(ada)
            assert not ada.welcome.resync
    finally:
        server.stop()


async def test_every_function_refuses_while_the_version_key_names_another_version(
    backplane: str,
) -> None:
    """A relay of another version (from 3 on) that loads its functions beside ours names
    itself in the version key: from then on every function of ours refuses before it does
    anything, so this process numbers nothing more, whatever it has not noticed yet."""
    async with shared_relays(backplane, 1) as (relay,):
        ada, bob, _ = await two_seated(relay.url)
        log = room_keys(ada.room_id)[2]
        async with redis.asyncio.Redis.from_url(backplane) as operator:
            await operator.set(redis_library.VERSION_KEY, "tablier_relay_9")
            (library,) = await operator.function_list(library=redis_library.NAME)
            functions = dict(zip(library[::2], library[1::2], strict=True))[b"functions"]
            names = [dict(zip(f[::2], f[1::2], strict=True))[b"name"] for f in functions]
            assert len(names) == redis_library.SOURCE.count("register('tablier_")
            for name in names:
                with pytest.raises(redis.ResponseError) as refused:
                    await operator.fcall(name.decode(), 0)
                assert str(refused.value) == "TABLIER_VERSION tablier_relay_9"
            # Refused (or, if the relay's lease renewal was refused first, let go already).
            with contextlib.suppress(ConnectionClosed):
                await ada.send(b"never numbered beside another version")
            assert [await dropped(ada), await dropped(bob)] == [1012, 1012]
            assert await operator.xlen(log) == 2  # the two arrivals, nothing more
        # No other version's functions are in Redis: the relay takes the key back.
        await until_healthy(relay)
        ada, bob = await back(ada), await back(bob)
        await ada.send(b"numbered again")
        assert await receive(bob, 3) == [
            Presence(2, 0, PresenceEvent.RECONNECTED, "Ada"),
            Presence(3, 1, PresenceEvent.RECONNECTED, "Bob"),
            Message(4, 0, b"numbered again"),
        ]
        for member in (ada, bob):
            await member.close()


async def test_a_redis_holding_another_versions_functions_is_refused_until_they_go(
    tmp_path: Path,
) -> None:
    # Version 1's processes numbered rooms and filled inbox streams; later ones publish. Two
    # versions sharing one Redis would each miss the other's events: refused, and said.
    server = RedisServer(tmp_path)
    server.start()
    try:
        operator = redis.Redis(port=server.port)
        operator.function_load(V1_PROBE)
        async with shared_relays(server.fresh_url(), 1, serving=False) as (relay,):
            async with asyncio.timeout(10):
                while "another relay version" not in (await http_get(relay.port, "/healthz"))[2]:
                    await asyncio.sleep(0.05)
            await refuses_beside_version_1(relay, "stop every relay process of that version")
            assert operator.function_list(library=redis_library.NAME) == []  # left alone
            operator.function_delete("tablier_relay_1")
            await until_healthy(relay)
            created = await create_room(relay.url, seats=2)
            assert created.room_id
    finally:
        server.stop()
