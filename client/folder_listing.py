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
from dataclasses import dataclass
from pathlib import Path


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
