"""The language Tablier speaks to the person in front of it: English or French.

One language per process, chosen once at start (:func:`choose`, then :func:`use`) before any
sentence is built, so ``tablier --lang fr --help`` is French from its first word. Sentences
go through :func:`_` (and :func:`ngettext` where a count decides the form: "1 point",
"3 points"); a sentence defined at import time, before the language is known, is marked with
:func:`N_` and translated where it is shown. The catalogues are standard gettext files
managed with Babel (``scripts/catalogue``): ``client/locale/messages.pot`` and
``client/locale/fr/LC_MESSAGES/messages.po``, compiled to the ``.mo`` read here.

Only what a person reads is translated: what travels between machines (protocol messages,
match logs) and the JSON interfaces carry codes, never sentences, so a French and an English
player share one match and identical logs.

What the engine and the protocol tell comes as a :class:`~engine.clause.Clause`, never as
words. Four verbs make words of it, and nothing else does:

- :func:`say` — a clause (an error's ``reason``, a narration's sentence) in the language in
  use; words already said in it pass as they are;
- :func:`say_error` — any error's whole message (a protocol error's ``message``: the
  culprit's seat, then the reason);
- :func:`os_reason_of` — why the system refused a file, without the file;
- :func:`words` — the language itself, for what takes one to render many sentences (a
  verification's summary, ``log export``'s transcript).

>>> use("fr")
>>> _("the match log (.tablier file)")
'le journal du match (fichier .tablier)'
>>> ngettext("%(count)s point", "%(count)s points", 3) % {"count": 3}
'3 points'
>>> format_number(12345)
'12\\u202f345'
>>> _("joined the rematch as {name}, who did not play the match before").format(name="Ada")
"a rejoint la revanche en tant qu'Ada, qui n'a pas joué le match d'avant"
>>> use("en")
>>> _("the match log (.tablier file)")
'the match log (.tablier file)'
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from client.elision import elide

if TYPE_CHECKING:
    from engine.clause import Words

LANGUAGES: tuple[str, ...] = ("en", "fr")
DEFAULT_LANGUAGE = "en"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
# Where the language is looked for, after --lang: Tablier's own variable, then gettext's
# order (LANGUAGE is a colon-separated list of preferences; the others name one locale).
ENVIRONMENT: tuple[str, ...] = ("TABLIER_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_translations: gettext.NullTranslations = gettext.NullTranslations()
_language = DEFAULT_LANGUAGE


def language_of(value: str) -> str | None:
    """The Tablier language a locale name or preference list asks for, or None.

    >>> language_of("fr_CA.UTF-8"), language_of("de:fr:en"), language_of("C"), language_of("")
    ('fr', 'fr', None, None)
    """
    for preference in value.split(":"):
        code = preference.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
        if code in LANGUAGES:
            return code
    return None


def choose(explicit: str | None, environ: Mapping[str, str], saved: str | None = None) -> str:
    """The language to speak: *explicit* (``--lang``) when it is one of ours, else
    ``TABLIER_LANG``, else *saved* (the lobby's setting, :func:`saved_language`), else the
    first locale variable of :data:`ENVIRONMENT` that names one, else English.

    A variable that is set but names no language of ours (``LC_ALL=C``) does not stop the
    search: gettext would fall back to English there, where a later preference may be French.

    >>> choose(None, {"LANG": "fr_FR.UTF-8"}), choose("en", {"LANG": "fr_FR.UTF-8"})
    ('fr', 'en')
    >>> choose(None, {"TABLIER_LANG": "en", "LANG": "fr_FR.UTF-8"}), choose(None, {})
    ('en', 'en')
    >>> choose(None, {"LANG": "en_US"}, saved="fr"), choose(None, {"TABLIER_LANG": "en"}, "fr")
    ('fr', 'en')
    """
    tablier, *locale = (environ.get(variable, "") for variable in ENVIRONMENT)
    for value in (explicit or "", tablier, saved or "", *locale):
        found = language_of(value)
        if found is not None:
            return found
    return DEFAULT_LANGUAGE


def lang_option(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` in a command line, looked for before argparse runs (its help
    must already be in that language); the last one given wins, as argparse would have it.

    >>> lang_option(["--lang", "fr", "play"]), lang_option(["verify", "--lang=en", "x"])
    ('fr', 'en')
    >>> lang_option(["join", "--", "--lang", "fr"]) is None
    True
    """
    found = None
    for index, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and index + 1 < len(argv):
            found = argv[index + 1]
        elif word.startswith("--lang="):
            found = word.removeprefix("--lang=")
    return found


LANGUAGE_FILE = "language"
"""The file, in Tablier's config folder, that keeps the language chosen in the lobby."""


MAX_LANGUAGE_BYTES = 16
"""Bytes of the language file read: a language code and a line break fit many times."""


def saved_language(config_dir: Path) -> str | None:
    """The language the lobby saved in *config_dir*, or None (none saved, or not one of
    ours: a damaged or foreign file is ignored, never an error at start). Read before every
    command: so read as any file anyone may have put there — a regular file only, never
    waiting, a few bytes (a FIFO hung every command, ``/dev/zero`` ended it in MemoryError).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> os.mkfifo(folder / LANGUAGE_FILE)
    >>> saved_language(folder) is None
    True
    """
    from protocol.logfile import read_regular

    try:
        data = read_regular(config_dir / LANGUAGE_FILE, MAX_LANGUAGE_BYTES)
    except (OSError, ValueError):  # none there, not a regular file, too large
        return None
    text = data.decode("ascii", errors="replace").strip()
    return text if text in LANGUAGES else None


def config_dir() -> Path:
    """Tablier's config folder (``~/.config/tablier`` on Linux), where its identity
    and its saved language live (:mod:`client.config_files` writes them)."""
    import platformdirs

    return Path(platformdirs.user_config_dir("tablier"))


def use(language: str) -> None:
    """Speak *language* (one of :data:`LANGUAGES`) from now on."""
    global _translations, _language
    if language not in LANGUAGES:
        raise ValueError(f"Tablier speaks {' and '.join(LANGUAGES)}, not {language!r}")
    _language = language
    if language == DEFAULT_LANGUAGE:  # the sources are English
        _translations = gettext.NullTranslations()
    else:
        _translations = gettext.translation(DOMAIN, LOCALE_DIR, languages=[language])


def current() -> str:
    """The language in use."""
    return _language


class _French(str):
    """A French sentence to fill in: filled, its "de" and "que" elide before a value that
    starts with a vowel (:func:`client.elision.elide`: "d'Anne", not "de Anne")."""

    def format(self, /, *args: object, **kwargs: object) -> str:
        return elide(str.format(self, *args, **kwargs), (*args, *kwargs.values()))


def _to_fill(sentence: str) -> str:
    """*sentence*, translated, ready to be filled in the language in use."""
    return _French(sentence) if _language == "fr" else sentence


class _Words:
    """The language in use as the engine's and the protocol's clauses are said in it: its
    catalogue, its way of writing numbers (:func:`format_number`), and French elision where
    a value meets its sentence (:func:`client.elision.elide`)."""

    def gettext(self, message: str, /) -> str:
        return _translations.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int, /) -> str:
        return _translations.ngettext(singular, plural, count)

    def number(self, value: int) -> str:
        return format_number(value)

    def tidy(self, text: str, values: Sequence[object]) -> str:
        return elide(text, values) if _language == "fr" else text


