#!/usr/bin/env python3
"""Confirm-to-opponent latency of a networked Jacquet play, through the real app and relay.

Three processes on this machine, as for two friends on one host: a relay (``python -m
relay``, loopback), Ada's app (this process) and Bob's app (a child process), both headless
under Textual's Pilot and drawing their screens as usual. Ada is a person whose moves are
entered on her board; Bob is the computer. For each of Ada's plays the clock (the system's
monotonic clock, shared by the processes) starts just before the key press that confirms it
(enter) and stops when Bob's screen has been repainted showing it (``call_after_refresh``
after his screen took the turn).

Ada thinks ``--think-ms`` (default 100) between her dice landing and her confirming, as a
person's hand does: Textual paints a screen at most 60 times a second, so a play confirmed
within a frame of the throw waits on Bob's screen for the throw's frame to pass (up to
16.7 ms), a wait no person meets. ``--think-ms 0`` measures that case too.

    .venv/bin/python scripts/bench_latency.py            # median over 100 plays
    .venv/bin/python scripts/bench_latency.py --plays 30 --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from client.app import NetworkApp  # noqa: E402
from client.game.turn import Turn  # noqa: E402
from client.net.invite import parse_invite  # noqa: E402
from client.net.plan import HostPlan, JoinPlan  # noqa: E402
from client.screens.jacquet import JacquetScreen  # noqa: E402
from client.screens.room import RoomScreen  # noqa: E402
from client.setup import SessionSettings  # noqa: E402
from engine.awaiting import ChoosePlay, Finished, ThrowDice  # noqa: E402
from protocol.events import PlayMade  # noqa: E402

SIZE = (100, 30)


def start_relay(work: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A relay process on a free loopback port; its first log line says where."""
    log = work / "relay.log"
    with log.open("wb") as sink:
        relay = subprocess.Popen(
            [sys.executable, "-m", "relay", "--port", "0", "--log-json",
             "--rate", "1000", "--burst", "1000"],
            cwd=ROOT, stderr=sink, stdout=subprocess.DEVNULL,
        )  # fmt: skip
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        first = log.read_text().partition("\n")[0]
        if first.startswith("{"):
            return relay, json.loads(first)["url"]
        time.sleep(0.05)
    relay.kill()
    raise SystemExit(f"the relay did not start: {log.read_text()}")


def game_screen(app: NetworkApp) -> JacquetScreen | None:
    return next((s for s in app.screen_stack if isinstance(s, JacquetScreen)), None)


def settings(work: Path, who: str) -> SessionSettings:
    return SessionSettings(animation=False, data_dir=work / who, computer_pause=0.0)


async def bob(invite: str, out: Path, work: Path) -> None:
    """Bob's terminal (its own process): the computer plays; each of Ada's plays is stamped
    once his screen has been repainted showing it."""
    app = NetworkApp(JoinPlan(parse_invite(invite), "Bob", computer=True), settings(work, "bob"))
    async with app.run_test(size=SIZE) as pilot:
        while game_screen(app) is None:
            await pilot.pause(0.01)
        screen = game_screen(app)
        assert screen is not None
        original = screen.show_turn
        with out.open("w") as stamps:

            def stamp() -> None:
                stamps.write(f"{time.monotonic()}\n")
                stamps.flush()

            async def show_turn(turn: Turn) -> None:
                await original(turn)
                if any(isinstance(e, PlayMade) and e.seat == 0 for e in turn.events):
                    screen.call_after_refresh(stamp)

            screen.show_turn = show_turn  # type: ignore[method-assign]
            while not isinstance(screen.game.awaiting, Finished):
                await pilot.pause(0.05)


async def ada(url: str, plays: int, think: float, work: Path) -> list[float]:
    """Ada's terminal (this process): throw, enter each play, time from the confirming key."""
    plan = HostPlan("jacquet", {"match_to": 99, "bearoff": "backgammon"}, 2, "Ada", relay_url=url)
    app = NetworkApp(plan, settings(work, "ada"))
    started: list[float] = []
    stamps = work / "bob.stamps"
    async with app.run_test(size=SIZE) as pilot:
        room_screen = next(s for s in app.screen_stack if isinstance(s, RoomScreen))
        while room_screen.room is None:
            await pilot.pause(0.01)
        guest = subprocess.Popen(
            [sys.executable, __file__, "--bob", room_screen.room.invite.encode(),
             "--work", str(work)],
            cwd=ROOT,
        )  # fmt: skip
        try:
            while game_screen(app) is None:
                await pilot.pause(0.01)
            mine = game_screen(app)
            assert mine is not None
            while len(started) < plays:
                awaiting = mine.game.awaiting
                if isinstance(awaiting, Finished):
                    break
                if mine.check_action("confirm", ()) and mine._entry is None:  # a pass notice
                    await pilot.press("enter")
                elif isinstance(awaiting, ThrowDice) and awaiting.seat == 0 and not mine.acting:
                    await pilot.press("r")
                elif isinstance(awaiting, ChoosePlay) and awaiting.seat == 0 and mine._entry:
                    entry = mine._entry
                    while not entry.complete:  # Ada's moves, as her keys would enter them
                        entry.enter((entry.next_steps()[0],))
                    mine._redraw()
                    await pilot.pause()
                    if think:
                        await pilot.pause(think)
                    started.append(time.monotonic())
                    await pilot.press("enter")  # the key press that confirms the play
                else:
                    await pilot.pause(0.001)
            deadline = time.monotonic() + 30
            while _count(stamps) < len(started) and time.monotonic() < deadline:
                await pilot.pause(0.05)
        finally:
            guest.terminate()
            guest.wait(timeout=10)
    shown = [float(line) for line in stamps.read_text().split()]
    return [(end - begin) * 1000 for begin, end in zip(started, shown, strict=False)]


def _count(path: Path) -> int:
    return len(path.read_text().split()) if path.exists() else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plays", type=int, default=100, help="plays to time (default 100)")
    think = "Ada's pause between her throw and her confirm (default 100)"
    parser.add_argument("--think-ms", type=float, default=100.0, help=think)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--bob", metavar="INVITE", help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bob:
        asyncio.run(bob(args.bob, args.work / "bob.stamps", args.work))
        return 0
    with tempfile.TemporaryDirectory(prefix="tablier-latency-") as folder:
        work = Path(folder)
        relay, url = start_relay(work)
        try:
            latencies = asyncio.run(ada(url, args.plays, args.think_ms / 1000, work))
        finally:
            relay.terminate()
            relay.wait(timeout=10)
    if not latencies:
        print("no play was timed", file=sys.stderr)
        return 1
    ordered = sorted(latencies)
    result = {
        "plays": len(latencies),
        "median_ms": round(statistics.median(latencies), 2),
        "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))], 2),
        "min_ms": round(ordered[0], 2),
        "max_ms": round(ordered[-1], 2),
        "think_ms": args.think_ms,
        "floor_ms": 50,
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"confirm → opponent's screen, Jacquet, {result['plays']} plays: median "
            f"{result['median_ms']} ms, p90 {result['p90_ms']} ms (min {result['min_ms']}, "
            f"max {result['max_ms']}; Ada thinks {args.think_ms:g} ms); floor 50 ms"
        )
    return 0 if result["median_ms"] <= 50 else 1


if __name__ == "__main__":
    sys.exit(main())
