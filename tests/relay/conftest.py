"""Relays for the tests: in-process servers and real ``python -m relay`` processes.

Timeouts are shrunk (grace 0.5 s and so on) so expiry can be observed in a test's lifetime.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
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
    line = process.stderr.readline()
    if not line:
        raise RuntimeError(f"relay did not start: exit {process.wait()}")
    if json_logs:
        return RelayProcess(process, json.loads(line)["url"])
    return RelayProcess(process, line.split(" url=", 1)[1].split()[0])


@pytest.fixture
def relay_process() -> Iterator[RelayProcess]:
    proc = spawn_relay(
        "--seat-grace", "0.5",
        "--handshake-timeout", "0.5",
        "--max-connections-per-ip", "8",
        "--join-failures-per-minute", "5",
        "--rate", "50",
        "--burst", "20",
        "--shutdown-timeout", "2",
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