_WORDS = _Words()


def words() -> _Words:
    """The language in use, for what takes a language to render its own sentences: a
    verification's summary, ``log export``'s transcript (a single clause: :func:`say`)."""
    return _WORDS


class Telling(Protocol):
    """What says itself in a reader's language: a :class:`~engine.clause.Clause`, a
    narration's :class:`~protocol.narrate.Sentence`."""

    def say(self, words: Words, /) -> str: ...


def say(told: str | Telling) -> str:
    """What the engine or the protocol tells, in the language in use: a
    :class:`~engine.clause.Clause` said (an error's ``reason``, a narration's sentence), or
    words as they are (the client's own, already in this language; an engine error a player
    never meets, in English). The one way a clause becomes words on screen.

    >>> from engine.clause import Clause
    >>> use("fr"); say(Clause.of(N_("the match is over"))), say("déjà dit")
    ('le match est fini', 'déjà dit')
    >>> use("en")
    """
    return told if isinstance(told, str) else told.say(_WORDS)


def say_error(error: BaseException) -> str:
    """*error*'s whole message (what ``str()`` gives in English) in the language in use:
    a protocol error with its culprit's seat or its log's record (``message``), an engine
    error's ``reason``, a system error's reason after its file; any other error as it is
    (the client's own errors are worded in this language already)."""
    from engine.errors import EngineError
    from protocol.errors import ProtocolError

    if isinstance(error, ProtocolError):
        return say(error.message)
    if isinstance(error, EngineError):
        return say(error.reason)
    if isinstance(error, OSError) and error.strerror:
        if error.filename is None:
            return os_reason_of(error)
        return _("{path}: {reason}").format(path=path_shown(str(error.filename)),
                                            reason=os_reason_of(error))  # fmt: skip
    return str(error)


