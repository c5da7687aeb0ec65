"""Relays for the tests: in-process servers and real ``python -m relay`` processes, in
memory or sharing their rooms through a real ``redis-server`` started here.

Timeouts are shrunk (grace 0.5 s and so on) so expiry can be observed in a test's lifetime.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from relay.client import RoomConnection, create_room
from relay.config import RelayConfig
from relay.server import RelayServer

ROOT = Path(__file__).resolve().parents[2]

FAST = RelayConfig(
    port=0,
    seat_grace=0.5,
    room_idle=5.0,
    handshake_timeout=0.5,
    ping_interval=5.0,
    ping_timeout=5.0,
    shutdown_timeout=2.0,
)


@pytest.fixture
async def relay() -> AsyncIterator[RelayServer]:
    async with RelayServer(FAST) as server:
        yield server


@dataclass
class RelayProcess:
    process: subprocess.Popen[str]
    url: str
    started: list[str] = field(default_factory=list)  # what it logged before its url

    @property
    def name(self) -> str:
        """Its name in a backplane's leases and holders (from its ``backplane_up`` line)."""
        for line in self.started:
            if '"backplane_up"' in line:
                name: str = json.loads(line)["process"]
                return name
        raise AssertionError("this relay logged no backplane_up before its url")

    @property
    def http(self) -> str:
        return "http" + self.url.removeprefix("ws").rstrip("/")

    def log_text(self) -> str:
        """Stop the relay (SIGTERM) and return everything it wrote to stderr."""
        self.process.send_signal(signal.SIGTERM)
        _, err = self.process.communicate(timeout=10)
        return err

    def log_lines(self) -> list[dict[str, object]]:
        """Stop the relay (SIGTERM) and return everything it logged, one dict per line."""
        return [json.loads(line) for line in self.log_text().splitlines() if line.startswith("{")]


def spawn_relay(
    *flags: str,
    env: dict[str, str] | None = None,
    command: tuple[str, ...] = ("relay",),
    json_logs: bool = True,
) -> RelayProcess:
    """A real relay process on a free port, logging to stderr (JSON lines, or plain text)."""
    process = subprocess.Popen(
        [sys.executable, "-m", *command, "--port", "0", *(["--log-json"] * json_logs), *flags],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env={**os.environ, **(env or {})},
    )
    assert process.stderr is not None
    started = []
    while " url=" not in (line := process.stderr.readline()) and '"url"' not in line:
        if not line:  # ("backplane_up" may come first)
            raise RuntimeError(f"relay did not start: exit {process.wait()}")
        started.append(line)
    if json_logs:
        return RelayProcess(process, json.loads(line)["url"], started)
    return RelayProcess(process, line.split(" url=", 1)[1].split()[0], started)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class RedisServer:
    """A real ``redis-server`` on a loopback port, its data in a folder of the test's, with
    ``appendonly yes`` (as deploy/ runs it). Each :meth:`fresh_url` is a database of its own,
    so that tests sharing one server share nothing else."""

    directory: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    _databases: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is not installed (.ci/run installs Debian's package)"
        self.process = subprocess.Popen(
            [binary, *self.options()],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not self.answers():
            assert self.process.poll() is None, "redis-server exited at start"
            assert time.monotonic() < deadline, "redis-server did not answer in 10 s"
            time.sleep(0.02)

    def options(self) -> list[str]:
        return [
            "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory),
            "--appendonly", "yes", "--save", "", "--databases", "4096", "--daemonize", "no",
        ]  # fmt: skip

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe:
                probe.sendall(b"PING\r\n")
                return probe.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self, *, kill: bool = False) -> None:
        if self.process is not None and self.process.poll() is None:
            (self.process.kill if kill else self.process.terminate)()
            self.process.wait(10)
        self.process = None

    def fresh_url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/{next(self._databases)}"


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One redis-server for a whole test module."""
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(params=["memory", "redis"])
def relay_process(request: pytest.FixtureRequest) -> Iterator[RelayProcess]:
    """A relay process with tight limits, holding its rooms in memory or in Redis."""
    backplane: tuple[str, ...] = ()
    if request.param == "redis":
        backplane = ("--backplane", request.getfixturevalue("redis_server").fresh_url())
    proc = spawn_relay(
        "--seat-grace", "0.5",
        # Long enough for an honest upgrade on a machine loaded five times over (0.5 s was
        # not: a join then found its connection closed before the relay's HTTP answer).
        "--handshake-timeout", "2",
        "--max-connections-per-ip", "8",
        "--join-failures-per-minute", "5",
        "--rate", "50",
        "--burst", "20",
        "--shutdown-timeout", "2",
        *backplane,
    )  # fmt: skip
    yield proc
    if proc.process.poll() is None:
        proc.process.kill()
        proc.process.wait()


async def two_players(url: str) -> tuple[RoomConnection, RoomConnection, str]:
    """A room with Ada in seat 0 and Bob in seat 1, their joins already read by both."""
    room = await create_room(url, seats=2)
    ada = await RoomConnection.join(url, room.room_id, room.player_token, "Ada")
    await ada.receive()
    bob = await RoomConnection.join(url, room.room_id, room.player_token, "Bob")
    await ada.receive()
    await bob.receive()
    return ada, bob, room.spectator_token


@pytest.fixture
async def game(relay_process: RelayProcess) -> AsyncIterator[tuple[RoomConnection, ...]]:
    """Two players of another room, seated before the attack starts."""
    ada, bob, _ = await two_players(relay_process.url)
    yield ada, bob
    await ada.close()
    await bob.close()
