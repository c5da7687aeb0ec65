"""argparse's own words ("usage:", "options", "invalid choice: …"), in Tablier's language.

argparse asks the standard :mod:`gettext` for them, which reads the environment's locale and
its own domain, not ``--lang``; :func:`speak` routes them through Tablier's catalogue
instead. The sentences are listed here (as argparse writes them, which
``tests/client/test_i18n.py`` checks against the running Python's argparse) so that
``pybabel extract`` puts them in the catalogue.
"""

from __future__ import annotations

import argparse

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
