"""A match log whose fsyncs wait a few milliseconds, so a play goes out before the disk.

Each record is written and flushed to the file the moment the session accepts it (a crash of
this program loses nothing), but the ``fsync`` that makes it survive a power cut is deferred
by ``delay`` seconds on the event loop, and one fsync then covers every record written
meanwhile. Networked, this takes a disk flush (several milliseconds on a busy machine) off
the path between a key press and the other players' screens. Same file format as
:class:`protocol.logfile.LogWriter` (the same header and record encoders).

:class:`MatchLogs` are a room's logs, one per match: the networked match's file writes.
Beside each log, its seat's *sent file* (``<log>.sent``, same format): every record of this
seat, written before it is sent. The log follows the relay's order, so a record sent but not
back yet is in no log when the app stops; back in its seat, the player's app makes that
share or play again from the sent file, byte for byte, never a second, different one
(:meth:`protocol.session.MatchSession.signed_earlier`).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from client.game.local import free_log_path
from protocol.logfile import LogWriter, default_log_path, read_log
from protocol.setup import MatchSetup

SYNC_DELAY_S = 0.02
SENT_SUFFIX = ".sent"


def sent_path(log: Path) -> Path:
    """The sent file beside the log *log* (see the module's docstring)."""
    return log.with_name(log.name + SENT_SUFFIX)


class DeferredSyncLog(LogWriter):
    """Append-only match log; ``append`` writes at once, fsyncs within ``delay`` seconds."""

    def __init__(
        self,
        path: Path,
        setup: MatchSetup,
        *,
        delay: float = SYNC_DELAY_S,
        resume_at: int | None = None,
    ) -> None:
        self.delay = delay
        self._timer: asyncio.TimerHandle | None = None
        super().__init__(path, setup, resume_at=resume_at)

    def sync(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        super().sync()

    def _written(self) -> None:
        if self._timer is not None:
            return  # one fsync, already due, covers this write too
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a script): make it durable now
            self.sync()
            return
        self._timer = loop.call_later(self.delay, self.sync)


class MatchLogs:
    """A room's match logs, one after another: the first where --log said (*chosen*), else
    in *data_dir*'s default place; each rematch's beside the first."""

    # The first match's log too goes beside a file already at --log (the same command line
    # run again), as ``tablier play`` does: the log opens O_EXCL and a log is never
    # overwritten, and refusing would stop a match the other players already began.

    def __init__(self, chosen: Path | None, data_dir: Path | None) -> None:
        self._chosen = chosen
        self._data_dir = data_dir
        self.path: Path | None = None  # the current match's log
        self.writer: DeferredSyncLog | None = None
        self.sent: DeferredSyncLog | None = None  # its seat's records, each before it is sent
        self.earlier: tuple[bytes, ...] = ()  # taken up again: what the sent file held

    def open(
        self, setup: MatchSetup, *, path: Path | None = None, resume_at: int | None = None
    ) -> DeferredSyncLog:
        """The log of the match *setup* begins (*path*, *resume_at*: a log taken up again);
        the one before it is the caller's to close."""
        if path is None:
            if self._chosen is None:
                path = default_log_path(setup, self._data_dir)
            else:
                path = free_log_path(self._chosen)
        self.path = path
        self.writer = DeferredSyncLog(path, setup, resume_at=resume_at)
        self.sent, self.earlier = _open_sent(sent_path(path), setup, resumed=resume_at is not None)
        return self.writer

    def close(self, *, over: bool) -> None:
        """Close the current match's files; *over*: the match will not be taken up again,
        and its sent file goes (the log keeps everything that was placed)."""
        for writer in (self.writer, self.sent):
            if writer is not None:
                writer.close()
        if over and self.sent is not None:
            self.sent.path.unlink(missing_ok=True)


def _open_sent(
    path: Path, setup: MatchSetup, *, resumed: bool
) -> tuple[DeferredSyncLog, tuple[bytes, ...]]:
    """The sent file at *path*, and, taking the match up again, the records it held (a torn
    last one cut off; a file that is not this match's, unreadable, starts anew)."""
    if resumed:
        try:
            contents = read_log(path)
        except (ValueError, OSError):  # missing, or not a sent file of ours: nothing sent
            contents = None
        if contents is not None and contents.setup == setup:
            return DeferredSyncLog(path, setup, resume_at=contents.end), contents.records
    path.unlink(missing_ok=True)  # a new log's name was free: what was here is no match's
    return DeferredSyncLog(path, setup), ()
