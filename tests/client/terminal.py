"""The real ``tablier`` command in a pseudo-terminal of 80x24, as a person runs it.

:func:`run_in_terminal` starts it with the terminal as standard input and standard error (what
Textual reads keys from and draws on), optionally presses keys once some text is on the
screen, and returns its exit status and everything it wrote, escape codes removed.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TABLIER = (sys.executable, "-m", "client.cli")
ANSI = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][A-Z0-9]|.)")
CTRL_Q = b"\x11"


@dataclass(frozen=True, slots=True)
class Finished:
    code: int | None  # None: still running at the deadline (then killed)
    output: str  # what it wrote on the terminal, without escape codes

    @property
    def words(self) -> str:
        """The output with every run of spaces and line breaks made one space."""
        return " ".join(self.output.split())


def environment(home: Path, **extra: str) -> dict[str, str]:
    """A person's environment with a home (and data folder) of its own, outside tmux."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("TMUX")}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), TERM="xterm-256color",
               COLUMNS="80", LINES="24", **extra)  # fmt: skip
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return env


def run_in_terminal(
    args: Sequence[str],
    *,
    env: Mapping[str, str],
    keys: Sequence[tuple[str, bytes]] = (),
    stdout: int | None = None,
    timeout: float = 60.0,
) -> Finished:
    """Run ``tablier *args*`` in an 80x24 terminal until it exits (or *timeout*); each
    ``(text, key)`` of *keys* is typed once *text* has appeared, in order. *stdout*: a file
    descriptor to give it as standard output instead of the terminal."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    process = subprocess.Popen(
        [*TABLIER, *args], stdin=terminal, stdout=terminal if stdout is None else stdout,
        stderr=terminal, env=dict(env), cwd=ROOT, start_new_session=True,
    )  # fmt: skip
    os.close(terminal)
    raw = b""
    pending = list(keys)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([controller], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(controller, 65536)
                except OSError:  # the process closed the terminal: it has ended
                    chunk = b""
                if not chunk and process.poll() is not None:
                    break
                raw += chunk
            elif process.poll() is not None:
                break
            if pending and pending[0][0] in _plain(raw):
                os.write(controller, pending.pop(0)[1])
        code = process.poll()
        if code is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        return Finished(code, _plain(raw))
    finally:
        os.close(controller)


def _plain(raw: bytes) -> str:
    return ANSI.sub("", raw.decode("utf-8", "replace"))
