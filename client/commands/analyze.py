"""``tablier analyze LOG``: what every Jacquet play lost, and the dice's luck, written beside it.

The log is verified first (the protocol's strict replay: every signature, share and play);
a log that fails is refused, a truncated one is analysed up to its last good record with a
warning. The turns are taken from that replay and judged by :mod:`engine.bot.analysis`;
the report goes to ``LOG.analysis.txt`` (or ``.json``) beside the log, or to ``--out``
(``-``: standard output), and names the log it analyses by its SHA-256. The log itself is
only ever read. A Goose log gets a short luck summary (turns lost, pot paid and won).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from client.commands.argparse_words import integer
from client.commands.log_gate import EXIT_INVALID, EXIT_NOT_A_LOG, LogGate, reads_logs
from client.game.budget import MAX_JUDGED_TURNS
from client.i18n import _, os_reason_of, path_shown

EXIT_OK, EXIT_CANNOT_WRITE = 0, 3  # 1 and 2: a bad log and no log, as every log command
PROGRESS_FROM = 40
"""Matches with more turns than this show a progress bar (on a terminal)."""


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "analyze",
        help=_("analyse a recorded match: each play's error, the dice's luck, a rating"),
        description=_(
            "Analyse a match log with the computer player's equity network. For every Jacquet "
            "turn: the play made, the best play, the equity it lost (in points) and a mark "
            "(doubtful, bad, very bad); for each player: decisions, total and mean loss, a "
            "rating from Awful! to Supernatural, the luck of his dice and a luck-adjusted "
            "result. A Goose log gets a luck summary. The log is verified first and never "
            "changed: the report is written beside it (LOG.analysis.txt or .json) or to --out. "
            "Exit status: 0 done, 1 the log fails verification (a damaged tail: what precedes "
            "it is analysed, and the report written), 2 not a match log, 3 the report cannot "
            "be written."
        ),
    )
    parser.add_argument("log", type=Path, metavar=_("LOG"), help=_("the match log (.tablier file)"))
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help=_("a readable report (default) or JSON"),
    )
    parser.add_argument(
        "--out", metavar=_("PATH"), help=_("where to write the report (- for standard output)")
    )
    parser.add_argument(
        "--max-turns",
        type=integer,
        default=MAX_JUDGED_TURNS,
        metavar=_("N"),
        help=_("judge at most the first N turns, and say so (default {count})").format(
            count=MAX_JUDGED_TURNS
        ),
    )
    parser.add_argument(
        "--plies",
        type=integer,
        choices=(1, 2),
        default=2,
        help=_("how deep each play is judged (default 2, as gnubg)"),
    )
    parser.set_defaults(run=run)


def default_out(log: Path, fmt: str) -> Path:
    """``game.tablier`` -> ``game.tablier.analysis.txt`` (or ``.json``), beside the log."""
    return log.with_name(f"{log.name}.analysis.{'json' if fmt == 'json' else 'txt'}")


@reads_logs("analyze")
def run(args: argparse.Namespace, gate: LogGate) -> int:
    from client.commands.analyze_log import LogRefused, analyse_contents
    from client.commands.analyze_text import format_report

    contents = gate.read(args.log)  # first: a folder or "." has no name to put a report beside
    out = (
        None
        if args.out == "-"
        else Path(args.out)
        if args.out
        else default_out(args.log, args.format)
    )
    if out is not None and _same_file(out, args.log):
        print(
            _("tablier analyze: --out {out} is the log itself; the log is never changed").format(
                out=path_shown(out)
            ),
            file=sys.stderr,
        )
        return EXIT_CANNOT_WRITE
    if out is not None:
        from client.private_file import refuse_unless_regular

        try:  # before the analysis (minutes on a long log), not after it
            refuse_unless_regular(out)
        except OSError as error:
            _cannot_write(out, error)
            return EXIT_CANNOT_WRITE
    try:
        analysed = analyse_contents(contents, args.log, plies=args.plies,
                                    progress=_progress_bar(),
                                    max_turns=max(0, args.max_turns))  # fmt: skip
    except LogRefused as refusal:
        gate.say(str(refusal))
        return EXIT_NOT_A_LOG if refusal.not_a_log else EXIT_INVALID
    # A damaged tail fails verification, as `tablier verify` says: the report of what
    # precedes it is still written, and the status says the log is not whole.
    status = EXIT_OK
    if analysed.warning:
        print(_("tablier analyze: {log}: warning: {warning}").format(
            log=path_shown(args.log), warning=analysed.warning), file=sys.stderr)  # fmt: skip
        status = EXIT_INVALID
    text = format_report(analysed, args.format)
    if out is None:
        sys.stdout.write(text)
        return status
    try:
        _write_atomically(out, text)
    except OSError as error:
        _cannot_write(out, error)
        return EXIT_CANNOT_WRITE
    print(_("{log}: analysis written to {out}").format(log=path_shown(args.log),
                                                       out=path_shown(out)))  # fmt: skip
    return status


def _cannot_write(out: Path, error: OSError) -> None:
    print(_("tablier analyze: cannot write {out}: {reason}").format(
        out=path_shown(out), reason=os_reason_of(error)), file=sys.stderr)  # fmt: skip


def _same_file(out: Path, log: Path) -> bool:
    try:
        return out.resolve() == log.resolve()
    except OSError:
        return False


def _write_atomically(path: Path, text: str) -> None:
    """Whole or not at all, and never through a link: the log's folder may hold anything
    that came with it (an archive brings its own ``.LOG.analysis.txt.part``)."""
    from client.private_file import write_whole

    write_whole(path, text.encode("utf-8"))


def _progress_bar() -> Any:
    """A callable ``(done, total)`` drawing a bar on stderr, or ``None`` off a terminal."""
    if not sys.stderr.isatty():
        return None

    def draw(done: int, total: int) -> None:
        if total <= PROGRESS_FROM:
            return
        width = 30
        filled = width * done // total
        bar = "#" * filled + "." * (width - filled)
        sys.stderr.write("\r" + _("analysing [{bar}] {done}/{total}").format(
            bar=bar, done=done, total=total))  # fmt: skip
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return draw
