"""A thing said, for its reader to say in his language: an English sentence pattern and the
values it is filled with.

The engine and the protocol speak no language of their own. What they tell a person (the
engine's reason a play is refused, the protocol's narration of a match, a verification's
proof) they give as a :class:`Clause`, whose pattern is marked for the client's catalogue
(``babel.cfg`` reads the modules that mark them) and rendered with the reader's catalogue
(:meth:`Clause.say`). Its plain English (no catalogue, ``str()``) is what language-neutral
outputs carry: errors, the JSON interfaces.

A reader's language may also write numbers its own way (``words.number``, optional: the
client's French groups thousands, "12 345"); a field given a format (``{year:04d}``) is
written as its format says, never regrouped. And it may change the words where a value meets
them (``words.tidy(text, values)``, optional: French writes "d'Anne", not "de Anne").
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias

Value: TypeAlias = "str | int | Clause"
"""What fills a pattern's field: a name, a number, or a clause said in the same language."""


class Words(Protocol):
    """A reader's language: what :class:`gettext.NullTranslations` and its kin offer (and,
    optionally, ``number(value) -> str``: how it writes a whole number; ``tidy(text,
    values) -> str``: the filled sentence as the language writes it where values meet it)."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, count: int, /) -> str: ...


class _English:
    """The patterns as they are written: the language-neutral outputs' English."""

    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, count: int, /) -> str:
        return singular if count == 1 else plural


ENGLISH: Words = _English()


class _Numbers(string.Formatter):
    """``str.format`` but for whole numbers without a format, written by *number*."""

    def __init__(self, number: Any) -> None:
        self._number = number

    def format_field(self, value: Any, format_spec: str) -> Any:
        if type(value) is int and not format_spec:
            return self._number(value)
        return super().format_field(value, format_spec)


def N_(pattern: str) -> str:
    """Mark *pattern* for the client's catalogue (``scripts/catalogue`` extracts it).

    The engine's and the protocol's; the relay and the client each have the same identity
    of their own, as neither may load the engine for it (tests/test_layering.py,
    tests/client/test_startup.py)."""
    return pattern


def plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a pattern whose form a count decides ("1 point", "2 points")."""
    return singular, plural


@dataclass(frozen=True, slots=True)
class Clause:
    """One thing said: a pattern (or a singular and plural pair, chosen by ``count``) and
    the values filling its fields. Values are names and numbers, never words to translate,
    or clauses (said in the same language as the clause they fill).

    >>> clause = Clause.of(N_("{who} pays {amount} into the pot"), who="Ada", amount=2)
    >>> str(clause)
    'Ada pays 2 into the pot'
    >>> str(Clause.of(N_("the dice left are {dice}"), dice=Clause.of(N_("{some} and {last}"),
    ...                                                               some="6", last=5)))
    'the dice left are 6 and 5'
    """

    pattern: str | tuple[str, str]
    fields: tuple[tuple[str, Value], ...] = ()
    count: int = 1

    @classmethod
    def of(cls, pattern: str | tuple[str, str], count: int = 1, /, **fields: Value) -> Clause:
        return cls(pattern, tuple(fields.items()), count)

    def say(self, words: Words = ENGLISH) -> str:
        """The clause in the language of *words* (the pattern translated, then filled:
        a value is never read as a pattern, whoever chose it).

        >>> class Grouped(_English):
        ...     def number(self, value: int) -> str:
        ...         return f"{value:,}"
        >>> Clause.of(N_("{count} records in {year:04d}"), count=12345, year=2025).say(Grouped())
        '12,345 records in 2025'
        """
        if isinstance(self.pattern, tuple):
            pattern = words.ngettext(*self.pattern, self.count)
        else:
            pattern = words.gettext(self.pattern)
        values = {
            name: value.say(words) if isinstance(value, Clause) else value
            for name, value in self.fields
        }
        number = getattr(words, "number", None)
        if number is None:
            text = pattern.format(**values)
        else:
            text = _Numbers(number).format(pattern, **values)
        tidy = getattr(words, "tidy", None)
        return text if tidy is None else str(tidy(text, tuple(values.values())))

    def __str__(self) -> str:
        return self.say()
