"""``tablier log export``: a match log as JSON lines or as a readable transcript."""

from __future__ import annotations

import argparse
from typing import Any

from client.commands.log_gate import LogGate, reads_logs
from client.i18n import _, words


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "log",
        help=_("read match logs (export them as JSON or text)"),
        description=_("Work with match logs."),
    )
    actions = parser.add_subparsers(title=_("actions"), metavar=_("ACTION"), required=True)
    export = actions.add_parser(
        "export",
        help=_("print a log as JSON lines or as a readable transcript"),
        description=_(
            "Print a match log: --format json gives one JSON object per line (the header, "
            "then every record decoded); --format text a transcript: Jacquet in a gnubg-like "
            "layout, Goose one line per throw. Records are replayed and checked on the way; "
            "the export stops at the first bad one (exit 1)."
        ),
    )
    export.add_argument("log", metavar=_("LOG"), help=_("the match log (.tablier file)"))
    export.add_argument(
        "--format",
        choices=("json", "text"),
        default="text",
        help=_("json (language-neutral, for programs) or text (for people; default)"),
    )
    export.set_defaults(run=run_export)


@reads_logs("log export")
def run_export(args: argparse.Namespace, gate: LogGate) -> int:
    from protocol.export import export_json, export_text

    contents = gate.read(args.log)
    lines = export_json(contents) if args.format == "json" else export_text(contents, words())
    for line in lines:  # a bad record: what precedes it is printed, then the gate says it
        print(line)
    if contents.problem is not None:
        raise contents.problem
    return 0
