"""Files a command is told to write (``--log``, ``--out``, ``--invite-file``): checked first.

Tablier creates folders only inside its own data folder (``~/.local/share/tablier``); a file
named anywhere else must go into a folder that exists, so a typo in a path is told in a
sentence rather than turned into a tree of new folders.
"""

from __future__ import annotations

import os
from pathlib import Path

from client.i18n import _, os_reason_of, path_shown
from client.setup import SetupError


def check_new_file(path: Path, option: str) -> None:
    """Raise :class:`SetupError` unless a file can be created at *path* (given as *option*).

    >>> try:
    ...     check_new_file(Path("/nope/x.tablier"), "--out")
    ... except SetupError as error:
    ...     print(error)
    --out /nope/x.tablier: there is no folder /nope; create it first, or choose another place
    >>> try:
    ...     check_new_file(Path("/tmp/" + "x" * 300), "--log")
    ... except SetupError as error:
    ...     print(str(error)[-25:])
    xxx: its name is too long
    """
    try:
        _check_new_file(path, option)
    except OSError as error:  # a name too long, a link looping: Path.is_dir() raises those
        named = f"{option} {path_shown(path)}"
        reason = os_reason_of(error)
        raise SetupError(_("{path}: {reason}").format(path=named, reason=reason)) from None


def _check_new_file(path: Path, option: str) -> None:
    if path.is_dir():
        raise SetupError(_("{option} {path} is a folder: give the name of the file to write")
                         .format(option=option, path=path_shown(path)))  # fmt: skip
    folder = path.absolute().parent
    if not folder.is_dir():
        raise SetupError(_("{option} {path}: there is no folder {folder}; create it first, or "
                           "choose another place").format(option=option, path=path_shown(path),
                                                          folder=path_shown(folder)))  # fmt: skip
    if not os.access(folder, os.W_OK | os.X_OK):
        raise SetupError(_("{option} {path}: cannot write in {folder}; choose another place")
                         .format(option=option, path=path_shown(path),
                                 folder=path_shown(folder)))  # fmt: skip
