"""Relay processes sharing their rooms through a real redis-server, and a real nginx in
front of them where a load balancer is needed. One redis-server serves a whole test module;
each test takes a database of its own from it."""

from __future__ import annotations

import asyncio
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
import redis.asyncio

from relay.client import RelayError, RoomConnection
from relay.envelope import ErrorCode
from relay.redis_backplane import room_keys
from relay.server import RelayServer
from tests.network.conftest import clock, settings  # noqa: F401  (the players' fixtures)
from tests.relay.conftest import (  # noqa: F401  (fixtures)
    FAST,
    RedisServer,
    RelayProcess,
    free_port,
    redis_server,
    spawn_relay,
)

# Computer seats play far faster than people: the network tests' rate limit.
FAST_PLAY = ("--rate", "2000", "--burst", "2000", "--shutdown-timeout", "1",
             "--max-bytes-per-ip", str(1 << 30))  # fmt: skip


@pytest.fixture
def backplane(redis_server: RedisServer) -> str:  # noqa: F811
    """A database of its own on the module's redis-server."""
    return redis_server.fresh_url()


@asynccontextmanager
async def shared_relays(
    url: str, count: int, *, serving: bool = True, **overrides: object
) -> AsyncIterator[list[RelayServer]]:
    """``count`` in-process relays (each its own RelayServer, as in its own process) sharing
    the rooms of the Redis database at ``url``; once each serves rooms, unless not *serving*
    (a test of a Redis it cannot use)."""
    chosen: dict[str, object] = {"backplane": url, "backplane_lease": 1.0, **overrides}
    config = replace(FAST, **chosen)  # type: ignore[arg-type]
    relays = [RelayServer(config) for _ in range(count)]
    try:
        for relay in relays:
            await relay.start()
        if serving:
            for relay in relays:
                await until_serving(relay)
        yield relays
    finally:
        for relay in relays:
            await relay.close()


async def until_serving(relay: RelayServer) -> None:
    """Until *relay* reaches Redis and serves rooms. Its start waits only a moment for Redis
    (then it says ``unavailable``, as it should): on a busy machine, a TLS link to Redis
    took longer, and a relay used at once refused a join (``unavailable``) or answered 503.
    No deadline of its own: pytest-timeout (pyproject) stops a hang."""
    backplane = relay.backplane
    assert backplane is not None
    while backplane.unavailable is not None:
        await asyncio.sleep(0.05)


def spawn_shared(url: str, *flags: str, env: dict[str, str] | None = None) -> RelayProcess:
    """A real relay process on a free port, its rooms in the Redis database at ``url``."""
    return spawn_relay("--backplane", url, "--backplane-lease", "1", *FAST_PLAY, *flags, env=env)


@contextmanager
def stopped(relay: RelayProcess) -> Iterator[None]:
    """The relay process stalls (SIGSTOP) until the block ends (SIGCONT): a long pause of
    its host or its garbage collector, as Redis and its members see it."""
    relay.process.send_signal(signal.SIGSTOP)
    try:
        yield
    finally:
        relay.process.send_signal(signal.SIGCONT)


@pytest.fixture
def relays() -> Iterator[Callable[..., RelayProcess]]:
    """Start relay processes with :func:`spawn_shared`; each is killed at the end."""
    spawned: list[RelayProcess] = []

    def spawn(url: str, *flags: str, env: dict[str, str] | None = None) -> RelayProcess:
        spawned.append(spawn_shared(url, *flags, env=env))
        return spawned[-1]

    yield spawn
    for relay in spawned:
        relay.process.send_signal(signal.SIGCONT)  # a test that failed while it was stopped
        relay.process.kill()
        relay.process.communicate()


async def back(member: RoomConnection) -> RoomConnection:
    """``member`` reconnected and resumed, as his app does: again while the relay answers
    that it cannot serve rooms yet (it is reaching Redis again)."""
    async with asyncio.timeout(10):
        while True:
            try:
                return await member.reconnect()
            except RelayError as refused:
                if refused.code != ErrorCode.UNAVAILABLE:
                    raise
            await asyncio.sleep(0.05)


async def until_lapsed(url: str, room_id: str, process: str) -> None:
    """Wait until ``process``'s lease on the room has lapsed, on Redis's clock."""
    leases = room_keys(room_id)[3]
    async with redis.asyncio.Redis.from_url(url) as direct, asyncio.timeout(10):
        while True:
            until = await direct.zscore(leases, process)
            seconds, micros = await direct.time()
            if until is None or until < seconds * 1000 + micros // 1000:
                return
            await asyncio.sleep(0.02)


DEPLOYED = Path(__file__).resolve().parents[2] / "deploy" / "nginx-tablier-relays.conf"


@dataclass
class Nginx:
    """A real nginx on a free loopback port running deploy/nginx-tablier-relays.conf, with
    the test's relay ports for its upstreams and plain HTTP instead of its certificate."""

    directory: Path
    upstreams: list[int]
    port: int = 0
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def start(self) -> None:
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        assert Path(binary).exists(), "nginx is not installed (.ci/run installs Debian's package)"
        self.port = free_port()
        site = self.directory / "relays.conf"
        site.write_text(self._site(DEPLOYED.read_text()))
        conf = self.directory / "nginx.conf"
        temp = " ".join(
            f"{kind}_temp_path {self.directory / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        conf.write_text(
            f"worker_processes 1; pid {self.directory}/nginx.pid;\n"
            f"error_log {self.directory}/error.log warn;\n"
            "events { worker_connections 256; }\n"
            f"http {{ access_log off; {temp} include {site}; }}\n"
        )
        self.process = subprocess.Popen(
            [binary, "-p", str(self.directory), "-c", str(conf), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not _listening(self.port):
            if self.process.poll() is not None:
                raise AssertionError((self.directory / "error.log").read_text())
            assert time.monotonic() < deadline, "nginx did not listen in 10 s"
            time.sleep(0.02)

    def _site(self, deployed: str) -> str:
        upstreams = iter(self.upstreams)
        lines = []
        for line in deployed.splitlines():
            stripped = line.strip()
            if stripped.startswith("server 127.0.0.1:"):
                line = re.sub(r"127\.0\.0\.1:\d+", f"127.0.0.1:{next(upstreams)}", line)
            elif stripped == "listen 443 ssl;":
                line = f"    listen 127.0.0.1:{self.port};"
            elif stripped.startswith(("listen [::]", "ssl_certificate")):
                continue
            lines.append(line)
        assert next(upstreams, None) is None, "the deployed example balances fewer relays"
        return "\n".join(lines)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


@pytest.fixture
def nginx_for(tmp_path: Path) -> Iterator[Callable[[list[int]], Nginx]]:
    started: list[Nginx] = []

    def start(ports: list[int]) -> Nginx:
        balancer = Nginx(tmp_path / f"nginx{len(started)}", ports)
        balancer.directory.mkdir()
        balancer.start()
        started.append(balancer)
        return balancer

    yield start
    for balancer in started:
        balancer.stop()
