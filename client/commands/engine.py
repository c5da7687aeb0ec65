"""``tablier engine``: the scriptable rules engines (a stable contract for other programs)."""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from client.commands.argparse_words import reflow
from client.i18n import N_, _

GAME_MODULES = ("client.commands.engine_goose", "client.commands.engine_jacquet")

EPILOG = N_("""\
commands:
  tablier engine goose play        one game from given throws: every turn as JSON
  tablier engine goose simulate    many seeded random games: a JSON summary
  tablier engine jacquet moves     every legal play of a throw in a position
  tablier engine jacquet bot       the computer player's play, levels 1 to 4

`tablier engine GAME COMMAND --help` shows each one's input and output. The rules the
engines follow, point by point: docs/rules.md.
""")


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "engine",
        help=_("query the rules engines from scripts (JSON in, JSON out)"),
        description=_(
            "Drive the deterministic rules engines from scripts. Every command prints JSON; "
            "with --batch it reads one JSON request per line on standard input. Invalid input "
            "exits with status 2 and a one-line error."
        ),
        epilog=_(EPILOG),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    reflow(parser)
    games = parser.add_subparsers(title=_("games"), metavar=_("GAME"), required=True)
    for name in GAME_MODULES:
        importlib.import_module(name).register(games)
