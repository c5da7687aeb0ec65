"""ctrl+c in a command that runs for a while (issue 29, item 9): one line, a non-zero exit
(130, as shells report a SIGINT), no traceback, and no half-written file left behind."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import time
from pathlib import Path

from tests.client.terminal import ROOT, TABLIER, environment

INTERRUPTED = 130


def as_a_shell_runs_it() -> None:
    """SIGINT at its default in the command, as a shell runs one in the foreground: a suite
    started in the background (``nohup``, ``&`` without job control) ignores SIGINT, and
    its children inherit that — a command that ignores ctrl+c is right to (POSIX), and
    would keep running here."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupted_once(args: list[str], home: Path, *, when: str) -> tuple[int, str]:
    """Run ``tablier *args*`` with standard error on a terminal, send it SIGINT (what ctrl+c
    sends) once *when* appeared there, and return its exit status and what it wrote."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen([*TABLIER, *args], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=terminal,
                               env=environment(home), cwd=ROOT,
                               preexec_fn=as_a_shell_runs_it)  # fmt: skip
    os.close(terminal)
    written, sent = b"", False
    try:  # no deadline of its own: pytest-timeout (pyproject) stops a hang
        while process.poll() is None:
            ready, _, _ = select.select([controller], [], [], 0.05)
            if ready:
                try:
                    written += os.read(controller, 65536)
                except OSError:
                    break
            if not sent and when.encode() in written:
                process.send_signal(signal.SIGINT)
                sent = True
        code = process.wait()
        while select.select([controller], [], [], 0)[0]:
            try:
                chunk = os.read(controller, 65536)
            except OSError:
                break
            if not chunk:
                break
            written += chunk
    finally:
        os.close(controller)
    assert sent, f"{when!r} never appeared: {written!r}"
    return code, written.decode("utf-8", "replace")


def test_ctrl_c_in_selfplay_says_so_and_leaves_no_half_written_log(tmp_path: Path) -> None:
    log = tmp_path / "cut.tablier"
    # Level-4 seats think for a while on each play: the log is being written when it stops.
    args = ["selfplay", "jacquet", "--match-to", "15", "--levels", "4,4", "--seed", "ctrl-c",
            "--out", str(log), "--start-time", "0"]  # fmt: skip
    process = subprocess.Popen([*TABLIER, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=environment(tmp_path), cwd=ROOT,
                               preexec_fn=as_a_shell_runs_it)  # fmt: skip
    while not log.exists() and process.poll() is None:  # (pytest-timeout stops a hang)
        time.sleep(0.01)
    assert log.exists(), "selfplay never began its log"
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate()  # however slow the machine: no budget, a hang guard
    assert process.returncode == INTERRUPTED, err
    assert err.decode() == "tablier selfplay: interrupted; no log was written\n"
    assert not log.exists()


def test_ctrl_c_in_analyze_says_so_in_one_line(tmp_path: Path) -> None:
    log = tmp_path / "long.tablier"
    # One game is analysed for seconds (0.45 s a turn): long enough to be stopped midway,
    # short enough to be made and analysed on a busy machine within pytest-timeout.
    made = subprocess.run([*TABLIER, "selfplay", "jacquet", "--match-to", "1", "--seed", "ctrl-c",
                           "--out", str(log), "--start-time", "0"],
                          capture_output=True, env=environment(tmp_path), cwd=ROOT)  # fmt: skip
    assert made.returncode == 0, made.stderr
    code, written = interrupted_once(["analyze", str(log), "--out", str(tmp_path / "r.txt")],
                                     tmp_path, when="analysing [")  # fmt: skip
    assert code == INTERRUPTED, written
    assert "Traceback" not in written
    assert written.rstrip().endswith("tablier analyze: interrupted")
    assert not (tmp_path / "r.txt").exists()
