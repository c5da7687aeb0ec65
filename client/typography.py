"""No-break spaces stay unbroken on screen; a path breaks after its slashes.

French puts a no-break space before ``:``, ``;``, ``!`` and ``?`` and inside « », and
groups thousands with a narrow one ("12 345"), so that a line never starts with the
punctuation or half a number. Textual's and Rich's line wrapping split at any whitespace
character, these included (both use ``\\s``): :func:`keep_no_break_spaces` makes them split
at the breakable ones only. ``argparse``'s help wraps with :mod:`textwrap`, which already
breaks at ASCII whitespace only.

A path (a match log's, on the end screen, in the quit question, in a notice) is one long
word: Rich folds it wherever the line ends, mid-name. Here a line may also break after a
``/`` — one that does not follow a digit, so that a Jacquet play (``1/7``, ``21/off``) and a
date (``30/11/2025``) stay whole — and, in a file's name too long for the line, after a
hyphen between letters.

>>> keep_no_break_spaces()
>>> from rich._wrap import divide_line
>>> text = "saved to /home/someone/.local/share/tablier/matches/2026-11-30T1434.tablier"
>>> cuts = [0, *divide_line(text, 30), len(text)]
>>> [text[start:end] for start, end in zip(cuts, cuts[1:])]
['saved to /home/someone/.local/', 'share/tablier/matches/', '2026-11-30T1434.tablier']
>>> text = "your log is /data/matches/2026-12-07T201215-jacquet-elise-francois.tablier."
>>> cuts = [0, *divide_line(text, 30), len(text)]
>>> [text[start:end] for start, end in zip(cuts, cuts[1:])]
['your log is /data/matches/', '2026-12-07T201215-jacquet-', 'elise-francois.tablier.']
>>> text = "start with --invite-file PATH, peut-être"
>>> cuts = [0, *divide_line(text, 18), len(text)]
>>> [text[start:end] for start, end in zip(cuts, cuts[1:])]
['start with ', '--invite-file ', 'PATH, peut-être']
>>> text = "Noir plays 1/6 6/8 21/off on 30/11/2025"
>>> cuts = [0, *divide_line(text, 12), len(text)]
>>> [text[start:end] for start, end in zip(cuts, cuts[1:])]
['Noir plays ', '1/6 6/8 ', '21/off on ', '30/11/2025']
>>> from textual._wrap import compute_wrap_offsets
>>> text = "appuyez sur «\\u00a0Recevoir\\u00a0»\\u00a0: Tablier"
>>> cuts = [0, *compute_wrap_offsets(text, 20, 4), len(text)]
>>> [text[start:end] for start, end in zip(cuts, cuts[1:])]
['appuyez sur ', '«\\xa0Recevoir\\xa0»\\xa0: ', 'Tablier']
"""

from __future__ import annotations

import importlib
import re

NO_BREAK = "\u00a0\u2007\u202f"  # no-break, figure and narrow no-break spaces
SPACE = rf"[^\S{NO_BREAK}]"
"""A whitespace character a line may break at."""
WORD = rf"(?:\S|[{NO_BREAK}])"
"""A character a line may not break at."""
NAME_HYPHEN = r"(?<=[^\W\d_])-(?=[^\W\d_]\S*\.\w)"
"""A hyphen between two letters of a file's name (a dot and its extension follow in the same
word): a match log's name, ``…T201215-jacquet-elise-francois.tablier``, is wider than a
notice at 80 columns and breaks there rather than mid-name. A date's hyphens (after a digit),
an option's (``--invite-file``: no extension follows) and a word's (*peut-être*) stay whole."""
PIECE = rf"(?:(?:(?!{NAME_HYPHEN})(?:[^\s/]|[{NO_BREAK}]|(?<=\d)/))+(?:/+|-)?|/+)"
"""What a line may not break inside: a word, up to and with a ``/`` that follows no digit or a
file name's :data:`NAME_HYPHEN`."""

PATTERNS = {
    # Textual's (8.2) wrapping of TextArea's lines: a word and the spaces after it, or spaces.
    ("textual._wrap", "re_chunk"): (r"\S+\s*|\s+", rf"{WORD}+{SPACE}*|{SPACE}+"),
    # Rich's (15.0), which Textual's Content (Label, Static…) wraps with too: spaces, a word,
    # and the spaces after it.
    ("rich._wrap", "re_word"): (r"\s*\S+\s*", rf"{SPACE}*{PIECE}{SPACE}*"),
}
"""Where each library keeps its word pattern: the pattern as written there, and ours."""


def keep_no_break_spaces() -> None:
    """Make Textual's and Rich's wrapping break lines at breakable spaces only, and Rich's
    after a path's slashes too (before the app draws; calling again changes nothing).

    Their patterns live in private modules: one that is not exactly the pattern ours was
    written from (a new version of the library) is left alone — their wrapping stays as it
    is, rather than lose whatever the new one does. tests/client/test_typography.py fails
    then, when the locked versions are upgraded.
    """
    for (module_name, name), (theirs, ours) in PATTERNS.items():
        try:
            module = importlib.import_module(module_name)
        except ImportError:  # a version without the module
            continue
        if getattr(getattr(module, name, None), "pattern", None) == theirs:
            setattr(module, name, re.compile(ours))
