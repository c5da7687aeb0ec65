"""A log's one writer, and the probes that ask whether it has one (protocol.logfile): another
Tablier listing its seats while this one takes its log up never makes the take-up fail, a
second writer is refused, and a probe never waits on whatever is at the log's path. Each
other program here is a real process."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from engine.awaiting import ThrowDice
from protocol.errors import NotALog
from protocol.identity import seeded_source
from protocol.local import LocalMatch
from protocol.logfile import LogContents, LogInUse, LogWriter, log_in_use, read_log

ROOT = Path(__file__).resolve().parents[2]
TAKE_UPS = 400
"""Take-ups of a log while another process probes it: before probes took a shared lock,
about 1 in 25 was refused (measured: 75 of 1,980), so 400 without a refusal is no luck."""

PROBER = """
import sys
from pathlib import Path
from protocol.logfile import log_in_use
path = Path(sys.argv[1])
log_in_use(path)
print("probing", flush=True)
while True:  # until the test kills it: another Tablier listing seats, again and again
    log_in_use(path)
"""

HOLDER = """
import fcntl, sys
from pathlib import Path
from protocol.logfile import LogWriter, read_log
path = Path(sys.argv[1])
if sys.argv[2] == "writer":
    contents = read_log(path)
    writer = LogWriter(path, contents.setup, resume_at=contents.end)
else:  # a program that keeps the log open under a shared lock, and never lets it go
    held = open(path, "rb")
    fcntl.flock(held.fileno(), fcntl.LOCK_SH)
print("holding", flush=True)
sys.stdin.read()  # until the test closes it
"""


def a_log(folder: Path) -> tuple[Path, LogContents]:
    path = folder / "m.tablier"
    match = LocalMatch.create("goose", {}, names=("Ann", "Bob"), now=0, log_path=path,
                              random_source=seeded_source("lock"))  # fmt: skip
    awaiting = match.awaiting
    assert isinstance(awaiting, ThrowDice)
    match.throw(awaiting.seat, now=5)
    match.close()
    return path, read_log(path)


@contextmanager
def process(code: str, *args: str, ready: str) -> Iterator[subprocess.Popen[str]]:
    """Another program running *code*, once it printed *ready*; killed at the end."""
    child = subprocess.Popen([sys.executable, "-c", code, *args], cwd=ROOT, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)  # fmt: skip
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == ready
        yield child
    finally:
        child.kill()
        child.wait()
        for stream in (child.stdin, child.stdout):
            if stream is not None:
                stream.close()


def test_a_probe_in_another_process_never_makes_the_writer_fail(tmp_path: Path) -> None:
    path, contents = a_log(tmp_path)
    refused = 0
    with process(PROBER, str(path), ready="probing"):
        for _ in range(TAKE_UPS):
            try:
                LogWriter(path, contents.setup, resume_at=contents.end).close()
            except LogInUse:
                refused += 1
    assert refused == 0
    assert read_log(path) == contents  # every take-up kept the log as it was


def test_a_second_writer_is_refused_and_the_probe_sees_the_first(tmp_path: Path) -> None:
    path, contents = a_log(tmp_path)
    assert not log_in_use(path)
    with process(HOLDER, str(path), "writer", ready="holding"):
        assert log_in_use(path)
        with pytest.raises(LogInUse, match="is being played in another Tablier"):
            LogWriter(path, contents.setup, resume_at=contents.end)
    assert not log_in_use(path)  # the writer's end let its lock go
    LogWriter(path, contents.setup, resume_at=contents.end).close()


def test_a_program_holding_the_log_for_ever_is_said_to_use_it(tmp_path: Path) -> None:
    """A shared lock never let go is no probe: the writer's tries are bounded
    (MAX_LOCK_TRIES), it says the log is in use rather than wait for ever."""
    path, contents = a_log(tmp_path)
    with process(HOLDER, str(path), "shared", ready="holding"):
        assert not log_in_use(path)  # no writer there
        with pytest.raises(LogInUse):
            LogWriter(path, contents.setup, resume_at=contents.end)


def test_the_probe_never_opens_what_is_no_regular_file(tmp_path: Path) -> None:
    """A FIFO nobody writes (opening it to read would wait for ever), a link, a folder:
    said in read_log's sentence; nothing there: nobody writes it."""
    fifo = tmp_path / "fifo.tablier"
    os.mkfifo(fifo)
    link = tmp_path / "link.tablier"
    path, _contents = a_log(tmp_path)
    link.symlink_to(path)
    for odd in (fifo, link, tmp_path):
        with pytest.raises(NotALog, match=f"^{odd} is not a regular file: not a match log$"):
            log_in_use(odd)
    assert not log_in_use(tmp_path / "none.tablier")
    with open(path, "rb") as held:  # a writer's lock in this very program: in use too
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        assert log_in_use(path)
