"""``tablier verify LOG``: replay a match log and check every signature, share, die and play."""

from __future__ import annotations

import argparse
import sys
from typing import Any

EXIT_VALID, EXIT_INVALID, EXIT_NOT_A_LOG = 0, 1, 2


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "verify",
        help="check a match log: signatures, dice, every move",
        description=(
            "Replay a match log with the rules engine and check every signature, dice-chain "
            "link, dice derivation, play and state hash. Exit status: 0 when the log is valid "
            "(a summary is printed), 1 naming the first bad record and why, 2 when the file is "
            "not a Tablier match log at all."
        ),
    )
    parser.add_argument("log", metavar="LOG", help="the match log (.tablier file)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from protocol.errors import LogError, NotALog
    from protocol.verify import verify_log

    try:
        report = verify_log(args.log)
    except NotALog as error:
        print(f"tablier verify: {error}", file=sys.stderr)
        return EXIT_NOT_A_LOG
    except LogError as error:  # a log whose header is damaged or of an unknown version
        print(f"tablier verify: {args.log}: INVALID: {error}", file=sys.stderr)
        return EXIT_INVALID
    print(report.summary())
    if not report.ok:
        print(f"tablier verify: {args.log} is NOT valid", file=sys.stderr)
        return EXIT_INVALID
    print("valid: every signature, dice share, die and move checks out")
    return EXIT_VALID
