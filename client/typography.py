"""No-break spaces stay unbroken on screen.

French puts a no-break space before ``:``, ``;``, ``!`` and ``?`` and inside « », and
groups thousands with a narrow one ("12 345"), so that a line never starts with the
punctuation or half a number. Textual's and Rich's line wrapping split at any whitespace
character, these included (both use ``\\s``): :func:`keep_no_break_spaces` makes them split
at the breakable ones only. ``argparse``'s help wraps with :mod:`textwrap`, which already
breaks at ASCII whitespace only.

>>> keep_no_break_spaces()
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

PATTERNS = {
    # Textual's (8.2) wrapping of TextArea's lines: a word and the spaces after it, or spaces.
    ("textual._wrap", "re_chunk"): (r"\S+\s*|\s+", rf"{WORD}+{SPACE}*|{SPACE}+"),
    # Rich's (15.0), which Textual's Content (Label, Static…) wraps with too: spaces, a word,
    # and the spaces after it.
    ("rich._wrap", "re_word"): (r"\s*\S+\s*", rf"{SPACE}*{WORD}+{SPACE}*"),
}
"""Where each library keeps its word pattern: the pattern as written there, and ours."""


def keep_no_break_spaces() -> None:
    """Make Textual's and Rich's wrapping break lines at breakable spaces only (before the
    app draws; calling again changes nothing).

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
