"""Relay processes sharing their rooms through a real redis-server, and a real nginx in
front of them where a load balancer is needed. One redis-server serves a whole test module;
each test takes a database of its own from it."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from relay.server import RelayServer
from tests.network.conftest import settings  # noqa: F401  (the players' settings)
from tests.relay.conftest import (  # noqa: F401  (fixtures)
    FAST,
    RedisServer,
    RelayProcess,
    free_port,
    redis_server,
    spawn_relay,
)

# Computer seats play far faster than people: the network tests' rate limit.
FAST_PLAY = ("--rate", "2000", "--burst", "2000", "--shutdown-timeout", "1")


@pytest.fixture
def backplane(redis_server: RedisServer) -> str:  # noqa: F811
    """A database of its own on the module's redis-server."""
    return redis_server.fresh_url()


@asynccontextmanager
async def shared_relays(
    url: str, count: int, **overrides: object
) -> AsyncIterator[list[RelayServer]]:
    """``count`` in-process relays (each its own RelayServer, as in its own process) sharing
    the rooms of the Redis database at ``url``."""
    config = replace(FAST, backplane=url, backplane_lease=1.0, **overrides)  # type: ignore[arg-type]
    relays = [RelayServer(config) for _ in range(count)]
    try:
        for relay in relays:
            await relay.start()
        yield relays
    finally:
        for relay in relays:
            await relay.close()


def spawn_shared(url: str, *flags: str) -> RelayProcess:
    """A real relay process on a free port, its rooms in the Redis database at ``url``."""
    return spawn_relay("--backplane", url, "--backplane-lease", "1", *FAST_PLAY, *flags)


@dataclass
class Nginx:
    """A real nginx on a free loopback port balancing websockets over relay processes, as
    deploy/nginx-tablier-relays.conf does (a relay that refuses connections is skipped)."""

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
        servers = "\n".join(
            f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=2s;"
            for port in self.upstreams
        )
        conf = self.directory / "nginx.conf"
        conf.write_text(
            f"""
worker_processes 1;
pid {self.directory}/nginx.pid;
error_log {self.directory}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {self.directory}/body;
    proxy_temp_path {self.directory}/proxy;
    fastcgi_temp_path {self.directory}/fastcgi;
    uwsgi_temp_path {self.directory}/uwsgi;
    scgi_temp_path {self.directory}/scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    upstream relays {{
{servers}
    }}
    server {{
        listen 127.0.0.1:{self.port};
        location / {{
            proxy_pass http://relays;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_next_upstream error timeout;
            proxy_connect_timeout 1s;
            proxy_read_timeout 1h;
            proxy_buffering off;
        }}
    }}
}}
"""
        )
        self.process = subprocess.Popen(
            [binary, "-p", str(self.directory), "-c", str(conf), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not (self.directory / "nginx.pid").exists() or not _listening(self.port):
            assert self.process.poll() is None, (self.directory / "error.log").read_text()
            assert time.monotonic() < deadline, "nginx did not listen in 10 s"
            time.sleep(0.02)

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
