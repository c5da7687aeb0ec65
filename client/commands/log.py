"""``tablier log export``: a match log as JSON lines or as a readable transcript."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "log", help="read match logs (export them as JSON or text)",
        description="Work with match logs.",
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    export = actions.add_parser(
        "export",
        help="print a log as JSON lines or as a readable transcript",
        description=(
            "Print a match log: --format json gives one JSON object per line (the header, "
            "then every record decoded); --format text a transcript: Jacquet in a gnubg-like "
            "layout, Goose one line per throw. Records are replayed and checked on the way; "
            "the export stops at the first bad one (exit 1)."
        ),
    )
    export.add_argument("log", metavar="LOG")
    export.add_argument("--format", choices=("json", "text"), default="text")
    export.set_defaults(run=run_export)


def run_export(args: argparse.Namespace) -> int:
    from protocol.errors import CorruptLog, LogError, NotALog
    from protocol.export import export_json, export_text
    from protocol.logfile import read_log

    try:
        contents = read_log(args.log)
    except LogError as error:
        print(f"tablier log export: {error}", file=sys.stderr)
        return 2 if isinstance(error, NotALog) else 1
    exporter = export_json if args.format == "json" else export_text
    try:
        for line in exporter(contents):
            print(line)
    except CorruptLog as error:
        print(f"tablier log export: {args.log}: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # e.g. piped into head
        return 0
    if contents.problem is not None:
        print(f"tablier log export: {args.log}: {contents.problem}", file=sys.stderr)
        return 1
    return 0
