"""``tablier replay LOG``: step through a recorded match on the game's own board."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "replay",
        help="replay a recorded match, step by step",
        description=(
            "Replay a match log on the game's board: step forward and back, jump to the "
            "start, the end or a turn, or let it play on its own. The log is verified first: "
            "a log that fails verification is refused with the reason; a truncated one is "
            "replayed up to its last good record, with a warning."
        ),
    )
    parser.add_argument("log", type=Path, metavar="LOG", help="the match log (.tablier file)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from client.screens.replay_log import ReplayRefused, load_replay

    try:
        replay = load_replay(args.log)
    except ReplayRefused as refusal:
        print(f"tablier replay: {refusal}", file=sys.stderr)
        return 1
    from client.screens.replay_app import ReplayApp

    ReplayApp(replay).run()
    return 0
