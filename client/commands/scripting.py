"""What the scriptable JSON commands (``tablier engine ...``) share.

Their contract is the same everywhere: bad arguments are one line naming the problem and
exit status 2; ``--batch`` answers one JSON line per request line, and a bad request gets
``{"error": ...}`` while the batch goes on; a reader that goes away (``| head``) ends the
command quietly, as Unix tools do. Only the standard library is imported here, so the
``--help`` of every command stays fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from client.i18n import LANGUAGES, N_, _

LANG_HELP = N_(
    "the language to speak (default: TABLIER_LANG, then the language last chosen in the "
    "lobby, then the locale); --lang is for this run only: the lobby's choice stays"
)
"""``--lang``'s help, in the order :func:`client.i18n.choose` follows."""


class OneLineErrorParser(argparse.ArgumentParser):
    """Report bad arguments as one line naming the problem (exit status 2); take ``--lang``.

    Every parser of ``tablier`` is of this class (argparse makes subparsers of their parent's
    class), so ``--lang`` is accepted after any command. It is read before argparse runs
    (:func:`client.i18n.lang_option`): here it is only declared, for --help and its check.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.add_argument(
            "--lang",
            choices=LANGUAGES,
            default=argparse.SUPPRESS,
            # The lobby's Language list is saved for the next start: the help says where it
            # stands among the others (client.i18n.choose), and that --lang leaves it as is.
            help=_(LANG_HELP),
        )

    def error(self, message: str) -> NoReturn:
        self.exit(2, _("{prog}: error: {message} (see --help)").format(
            prog=self.prog, message=message) + "\n")  # fmt: skip


def fail(args: argparse.Namespace, message: str) -> int:
    """Print ``<command>: error: <message>`` on stderr; return the exit status 2."""
    sys.stderr.write(
        _("{prog}: error: {message}").format(prog=args.error_prefix, message=message) + "\n"
    )
    return 2


def reader_left() -> int:
    """The reader of our output went away: stop quietly (exit status 1)."""
    import os

    # Point stdout at /dev/null so the interpreter's final flush does not fail again.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 1


def json_request(text: str) -> object:
    """The JSON value of *text*, or ValueError saying why there is none: :func:`json.loads`
    raises JSONDecodeError, but also ValueError (an integer over 4,300 digits) and
    RecursionError (arrays nested thousands deep) — each a line that is no request.

    >>> try:
    ...     json_request("[" * 100_000)
    ... except ValueError as error:
    ...     print(str(error)[:63])
    the request is not valid JSON: maximum recursion depth exceeded
    """
    import json

    try:
        return json.loads(text)
    except (RecursionError, ValueError) as error:  # Python's words, as JSON answers take
        raise ValueError(f"the request is not valid JSON: {error}") from None


def answer_batch(answer: Callable[[object], dict[str, Any]]) -> None:
    """Answer every non-blank JSON line on stdin with ``answer(request)``, one line each.

    A line that is not JSON, or whose request the engine refuses (any ``ValueError`` the
    engine raises), is answered with ``{"error": ...}`` and the batch goes on.
    """
    from engine.errors import EngineError

    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json_request(line)
        except ValueError as error:
            reply = {"error": str(error)}  # JSON: not translated
        else:
            try:
                reply = answer(request)
            except EngineError as error:
                reply = {"error": str(error)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
