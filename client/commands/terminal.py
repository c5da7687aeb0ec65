"""What every command that opens the full-screen app checks first: that it has a terminal.

Textual reads keys from standard input and draws on standard error; without a terminal on
both (``</dev/null``, a pipe, a cron job) it would wait for ever, writing escape codes. Such
a command is refused at once, before anything is written; standard output may be
redirected (``tablier host --invite-file -`` writes the invites there).
"""

from __future__ import annotations

import os
import sys

from client.i18n import N_, _

FOR_SCRIPTS = N_("for scripts use `tablier selfplay` or `tablier engine`")
FOR_LOGS = N_("for scripts use `tablier verify` or `tablier log export`")
EXIT_NO_TERMINAL = 2


def without_terminal(command: str, instead: str = FOR_SCRIPTS) -> int | None:
    """Exit status 2, after one line on standard error, when there is no terminal to draw
    on; None when there is one."""
    if all(os.isatty(descriptor) for descriptor in (0, 2)):
        return None
    name = f"tablier {command}" if command else "tablier"
    print(_("{command} needs an interactive terminal; {instead}").format(
        command=name, instead=_(instead)), file=sys.stderr)  # fmt: skip
    return EXIT_NO_TERMINAL
