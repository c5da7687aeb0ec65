"""A player's name: what one may be, and when two are the same — the rule, in one place.

A name is what a person reads to know who did what: in the roster, in the chat, in a fault.
So it must show: every character visible or an ordinary space, at least one visible letter,
digit or sign (a name of fillers, U+3164 or U+2800, shows nothing), no mark without a letter
to sit on and no tower of them, no wider than a roster's column. And two names of one room
must not read the same: they are compared after Unicode compatibility normalisation (NFKC,
so a full-width "\\uff21da" is "Ada") and case folding (so "ADA" is "Ada") — :func:`name_key`.

The relay, which may import nothing of the protocol, applies the same rule in
:func:`relay.rules.display_name` and :func:`relay.rules.name_key`; tests/protocol/test_names.py
holds the two to the same verdicts.

>>> check_name("Élise")
'Élise'
>>> str(name_problem("\\u3164\\u3164"))
'a name cannot hold the invisible character U+3164'
>>> str(name_problem("e\\u0301\\u0301\\u0301\\u0301"))
'a name stacks at most 3 marks on one letter'
>>> name_key("\\uff21\\uff24\\uff21") == name_key("ada")
True
>>> first_clash(["Ada", "Bob", "ada"])
(0, 2)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Final, Literal

from engine.clause import N_, Clause
from protocol.bounds import MAX_CHAT_CELLS, MAX_MARKS_PER_BASE, MAX_NAME_CELLS, MAX_NAME_CHARS

BLANKS: Final = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0"
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))
    + "".join(chr(c) for c in range(0xE0100, 0xE01F0))
    + "\U00016fe4"
)
"""Characters Python calls printable that show nothing: the Hangul fillers, the Braille
blank, the combining grapheme joiner, the Mongolian and other variation selectors, the Khmer
inherent vowels — Unicode's default-ignorable code points that are not format characters
(those, like the zero-width space, are not printable and are refused as such)."""


DRAWN_WIDE: Final = {"\ufdfd": 22, "\u2e3a": 2, "\u2e3b": 3}
"""Characters a terminal gives one cell but fonts draw many wide, counted as drawn: the
bismillah ligature (the 22 letters and spaces it writes: its other ligatures decompose, and
are counted as their letters) and the two- and three-em dashes."""


class NameRefused(ValueError):
    """A name the rule refuses; ``clause`` says why (for the reader's language)."""

    def __init__(self, clause: Clause) -> None:
        super().__init__(str(clause))
        self.clause = clause


def name_problem(name: object) -> Clause | None:
    """Why *name* cannot be a player's name (None: it can). The whole rule:

    - text of 1 to :data:`~protocol.bounds.MAX_NAME_CHARS` characters, beginning and ending
      with neither a space nor any other white space;
    - every character printable (no control, format — zero-width — or private character)
      and none of :data:`BLANKS`; so its first character is a visible letter, digit or sign;
    - no combining mark first, and at most :data:`~protocol.bounds.MAX_MARKS_PER_BASE`
      marks on one character (counted decomposed);
    - at most :data:`~protocol.bounds.MAX_NAME_CELLS` terminal cells wide, its compatibility
      form (NFKC) counted: wide characters two cells, marks none.

    >>> str(name_problem(" Ada")), str(name_problem("A" * 33))
    ('a name cannot begin or end with a space', 'a name is 1 to 32 characters, not 33')
    >>> str(name_problem("\\ufdfd" * 2))
    'a name is at most 32 columns wide, not 44'
    """
    if type(name) is not str:
        return Clause.of(N_("a name is text"))
    if not 1 <= len(name) <= MAX_NAME_CHARS:
        return Clause.of(N_("a name is 1 to {most} characters, not {count}"),
                         most=MAX_NAME_CHARS, count=len(name))  # fmt: skip
    if name != name.strip():
        return Clause.of(N_("a name cannot begin or end with a space"))
    for char in name:
        if not char.isprintable() or char in BLANKS:
            return Clause.of(N_("a name cannot hold the invisible character {char}"),
                             char=f"U+{ord(char):04X}")  # fmt: skip
    match spill(name, MAX_NAME_CELLS):
        case ("mark first", _):
            return Clause.of(N_("a name cannot begin with a combining mark"))
        case ("marks", _):
            return Clause.of(N_("a name stacks at most {most} marks on one letter"),
                             most=MAX_MARKS_PER_BASE)  # fmt: skip
        case ("cells", cells):
            return Clause.of(N_("a name is at most {most} columns wide, not {cells}"),
                             most=MAX_NAME_CELLS, cells=cells)  # fmt: skip
    return None


Spill = tuple[Literal["mark first", "marks", "cells"], int]


def spill(text: str, most_cells: int) -> Spill | None:
    """How *text* would spill over the lines around it on a terminal (None: it would not)
    — the rule names and chat lines share, each saying it in its own words:

    - ``("mark first", 0)``: it begins with a combining mark (nothing to sit on: it lands
      on what is drawn before it);
    - ``("marks", n)``: a character carries *n* > :data:`~protocol.bounds.MAX_MARKS_PER_BASE`
      combining marks (counted decomposed, NFD): a tower over the line above;
    - ``("cells", n)``: it is *n* > *most_cells* terminal cells wide (:func:`name_cells`).

    >>> spill("Ada", 32), spill("e" + "\u0301" * 4, 32), spill("\ufdfd" * 2, 32)
    (None, ('marks', 4), ('cells', 44))
    """
    decomposed = unicodedata.normalize("NFD", text)
    if decomposed and _is_mark(decomposed[0]):
        return ("mark first", 0)
    marks = 0
    for char in decomposed:
        marks = marks + 1 if _is_mark(char) else 0
        if marks > MAX_MARKS_PER_BASE:
            return ("marks", marks)
    cells = name_cells(text)
    if cells > most_cells:
        return ("cells", cells)
    return None


def chat_problem(line: str) -> Clause | None:
    """Why the chat *line* (printable text of 1 to :data:`~protocol.bounds.MAX_CHAT_CHARS`
    characters: :mod:`protocol.messages` checks that) cannot be shown (None: it can): it
    spills (:func:`spill`) beyond :data:`~protocol.bounds.MAX_CHAT_CELLS`.

    >>> str(chat_problem("A" + "\u0301" * 499))
    'a chat line stacks at most 3 marks on one letter'
    >>> str(chat_problem("\ufdfd" * 500)), chat_problem("山" * 500)
    ('a chat line is at most 1000 columns wide, not 11000', None)
    """
    match spill(line, MAX_CHAT_CELLS):
        case ("mark first", _):
            return Clause.of(N_("a chat line cannot begin with a combining mark"))
        case ("marks", _):
            return Clause.of(N_("a chat line stacks at most {most} marks on one letter"),
                             most=MAX_MARKS_PER_BASE)  # fmt: skip
        case ("cells", cells):
            return Clause.of(N_("a chat line is at most {most} columns wide, not {cells}"),
                             most=MAX_CHAT_CELLS, cells=cells)  # fmt: skip
    return None


def _is_mark(char: str) -> bool:
    return unicodedata.category(char).startswith("M")


def name_cells(name: str) -> int:
    """The terminal cells *name* takes, its compatibility form counted (a ligature as the
    letters it stands for).

    >>> name_cells("Ada"), name_cells("山田"), name_cells("e\\u0301"), name_cells("\\ufdfd")
    (3, 4, 1, 22)
    """
    cells = 0
    for char in unicodedata.normalize("NFKC", name):
        if _is_mark(char):
            continue
        wide = unicodedata.east_asian_width(char) in ("W", "F")
        cells += DRAWN_WIDE.get(char, 2 if wide else 1)
    return cells


def check_name(name: object) -> str:
    """*name* if it is one a player may take; :class:`NameRefused` saying why otherwise."""
    problem = name_problem(name)
    if problem is not None:
        raise NameRefused(problem)
    assert isinstance(name, str)
    return name


def name_key(name: str) -> str:
    """What two names are compared by: NFKC, case folded, NFKC again (case folding can undo
    a normal form). Two names of one room must not share it.

    >>> name_key("Straße") == name_key("STRASSE"), name_key("Ada") == name_key("Adà")
    (True, False)
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def first_clash(names: Sequence[str]) -> tuple[int, int] | None:
    """The first two places in *names* whose names read the same (None: all differ)."""
    seen: dict[str, int] = {}
    for index, name in enumerate(names):
        key = name_key(name)
        if key in seen:
            return (seen[key], index)
        seen[key] = index
    return None


__all__ = [
    "BLANKS",
    "DRAWN_WIDE",
    "NameRefused",
    "Spill",
    "chat_problem",
    "check_name",
    "first_clash",
    "name_cells",
    "name_key",
    "name_problem",
    "spill",
]
