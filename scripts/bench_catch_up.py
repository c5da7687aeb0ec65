#!/usr/bin/env python3
"""What a late spectator's catch-up costs: frames, bytes, the time to send and to check it.

Plays a long Jacquet match with ``protocol.selfplay`` (real keys, chains and signed bytes;
``--match-to`` 15 points by default, ~1,500 turns), then, as a room would:

- the sender builds the catch-up (``client.net.spectators.catch_up``): its payloads, their
  bytes, and how long the relay's rate takes to let them through (a client paces itself at
  9/10 of the default 20 frames a second, after a burst of 38);
- a spectator's ``NetMatch``, announced by the relay, takes it: every record checked where it
  stands, then as a live record is (signature, chain, engine, history, time), its log
  written (fsyncs grouped, as on the app's event loop); its CPU and wall time, best of
  ``--repeat`` runs;
- a player who holds the match already takes the same transcripts (every other player
  receives them): the duplicates' cost.

``--json`` prints one object with those figures. CPU time is this process's, so other work on
a shared machine does not skew it; wall-clock time is reported beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from client.net import wire
from client.net.match import NetMatch
from client.net.spectators import catch_up
from protocol.identity import seeded_source
from protocol.selfplay import selfplay
from protocol.session import MatchSession

RATE, BURST = 20 * 0.9, 40 - 2  # the default relay's rate, as a client paces itself
LATER = 10**12  # ms: the spectator's clock, past every record's time


def paced_seconds(frames: int) -> float:
    return max(0.0, (frames - BURST) / RATE)


async def spectator_takes(
    payloads: list[bytes], records: int, data_dir: Path
) -> tuple[float, float]:
    """(CPU, wall) seconds for a late spectator to take the catch-up, from relay seat 0 (on
    an event loop, as in the app: the log's fsyncs are deferred and grouped)."""
    eve = NetMatch("spectator", "Eve", random_source=seeded_source("bench"), data_dir=data_dir)
    eve.welcomed(None, [(0, "Ada", True), (1, "Bob", True)], 0)
    eve.caught_up(0, complete=False, announced=True)
    cpu, wall = time.process_time(), time.perf_counter()
    for data in payloads:
        eve.receive(0, data, LATER)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    assert eve.in_step and not eve.offences and eve.session is not None, eve.offences
    assert len(eve.session.records) == records
    eve.close()
    return cpu, wall


def player_skips(payloads: list[bytes], player: MatchSession) -> float:
    """CPU seconds for a player who holds the match to take the same transcripts."""
    cpu = time.process_time()
    for data in payloads[1:]:
        part = wire.decode(data)
        assert isinstance(part, wire.Transcript)
        player.receive_transcript(part.data, LATER)
    return time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--match-to", type=int, default=15)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    match = selfplay("jacquet", {"match_to": args.match_to}, players=2, seed="bench-catch-up",
                     start_time=0)  # fmt: skip
    ada = match.sessions[0]
    records = list(ada.records)
    build = time.process_time()
    payloads = [wire.encode(p) for p in catch_up(ada.setup.encode(), records)]
    build = time.process_time() - build
    best_cpu = best_wall = float("inf")
    for run in range(args.repeat):
        with tempfile.TemporaryDirectory() as folder:
            taking = spectator_takes(payloads, len(records), Path(folder) / str(run))
            cpu, wall = asyncio.run(taking)
        best_cpu, best_wall = min(best_cpu, cpu), min(best_wall, wall)
    skip = player_skips(payloads, match.sessions[1])
    figures = {
        "records": len(records),
        "turns": ada.turns,
        "frames": len(payloads),
        "bytes": sum(len(p) for p in payloads),
        "build_ms": round(build * 1000, 2),
        "paced_send_s": round(paced_seconds(len(payloads)), 2),
        "spectator_cpu_ms": round(best_cpu * 1000, 1),
        "spectator_wall_ms": round(best_wall * 1000, 1),
        "player_duplicates_cpu_ms": round(skip * 1000, 1),
    }
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"catch-up of a Jacquet match to {args.match_to} ({figures['turns']} turns, "
        f"{figures['records']} records): {figures['frames']} frames, "
        f"{figures['bytes'] / 1024:.0f} KiB, built in {figures['build_ms']} ms, "
        f"through the default rate in {figures['paced_send_s']} s; the spectator checks it in "
        f"{figures['spectator_cpu_ms']} ms CPU ({figures['spectator_wall_ms']} ms wall), "
        f"a player skips it in {figures['player_duplicates_cpu_ms']} ms CPU"
    )


if __name__ == "__main__":
    main()
