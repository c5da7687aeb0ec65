"""The ``tablier`` command: one entry point, one subcommand per job.

Every subcommand lives in its own module under :mod:`client.commands` and exposes
``register(subparsers)``. Those modules import only :mod:`argparse`-level code at import
time, so ``tablier --help`` stays fast; Textual, websockets and the engines are imported
inside the function that runs the command.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from client import i18n
from client.commands import argparse_words
from client.i18n import N_, _

# Order here is the order ``tablier --help`` lists the commands in.
COMMAND_MODULES: tuple[str, ...] = (
    "client.commands.engine",
    "client.commands.play",
    "client.commands.host",
    "client.commands.join",
    "client.commands.watch",
    "client.commands.relay",
    "client.commands.selfplay",
    "client.commands.verify",
    "client.commands.analyze",
    "client.commands.log",
    "client.commands.replay",
)

LOBBY = "client.commands.play"  # what bare ``tablier`` opens

DESCRIPTION = N_("""\
Tablier: Jeu de l'oie and Jacquet, played from the terminal — locally, against the
computer, or remotely through a small relay, with dice no one can predict or bias and a
match log anyone can verify. With no command, opens the lobby.
""")


def open_lobby(args: argparse.Namespace) -> int:
    """What bare ``tablier`` does."""
    return int(importlib.import_module(LOBBY).run_lobby(args) or 0)


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command, in the language in use (:func:`client.i18n.use`)."""
    from client.commands.scripting import OneLineErrorParser  # (json: not for bare tablier)

    argparse_words.speak()
    # Every command's parser is of this class too (argparse gives subparsers their parent's):
    # a bad argument is one line naming it, as everywhere in Tablier.
    parser = OneLineErrorParser(
        prog="tablier",
        description=_(DESCRIPTION),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    argparse_words.reflow(parser)
    parser.set_defaults(default_run=open_lobby)
    subparsers = parser.add_subparsers(title=_("commands"), metavar=_("COMMAND"))
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    # The language first: the parser's help and errors are built in it.
    saved = i18n.saved_language(i18n.config_dir())  # the lobby's setting, after TABLIER_LANG
    i18n.use(i18n.choose(i18n.lang_option(argv), os.environ, saved))
    if not argv:
        # Nothing to parse: building every command's parser would only delay the lobby.
        return open_lobby(argparse.Namespace())
    parser = build_parser()
    args = parser.parse_args(argv)
    run = getattr(args, "run", None)
    if run is None:
        lobby = getattr(args, "default_run", None)
        if lobby is None:
            parser.print_help()
            return 0
        return int(lobby(args))
    try:
        return int(run(args) or 0)
    except KeyboardInterrupt:  # ctrl+c in a command that runs for a while (analyze, selfplay)
        command = argv[0] if argv and not argv[0].startswith("-") else "tablier"
        print(_("tablier {command}: interrupted").format(command=command), file=sys.stderr)
        return INTERRUPTED


INTERRUPTED = 130
"""The exit status of a command stopped by ctrl+c (128 + SIGINT, as shells report it)."""


if __name__ == "__main__":
    sys.exit(main())
