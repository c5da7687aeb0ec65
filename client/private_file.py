"""Files Tablier writes (seat files, analyses, invites, the language chosen): written whole
or not at all, surviving a power cut once written, and never through a link planted beside
them.

A file is written next to paths a user gave (``analyze LOG --out``, a log that arrived in an
archive with its neighbours), so the folder may hold anything: the temporary is created
under a name nobody can guess, refusing to open anything already there (``O_EXCL``, which
follows no link), then renamed over the destination — a rename replaces the name itself,
never what a link points to. A destination that is a link, a folder or a device is refused
in a sentence rather than replaced.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import Final

from client.i18n import _, path_shown

PRIVATE: Final = 0o600  # seat files, invites: a secret that takes a seat
SHARED: Final = 0o644  # an analysis: the user's to share


class RefusedDestination(OSError):
    """The path to write is a link, a folder, a device…: not replaced (an :class:`OSError`,
    as a write the system refuses, so callers tell both the same way)."""


def write_whole(path: Path, data: bytes, *, mode: int = SHARED, make_folder: bool = False) -> None:
    """Write *data* to *path* whole or not at all, with *mode*; raise
    :class:`RefusedDestination` if *path* exists and is not a regular file.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> (folder / "victim").write_text("mine")
    4
    >>> (folder / "out.txt").symlink_to(folder / "victim")
    >>> try:
    ...     write_whole(folder / "out.txt", b"evil")
    ... except RefusedDestination as refusal:
    ...     print(refusal.strerror)
    it is a link, a folder or a device, not a file: remove it or choose another name
    >>> (folder / "victim").read_text()
    'mine'
    """
    if make_folder:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    refuse_unless_regular(path)
    # mkstemp opens with O_CREAT | O_EXCL | O_NOFOLLOW under a random name, mode 0600.
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part",
                                             dir=path.parent)  # fmt: skip
    try:
        os.fchmod(descriptor, mode)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)  # a link put there meanwhile is replaced, not followed
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)  # the rename itself survives a power cut
    finally:
        os.close(directory)


def write_private(path: Path, data: bytes) -> None:
    """Write *data* to *path* as :func:`write_whole` does, mode 0600, in a folder of mode
    0700 created if needed."""
    write_whole(path, data, mode=PRIVATE, make_folder=True)


def refuse_unless_regular(path: Path) -> None:
    """Raise :class:`RefusedDestination` if *path* exists and is not a regular file: what
    :func:`write_whole` refuses, said before a long computation rather than after it (and
    checked again on writing: the folder may change meanwhile)."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(found.st_mode):
        raise RefusedDestination(
            0,
            _("it is a link, a folder or a device, not a file: remove it or choose another name"),
            path_shown(path),
        )
