"""A member's name, as the relay takes it: the rule of :mod:`protocol.names`, again.

The relay stands alone (it imports nothing of the game or its protocol), so it carries its
own copy of the players' name rule; tests/protocol/test_names.py holds the copy to the
protocol's verdicts, string for string. The relay refuses a name the clients would refuse
(:func:`name_problem`), and a second member whose name reads as one already seated in the
room (:func:`name_key`: NFKC and case folding), so that nobody can sit as another.

>>> name_problem("Ada"), name_problem("\\u3164"), name_problem(" Ada")
(None, 'U+3164 is invisible', 'spaces around it')
>>> name_key("\\uff21\\uff24\\uff21") == name_key("ada")
True
"""

from __future__ import annotations

import unicodedata

from relay.envelope import MAX_NAME_CHARS

MAX_NAME_CELLS = 32
MAX_MARKS_PER_BASE = 3
BLANKS = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0"
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))
    + "".join(chr(c) for c in range(0xE0100, 0xE01F0))
    + "\U00016fe4"
)
DRAWN_WIDE = {"\ufdfd": 22, "\u2e3a": 2, "\u2e3b": 3}


def name_problem(name: str) -> str | None:
    """Why *name* is no player's name, in a few English words for the relay's log (None: it
    is one). The rule is :func:`protocol.names.name_problem`'s."""
    if not 1 <= len(name) <= MAX_NAME_CHARS:
        return "length"
    if name != name.strip():
        return "spaces around it"
    for char in name:
        if not char.isprintable() or char in BLANKS:
            return f"U+{ord(char):04X} is invisible"
    decomposed = unicodedata.normalize("NFD", name)
    if _is_mark(decomposed[0]):
        return "a mark first"
    marks = 0
    for char in decomposed:
        marks = marks + 1 if _is_mark(char) else 0
        if marks > MAX_MARKS_PER_BASE:
            return "marks stacked"
    cells = 0
    for char in unicodedata.normalize("NFKC", name):
        if not _is_mark(char):
            wide = unicodedata.east_asian_width(char) in ("W", "F")
            cells += DRAWN_WIDE.get(char, 2 if wide else 1)
    return "too wide" if cells > MAX_NAME_CELLS else None


def name_key(name: str) -> str:
    """What two members' names are compared by (:func:`protocol.names.name_key`)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _is_mark(char: str) -> bool:
    return unicodedata.category(char).startswith("M")
