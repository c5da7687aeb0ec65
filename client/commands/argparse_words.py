"""argparse's own words ("usage:", "options", "invalid choice: …"), in Tablier's language.

argparse asks the standard :mod:`gettext` for them, which reads the environment's locale and
its own domain, not ``--lang``; :func:`speak` routes them through Tablier's catalogue
instead. The sentences are listed here (as argparse writes them, which
``tests/client/test_i18n.py`` checks against the running Python's argparse) so that
``pybabel extract`` puts them in the catalogue.
"""

from __future__ import annotations

import argparse
import re
import shutil
import textwrap

from client.i18n import N_, _, ngettext

WORDS: tuple[str, ...] = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("ignored explicit argument %r"),
)


def speak() -> None:
    """Make argparse say its words in the language in use (call before building a parser:
    the "options" heading is translated when the parser is made)."""
    # argparse looks its `_` and `ngettext` up as module globals on every call.
    setattr(argparse, "_", _argparse_gettext)  # noqa: B010 (mypy: argparse does not export `_`)
    setattr(argparse, "ngettext", ngettext)  # noqa: B010
    argparse.HelpFormatter.start_section = _start_section  # type: ignore[method-assign]


def _argparse_gettext(text: str | None) -> str | None:
    """argparse's words translated; what is no words left as it is: argparse asks for the
    translation of a subparsers group's missing description (None, which a catalogue would
    turn into the line "None" under every group heading) and a catalogue's translation of ""
    is its header."""
    return _(text) if text else text


_argparse_start_section = argparse.HelpFormatter.start_section


def _start_section(self: argparse.HelpFormatter, heading: str | None) -> None:
    """A section of the help, its heading punctuated as the language in use does it:
    argparse writes ":" right after the heading ("options:"), French after a no-break space
    ("options :")."""
    if heading is not None:
        heading = _("{heading}:").format(heading=heading).removesuffix(":")
    _argparse_start_section(self, heading)


def integer(text: str) -> int:
    """An option's whole number, as argparse's ``type=int`` reads it, refused in the reader's
    words (argparse's own name the type: "invalid int value")."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("a whole number, not {text!r}").format(text=text)
        ) from None


def reflowed(text: str, width: int | None = None) -> str:
    """*text* (a description or an epilog kept as written) with its prose re-wrapped to the
    terminal, as argparse wraps an option's help: a paragraph typed for a wide terminal must
    not run past a narrow one's edge. A line that starts with a space (a table of commands,
    an example) keeps its own line, and is wrapped only where it is too long: under its
    second column in a table, else two spaces further in than it starts.

    >>> print(reflowed("one two three\\nfour five\\n\\n  keep  this\\nsix seven", width=12))
    one two
    three four
    five
    <BLANKLINE>
      keep  this
    six seven
    >>> print(reflowed("  go    one two three four", width=18))
      go    one two
            three four
    """
    if width is None:  # argparse's own choice of width (HelpFormatter)
        width = max(shutil.get_terminal_size().columns - 2, 11)
    lines: list[str] = []
    prose: list[str] = []

    def flush() -> None:
        if prose:
            lines.extend(textwrap.wrap(" ".join(prose), width, break_on_hyphens=False))
            prose.clear()

    for line in text.splitlines():
        if line.strip() and not line[0].isspace():
            prose.append(line.strip())
            continue
        flush()
        lines.extend(_kept(line.rstrip(), width))
    flush()
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")


def reflow(parser: argparse.ArgumentParser) -> None:
    """Re-wrap the prose of *parser*'s description and epilog (:func:`reflowed`): for a
    parser whose formatter keeps them as written (``RawDescriptionHelpFormatter``)."""
    if parser.description:
        parser.description = reflowed(parser.description)
    if parser.epilog:
        parser.epilog = reflowed(parser.epilog)


def _kept(line: str, width: int) -> list[str]:
    """An indented line of a description, wrapped only if it is longer than *width*."""
    if len(line) <= width:
        return [line]
    column = re.match(r"\s+\S.*?\s{2,}(?=\S)", line)  # a table's second column
    indent = len(column.group()) if column else len(line) - len(line.lstrip()) + 2
    return textwrap.wrap(
        line, width, subsequent_indent=" " * indent, break_on_hyphens=False, drop_whitespace=True
    ) or [line]