def printable(text: str) -> str:
    """*text* with every character that is not printable (escape sequences, line breaks)
    replaced by U+FFFD: a name anyone may have chosen, safe to write to a terminal. The
    no-break spaces of French typography are kept.

    >>> printable("a\\x1b]2;PWNED\\x07\\x1b[2J.tablier")
    'a\ufffd]2;PWNED\ufffd\ufffd[2J.tablier'
    """
    return "".join(char if char.isprintable() or char in _SPACES else "\ufffd" for char in text)


_SPACES: frozenset[str] = frozenset("\u00a0\u202f\u2009")
"""Spaces French typography writes before ":" and in numbers ("45 749"): printable, though
Python's isprintable() says otherwise of every space but the ASCII one."""


def path_shown(path: str | os.PathLike[str]) -> str:
    """A path or file name to show or print (a file's name is anyone's choice, a log that
    arrived in an archive brings its own): :func:`printable`. The one way Tablier writes a
    path for people.

    >>> path_shown(Path("/tmp/a\\nb.tablier"))
    '/tmp/a\ufffdb.tablier'
    """
    return printable(os.fspath(path))


def os_reason_of(error: OSError) -> str:
    """Why the system refused a file, in a few words of the language in use ("there is no
    such file or folder"), instead of the system's own words (English, whatever the reader reads);
    an unusual error keeps them."""
    from protocol.errors import os_reason

    reason = os_reason(error)
    return say(reason) if not isinstance(reason, int) else str(reason)


def _(message: str) -> str:
    """*message* in the language in use."""
    return _to_fill(_translations.gettext(message))


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a sentence that *count* asks for, in the language in use."""
    return _to_fill(_translations.ngettext(singular, plural, count))


def pgettext(context: str, message: str) -> str:
    """*message* in the language in use, as *context* uses it (a key's name, "end", is
    not the end of a replay)."""
    return _to_fill(_translations.pgettext(context, message))


def N_(message: str) -> str:
    """Mark *message* for the catalogue without translating it yet (a constant defined at
    import time, before the language is chosen): translate it with :func:`_` where it is
    shown.

    The same identity as ``engine.clause.N_``, kept apart on purpose: the lobby starts
    without loading the engine (tests/client/test_startup.py)."""
    return message


def decimal_symbol() -> str:
    """What separates the units from the decimals in the language in use ("." or ",").

    >>> use("fr"); decimal_symbol()
    ','
    >>> use("en"); decimal_symbol()
    '.'
    """
    from babel.numbers import get_decimal_symbol

    return get_decimal_symbol(_language)


def format_number(number: int | float) -> str:
    """*number* written as the language in use writes it (French groups thousands with a
    narrow no-break space and writes a decimal comma).

    >>> use("en"); format_number(1234.5)
    '1,234.5'
    """
    from babel.numbers import format_decimal  # loaded only where a number is printed

    return format_decimal(number, locale=_language)


def format_moment(timestamp: float) -> str:
    """The local day and time of *timestamp* (seconds since the epoch) as the language in
    use writes them, for a list of recent files ("Dec 4 11:33 PM", "4 déc. 23:33").

    >>> from datetime import datetime
    >>> use("fr"); format_moment(datetime(2026, 12, 4, 23, 33).timestamp())
    '4 déc. 23:33'
    >>> use("en")

    A file's time is what its file system holds, and may be set anywhere (``touch -d``):
    one no calendar reaches is unknown, not an error.

    >>> format_moment(1_099_511_627_776)
    'unknown time'
    """
    from datetime import datetime

    from babel.dates import format_skeleton, format_time

    try:
        moment = datetime.fromtimestamp(timestamp)
    except (ValueError, OverflowError, OSError):  # a file's time set past the year 9999
        return _("unknown time")
    day = format_skeleton("MMMd", moment, locale=_language)
    return f"{day} {format_time(moment, 'short', locale=_language)}"
