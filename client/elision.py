"""French elision where a value meets its sentence: "le tour de Anne" is written "le tour d'Anne".

A French sentence puts "de" or "que" before a name it does not know yet ("la part de dés de
{name}"); whether the word elides depends on the name's first sound, known only once it is
filled in. Only these two words elide here, and only before a vowel: before an h or a y the
letters do not say (French elides before a mute h, "d'Hélène", not an aspirated one, "de
Hugo"; "de Yann"), so the word is left whole.

>>> elide("la part de dés de Anne pour le jet 3", ["Anne", "3"])
"la part de dés d'Anne pour le jet 3"
>>> elide("De Émile, le coup", ["Émile"])
"D'Émile, le coup"
>>> elide("en tant que Ada", ["Ada"])
"en tant qu'Ada"
>>> elide("le tour de Bruno", ["Bruno"]), elide("le tour de Hugo", ["Hugo"])
('le tour de Bruno', 'le tour de Hugo')
"""

from __future__ import annotations

import re
from collections.abc import Iterable

VOWELS = frozenset("aeiouàâäéèêëîïôöùûüœæ")


def elide(text: str, values: Iterable[object]) -> str:
    """*text*, a French sentence filled with *values*, with "de" and "que" elided before each
    value that starts with a vowel."""
    for value in values:
        if isinstance(value, str) and value[:1].lower() in VOWELS:
            text = re.sub(rf"\b([Dd]|[Qq]u)e (?={re.escape(value)})", r"\1'", text)
    return text
