"""``tablier verify LOG [OTHER]``: replay a match log and check every signature, share, die and
play; say what it proves about the result; with a second player's log of the same match, say
where the two part and who signed both sides."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from client.commands.log_gate import EXIT_INVALID, LogGate, reads_logs
from client.i18n import _, path_shown, printable, say_error, words

EXIT_VALID, EXIT_UNPROVEN = 0, 3  # 1 and 2: a bad log and no log, as every log command


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "verify",
        help=_("check a match log: signatures, dice, every move; compare two players' logs"),
        description=_(
            "Replay a match log with the rules engine and check every signature, dice-chain "
            "link, dice derivation, play, state hash, history and time, then say what the log "
            "proves about the result. Exit status: 0 when the log is valid and its result "
            "rests on the signatures of those it goes against (played out, or a resignation; "
            "or no result yet), 3 when it is valid but its result is one player's "
            "abandonment claim, which one log cannot prove, 1 naming the first bad record and "
            "why, 2 when a file is not a Tablier match log at all. With a second log of the "
            "same match (another player's copy): each is checked, then the two are compared; "
            "exit 1 when they part, naming the record and who signed both sides."
        ),
    )
    parser.add_argument("log", metavar=_("LOG"), help=_("the match log (.tablier file)"))
    parser.add_argument(
        "other", metavar=_("OTHER"), nargs="?", help=_("another player's log of the same match")
    )
    parser.set_defaults(run=run)


@reads_logs("verify")
def run(args: argparse.Namespace, gate: LogGate) -> int:
    from protocol.errors import CorruptLog
    from protocol.verify import verify_contents

    paths = [args.log] if args.other is None else [args.log, args.other]
    statuses, contents = [], []
    for path in paths:
        try:
            read = gate.read(path)
        except CorruptLog as error:  # a log whose header is damaged or of an unknown version
            print(_("tablier verify: {path}: INVALID: {error}").format(path=path_shown(path),
                                                                        error=printable(say_error(error))),
                  file=sys.stderr)  # fmt: skip
            return EXIT_INVALID
        contents.append(read)
        if len(paths) > 1:
            print(_("{path}:").format(path=path_shown(path)))
        statuses.append(_report(verify_contents(read), path))
    if len(contents) == 1:
        return statuses[0]
    from protocol.compare import compare

    comparison = compare(contents[0], contents[1])
    print(_("{log} against {other}:").format(log=path_shown(paths[0]), other=path_shown(paths[1])))
    print(comparison.summary(words()))
    if not comparison.agree:
        return EXIT_INVALID
    return max(statuses, key=[EXIT_VALID, EXIT_UNPROVEN, EXIT_INVALID].index)


def _report(report: Any, path: str) -> int:
    print(report.summary(words()))
    if not report.ok:
        invalid = _("tablier verify: {path} is NOT valid").format(path=path_shown(path))
        print(invalid, file=sys.stderr)
        return EXIT_INVALID
    if not report.proven:
        print(_(
            "consistent, but NOT a proven result: every signature, dice share, die and move "
            "checks out, and the result rests on one player's claim (see proof)"
        ))  # fmt: skip
        return EXIT_UNPROVEN
    print(_("valid: every signature, dice share, die, move, history and time checks out"))
    return EXIT_VALID
