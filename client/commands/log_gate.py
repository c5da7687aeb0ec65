"""The one door of every command that reads a match log (``verify``, ``analyze``, ``log
export``, ``replay``).

A log is a file anyone could have written: a validly signed one can still hold values
beyond the protocol's bounds (an ante of 2^63: its header is refused), or a record this
program fails on for a reason nobody foresaw (a bug). So a command does
not catch what its log may raise; its body is wrapped in :func:`reads_logs`, and reads its
logs with :meth:`LogGate.read` (:func:`protocol.logfile.read_log`: the header parsed once
into a checked :class:`~protocol.setup.MatchSetup`, nothing raised but a
:class:`~protocol.errors.LogError`). Every replay of a log
(:func:`protocol.verify.replay`) marks the record it stands on (``contents.place``), so
whatever escapes the body — the protocol's own errors, or anything else, whatever its
type — is said here in one line naming the file and the record, with the house's exit
status for a log (docs/log-format.md):

- :data:`EXIT_NOT_A_LOG` (2): the file is not a Tablier match log, or cannot be read;
- :data:`EXIT_INVALID` (1): its header or a record is bad, or holds what this program
  cannot handle ("record 3 (byte 961): a value this program cannot handle (…)").

Never a traceback. A command's own verdicts (``verify``'s report, ``analyze``'s warning)
stay the command's; only what it did not expect ends here.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final

from client.i18n import _, os_reason_of, path_shown, printable, say_error

if TYPE_CHECKING:
    import argparse

    from protocol.errors import LogError
    from protocol.logfile import LogContents

EXIT_INVALID: Final = 1
"""A log whose header or a record is bad, or cannot be handled (``tablier verify``'s 1)."""
EXIT_NOT_A_LOG: Final = 2
"""A file that is not a Tablier match log at all, or cannot be read."""


class LogGate:
    """The logs one run of *command* reads, and where it stands in the last one."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.path: str | None = None
        self.contents: LogContents | None = None

    def read(self, path: str | Path) -> LogContents:
        """The log at *path*, read once (:func:`protocol.logfile.read_log`)."""
        from protocol.logfile import read_log

        self.path, self.contents = str(path), None
        self.contents = read_log(Path(path))
        return self.contents

    def damage(self, error: Exception) -> LogError:
        """*error*, raised while the log being read was handled, as the one error said of it:
        about the record its replay stood on, or its header."""
        from protocol.errors import CorruptLog
        from protocol.logfile import unhandled

        if self.contents is not None:
            return self.contents.damaged(error)
        if isinstance(error, CorruptLog):
            return error
        return CorruptLog(unhandled(error), record=None, offset=0)

    def say(self, text: str) -> None:
        """One line on standard error, after the command's name: printable, since the
        protocol's sentences quote the file's name and the log's words as they are."""
        print(_("tablier {command}: {error}").format(command=self.command, error=printable(text)),
              file=sys.stderr)  # fmt: skip

    def refuse(self, error: Exception) -> int:
        """Say *error* in one line naming the log (and its record); the exit status."""
        from protocol.errors import NotALog

        if isinstance(error, NotALog):  # its sentence names the file already
            self.say(say_error(error))
            return EXIT_NOT_A_LOG
        if isinstance(error, OSError):  # not the log's: the output's (a closed pipe, a disk)
            self.say(os_reason_of(error))
            return EXIT_INVALID
        damage = self.damage(error)
        if self.path is None:
            self.say(say_error(damage))
        else:
            print(_("tablier {command}: {log}: {error}").format(command=self.command,
                                                                log=path_shown(self.path),
                                                                error=printable(say_error(damage))),
                  file=sys.stderr)  # fmt: skip
        return EXIT_INVALID


Body = Callable[["argparse.Namespace", LogGate], int]


def reads_logs(command: str) -> Callable[[Body], Callable[[argparse.Namespace], int]]:
    """The ``run`` of *command*, whose *body* reads logs through the :class:`LogGate` it is
    given: anything the body raises (not an interrupt) ends as one line and an exit status."""

    def wrap(body: Body) -> Callable[[argparse.Namespace], int]:
        @functools.wraps(body)
        def run(args: argparse.Namespace) -> int:
            gate = LogGate(command)
            try:
                return body(args, gate)
            except BrokenPipeError:  # e.g. piped into head: what was read was printed
                return 0
            except Exception as error:  # whatever its type: see the module's docstring
                return gate.refuse(error)

        return run

    return wrap
