#!/usr/bin/env python3
"""Time from launching ``tablier`` to the lobby on screen, as a person would see it.

Each run starts the real command in a pseudo-terminal (80x24), reads what it draws, and stops
the clock when the lobby's text has been painted; then it quits with ctrl+q. Prints every run
and the median. Usage: ``scripts/bench_first_paint.py [--runs N] [--tablier PATH]
[--against PATH | --floor]``. Also times ``tablier --help`` the same way.

``--against`` times another checkout's ``tablier`` (its ``.venv/bin/tablier``) in turn with
this one, run for run, and prints the ratio of the medians: on a machine shared with other
work, two series taken one after the other measure the load as much as the code.
``--floor`` times instead, in turn with it, the floor under any lobby: a Textual app of this
interpreter whose screen is one ``Static`` showing the lobby's button text (Textual's import
and its least work for a screen).

An installed Tablier has its bytecode compiled; a checkout run with
``PYTHONDONTWRITEBYTECODE`` set compiles its own modules again at every start, and the
figure then counts the compiler (the script says so).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import select
import statistics
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

ANSI = re.compile(rb"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][A-Z0-9]|.)")
LOBBY_TEXT = b"Play Jeu de l'oie"  # the lobby's start button: painted with the whole lobby
TIMEOUT_SECONDS = 30.0
FLOOR = "floor"  # (--floor: FLOOR_APP instead of a tablier)


FLOOR_APP = f"""
from textual.app import App
from textual.widgets import Static
class Floor(App[None]):
    def compose(self):
        yield Static({LOBBY_TEXT.decode()!r})
Floor().run()
"""


def first_paint(command: str) -> float:
    """Seconds from spawning *command* in an 80x24 pty until the lobby text is on screen."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    environment = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}
    started = time.perf_counter()
    argv = [sys.executable, "-c", FLOOR_APP] if command == FLOOR else [command]
    process = subprocess.Popen(
        argv, stdin=terminal, stdout=terminal, stderr=terminal, env=environment,
        start_new_session=True,
    )  # fmt: skip
    os.close(terminal)
    screen = b""
    try:
        while time.perf_counter() - started < TIMEOUT_SECONDS:
            ready, _, _ = select.select([controller], [], [], 0.05)
            if not ready:
                continue
            screen += ANSI.sub(b"", os.read(controller, 65536))
            if LOBBY_TEXT in screen:
                return time.perf_counter() - started
        raise RuntimeError(f"the lobby did not appear within {TIMEOUT_SECONDS} s")
    finally:
        os.write(controller, b"\x11")  # ctrl+q
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        os.close(controller)


def help_time(tablier: str) -> float:
    started = time.perf_counter()
    subprocess.run([tablier, "--help"], check=True, capture_output=True)
    return time.perf_counter() - started


def report(name: str, paints: list[float], helps: list[float]) -> None:
    print(f"{name}lobby first paint (s):", " ".join(f"{t:.3f}" for t in paints))
    print(f"{name}median lobby first paint: {statistics.median(paints) * 1000:.0f} ms")
    if helps:
        print(f"{name}tablier --help (s):", " ".join(f"{t:.3f}" for t in helps))
        print(f"{name}median tablier --help: {statistics.median(helps) * 1000:.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    default = Path(sys.executable).with_name("tablier")
    parser.add_argument("--tablier", default=str(default), help="the tablier executable")
    other = parser.add_mutually_exclusive_group()
    other.add_argument("--against", help="another tablier executable, timed in turn with it")
    other.add_argument("--floor", action="store_true",
                       help="time a one-Static Textual app in turn with it")  # fmt: skip
    args = parser.parse_args()
    if args.floor:
        args.against = FLOOR
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("note: PYTHONDONTWRITEBYTECODE is set: modules without bytecode are compiled at "
              "every start", file=sys.stderr)  # fmt: skip
    commands = [args.tablier] if args.against is None else [args.tablier, args.against]
    paints: dict[str, list[float]] = {command: [] for command in commands}
    helps: dict[str, list[float]] = {command: [] for command in commands}
    for timings, timer in ((paints, first_paint), (helps, help_time)):
        for run in range(args.runs):
            for command in commands[run % 2 :] + commands[: run % 2]:  # each goes first in turn
                if not (timer is help_time and command == FLOOR):  # (the floor has no --help)
                    timings[command].append(timer(command))
    if args.against is None:
        report("", paints[args.tablier], helps[args.tablier])
        return 0
    for command in commands:
        report(f"{command}: ", paints[command], helps[command])
    ratio = statistics.median(paints[args.tablier]) / statistics.median(paints[args.against])
    print(f"first paint, median of {args.tablier} / median of {args.against}: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
