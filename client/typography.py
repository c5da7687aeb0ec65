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

import re

NO_BREAK = "\u00a0\u2007\u202f"  # no-break, figure and narrow no-break spaces
SPACE = rf"[^\S{NO_BREAK}]"
"""A whitespace character a line may break at."""
WORD = rf"(?:\S|[{NO_BREAK}])"
"""A character a line may not break at."""


def keep_no_break_spaces() -> None:
    """Make Textual's and Rich's wrapping break lines at breakable spaces only (once, before
    the app draws; their own patterns, kept in their private ``_wrap`` modules, are
    otherwise the same: a word and the spaces after it, or spaces)."""
    import rich._wrap
    import textual._wrap

    textual._wrap.re_chunk = re.compile(rf"{WORD}+{SPACE}*|{SPACE}+")
    rich._wrap.re_word = re.compile(rf"{SPACE}*{WORD}+{SPACE}*")
