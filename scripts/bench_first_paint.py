#!/usr/bin/env python3
"""Time from launching ``tablier`` to the lobby on screen, as a person would see it.

Each run starts the real command in a pseudo-terminal (80x24), reads what it draws, and stops
the clock when the lobby's text has been painted; then it quits with ctrl+q. Prints every run
and the median. Usage: ``scripts/bench_first_paint.py [--runs N] [--tablier PATH]``.
Also times ``tablier --help`` the same way.
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


def first_paint(tablier: str) -> float:
    """Seconds from spawning *tablier* in an 80x24 pty until the lobby text is on screen."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    environment = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}
    started = time.perf_counter()
    process = subprocess.Popen(
        [tablier], stdin=terminal, stdout=terminal, stderr=terminal, env=environment,
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    default = Path(sys.executable).with_name("tablier")
    parser.add_argument("--tablier", default=str(default), help="the tablier executable")
    args = parser.parse_args()
    paints = [first_paint(args.tablier) for _ in range(args.runs)]
    helps = [help_time(args.tablier) for _ in range(args.runs)]
    print("lobby first paint (s):", " ".join(f"{t:.3f}" for t in paints))
    print(f"median lobby first paint: {statistics.median(paints) * 1000:.0f} ms")
    print("tablier --help (s):", " ".join(f"{t:.3f}" for t in helps))
    print(f"median tablier --help: {statistics.median(helps) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
