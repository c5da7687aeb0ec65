"""A match log whose fsyncs wait a few milliseconds, so a play goes out before the disk.

Each record is written and flushed to the file the moment the session accepts it (a crash of
this program loses nothing), but the ``fsync`` that makes it survive a power cut is deferred
by ``delay`` seconds on the event loop, and one fsync then covers every record written
meanwhile. Networked, this takes a disk flush (several milliseconds on a busy machine) off
the path between a key press and the other players' screens. Same file format as
:class:`protocol.logfile.LogWriter` (the same header and record encoders).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import BinaryIO

from protocol.errors import LocalProtocolError
from protocol.logfile import encode_header, encode_record
from protocol.setup import MatchSetup

SYNC_DELAY_S = 0.02


class DeferredSyncLog:
    """Append-only match log; ``append`` writes at once, fsyncs within ``delay`` seconds."""

    def __init__(self, path: Path, setup: MatchSetup, *, delay: float = SYNC_DELAY_S) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._file: BinaryIO | None = open(path, "xb")  # noqa: SIM115 - kept open
        except FileExistsError:
            raise LocalProtocolError(f"{path} already exists; a log is never overwritten") from None
        self.path = path
        self.delay = delay
        self._timer: asyncio.TimerHandle | None = None
        self._write(encode_header(setup))
        self.sync()

    def append(self, record: bytes) -> None:
        self._write(encode_record(record))
        if self._timer is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no loop (a script): make it durable now
                self.sync()
                return
            self._timer = loop.call_later(self.delay, self.sync)

    def sync(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._file is not None:
            os.fsync(self._file.fileno())

    def close(self) -> None:
        if self._file is not None:
            self.sync()
            self._file.close()
            self._file = None

    def _write(self, data: bytes) -> None:
        if self._file is None:
            raise LocalProtocolError(f"the log {self.path} is closed")
        self._file.write(data)
        self._file.flush()
