"""Tablier's own data folders listed for the lobby (match logs, seat files): whatever the
folder holds, a list.

Anything may be in those folders — a link whose target is too long to follow, an entry this
user may not read, a file whose time lies past the year 9999 — and a listing runs at every
start: an entry that cannot be looked at is left out, never an error that ends the app (its
time, shown later by :func:`client.i18n.format_moment`, may be unknown too).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar


@dataclass(frozen=True, slots=True)
class Listed:
    """A regular file of a data folder, with its time (seconds since the epoch, whatever
    the file system holds: it may be out of any calendar's reach)."""

    path: Path
    mtime: float


def files_in(folder: Path, *, suffix: str = "", but: str | None = None) -> list[Listed]:
    """The regular files (links followed) in *folder* whose name ends with *suffix* and
    not with *but*, the newest first; none if the folder cannot be read.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> (folder / "long.tablier").symlink_to("x" * 300)  # ENAMETOOLONG once followed
    >>> (folder / "a.tablier").write_text("")
    0
    >>> [listed.path.name for listed in files_in(folder, suffix=".tablier")]
    ['a.tablier']
    >>> files_in(folder / "nowhere")
    []
    """
    try:
        with os.scandir(folder) as entries:
            names = [entry.name for entry in entries]
    except OSError:  # no folder, not a folder, not readable…
        return []
    found: list[Listed] = []
    for name in names:
        if not name.endswith(suffix) or (but is not None and name.endswith(but)):
            continue
        path = folder / name
        try:
            status = os.stat(path)
        except (OSError, ValueError):  # ENAMETOOLONG, EACCES, ELOOP, removed since…
            continue
        if stat.S_ISREG(status.st_mode):
            found.append(Listed(path, status.st_mtime))
    found.sort(key=lambda listed: listed.mtime, reverse=True)
    return found


Stamp = tuple[int, int]
"""A file's size and modification time in nanoseconds: changed by any write to it."""


def stamp_of(path: Path) -> Stamp | None:
    """*path*'s :data:`Stamp`, or None when it cannot be looked at (gone, unreadable…)."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return None
    return status.st_size, status.st_mtime_ns


T = TypeVar("T")


def log_state(path: Path) -> tuple[Stamp | None, bool | None]:
    """What of a log tells a list that it changed: its :data:`Stamp`, and whether a
    program writes it now (its writer's lock: released when that program ends, even
    killed, with no change to the file); None when it cannot be looked at (no regular
    file, a link, unreadable): the entry's description says why."""
    from protocol.logfile import log_in_use

    try:
        in_use: bool | None = log_in_use(path)
    except (OSError, ValueError):  # NotALog is a ValueError: a list never stops on a file
        in_use = None
    return stamp_of(path), in_use


@dataclass(frozen=True, slots=True)
class _Known(Generic[T]):
    """What a seat file was described as, and what that description was read from."""

    seat: Stamp | None
    log: Path | None
    log_state: object
    value: T | None


class SeatFiles(Generic[T]):
    """The seat files of a folder, each described once, and again only when it or the log
    it names changed — in size, in time, or in whether a program writes it now (a game
    left, finished or killed in another terminal): a list shown on screen can be read
    again every few seconds, reading no log that is as it was.

    *describe* gives an entry's value (None: not listed) and the log it read, if any;
    *log_of* the log a seat file names (a small file: read again when it is new or changed),
    whose :func:`log_state` is read before the entry is described, so that a change while
    it is read is seen at the next scan.
    """

    def __init__(
        self,
        describe: Callable[[Listed], tuple[T | None, Path | None]],
        log_of: Callable[[Path], Path | None],
    ) -> None:
        self._describe = describe
        self._log_of = log_of
        self._log_state = log_state
        self._known: dict[Path, _Known[T]] = {}
        self.described = 0  # entries described (their logs read) so far, for the tests

    def scan(self, listed: list[Listed]) -> list[T]:
        """The values of *listed*, in its order, read again only where something changed.
        (Called by one worker at a time; a cancelled one still running may describe an
        entry twice, never wrongly: each entry is replaced whole.)"""
        found: list[T] = []
        known: dict[Path, _Known[T]] = {}
        for entry in listed:
            seat = stamp_of(entry.path)
            before = self._known.get(entry.path)
            if (
                before is not None and seat is not None and before.seat == seat
                and (before.log is None or before.log_state == self._log_state(before.log))
            ):  # fmt: skip
                now = before
            else:
                now = self._read(entry, seat, before)
            known[entry.path] = now
            if now.value is not None:
                found.append(now.value)
        self._known = known  # the files gone since are forgotten
        return found

    def _read(self, entry: Listed, seat: Stamp | None, before: _Known[T] | None) -> _Known[T]:
        try:
            log = self._log_of(entry.path)
        except Exception:  # whatever its type: described as it is (saying why) below
            log = None
        state = self._log_state(log) if log is not None else None  # first: see the class
        value, read = self._describe(entry)
        self.described += 1
        if read != log:  # the seat file changed since: read again at the next scan
            seat = None
        return _Known(seat, read, state, value)
