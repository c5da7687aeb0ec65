"""``tablier replay LOG``: step through a recorded match on the game's own board."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from client.commands.log_gate import LogGate, reads_logs
from client.i18n import _


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "replay",
        help=_("replay a recorded match, step by step"),
        description=_(
            "Replay a match log on the game's board: step forward and back, jump to the "
            "start, the end or a turn, or let it play on its own. The log is verified first: "
            "a log that fails verification is refused with the reason; a truncated one is "
            "replayed up to its last good record, with a warning. Exits 1 for a log that fails "
            "verification, 2 for a file that is not a match log."
        ),
    )
    parser.add_argument("log", type=Path, metavar=_("LOG"), help=_("the match log (.tablier file)"))
    parser.set_defaults(run=run)


@reads_logs("replay")
def run(args: argparse.Namespace, gate: LogGate) -> int:
    from client.app import ReplayApp
    from client.commands.terminal import FOR_LOGS, without_terminal
    from client.game.replay import replay_contents

    # A bad record, or options the screens cannot set up: the gate says it, in one line.
    app = ReplayApp(replay_contents(gate.read(args.log)))
    refused = without_terminal("replay", FOR_LOGS)
    if refused is not None:
        return refused
    app.run()
    return app.return_code or 0
