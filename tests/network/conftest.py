"""Relays and players for the networked-play tests: real relays on loopback, real rooms.

The relays here allow a far higher message rate than the default (20/s): computer seats with
no pause play a whole match in a second or two, far faster than people.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from client.net.link import Backoff
from client.setup import SessionSettings
from protocol.identity import seeded_source
from relay.config import RelayConfig
from relay.server import RelayServer
from tests.client.conftest import FIXED_TIME_MS

ROOT = Path(__file__).resolve().parents[2]
QUICK = Backoff(first=0.05, most=0.5)
# Computer seats on one address play far faster than people: no per-address byte pace.
RELAY_FLAGS = ("--rate", "2000", "--burst", "2000", "--shutdown-timeout", "1",
               "--max-bytes-per-ip", str(1 << 30))  # fmt: skip


@pytest.fixture
async def relay() -> AsyncIterator[RelayServer]:
    async with RelayServer(
        RelayConfig(port=0, rate=2000, burst=2000, max_bytes_per_ip=1 << 30)
    ) as server:
        yield server


@dataclass
class PlayersClock:
    """Every player's clock (ms since the epoch): fixed, so each run's matches get the same
    ids and so the same dice, until a test moves it on (past a time limit, say)."""

    now: int = FIXED_TIME_MS

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms


@pytest.fixture
def clock() -> PlayersClock:
    return PlayersClock()


@pytest.fixture
def settings(tmp_path: Path, clock: PlayersClock) -> Callable[[str], SessionSettings]:
    """Each player's settings: a seeded random source, the test's clock, logs under the
    test's folder."""

    def make(who: str) -> SessionSettings:
        return SessionSettings(
            animation=False,
            data_dir=tmp_path / who,
            random_source=seeded_source(f"network-{who}"),
            computer_pause=0,
            clock=clock,
        )

    return make


@dataclass
class RelayProcess:
    """``tablier relay`` as its own process; :meth:`restart` keeps the port."""

    process: subprocess.Popen[str]
    url: str
    port: int
    log: str

    @classmethod
    def spawn(cls, port: int = 0, *flags: str) -> RelayProcess:
        """``flags``: more of ``tablier relay``'s options (``--backlog 8``, say)."""
        with tempfile.NamedTemporaryFile("w", prefix="relay-", suffix=".log", delete=False) as log:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "relay",
                    "--port",
                    str(port),
                    "--log-json",
                    *RELAY_FLAGS,
                    *flags,
                ],
                cwd=ROOT,
                stderr=log,
                stdout=subprocess.DEVNULL,
                text=True,
                env=os.environ.copy(),
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            first = Path(log.name).read_text().partition("\n")[0]
            if first.startswith("{") and "url" in first:
                url = json.loads(first)["url"]
                return cls(process, url, int(url.rsplit(":", 1)[1].rstrip("/")), log.name)
            if process.poll() is not None:
                break
            time.sleep(0.05)
        process.kill()
        raise RuntimeError(f"relay did not start: {Path(log.name).read_text()[-500:]}")

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)
        Path(self.log).unlink(missing_ok=True)

    def restart(self) -> RelayProcess:
        self.kill()
        return RelayProcess.spawn(self.port)


@pytest.fixture
def relay_process() -> Iterator[list[RelayProcess]]:
    """A list holding the running relay process (a test that restarts it appends the new one)."""
    running = [RelayProcess.spawn()]
    yield running
    for relay in running:
        if relay.process.poll() is None:
            relay.kill()
