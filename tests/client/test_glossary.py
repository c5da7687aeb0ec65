"""The French catalogue speaks the glossary's words (issue 29, item 10): one French term for
each English one (docs/glossary-fr.md, read here), one apostrophe, and a plural wherever a
count decides the form of a noun."""

from __future__ import annotations

import doctest
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import read_po

from tests.client.terminal import ROOT

GLOSSARY = ROOT / "docs" / "glossary-fr.md"
PO = ROOT / "client" / "locale" / "fr" / "LC_MESSAGES" / "messages.po"


@dataclass(frozen=True)
class Term:
    """A row of the glossary's tables: its English words, the French words that say them
    (*required* for the names of things, the everyday words may be said otherwise), and the
    French words that must not."""

    english: tuple[str, ...]
    french: tuple[str, ...]
    never: tuple[str, ...]
    required: bool


def words_of(cell: str) -> tuple[str, ...]:
    """The backticked words of a table cell (``—``: none)."""
    return tuple(re.findall(r"`([^`]+)`", cell))


def glossary(path: Path = GLOSSARY) -> list[Term]:
    """The rows of *path*'s tables, one :class:`Term` each.

    >>> glossary()[0].english, glossary()[0].never, glossary()[0].required
    (('match', 'matches'), ('partie*', 'manche*'), True)
    """
    terms, section = [], ""
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            section = line
        elif line.startswith("| `"):
            english, french, never, _why = line.strip("|").split(" | ", 3)
            required = section == "### Names of things"
            terms.append(Term(words_of(english), words_of(french), words_of(never), required))
    return terms


def pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    """Any of *words*, whole (``*``: any ending; a space: any spaces), in any case.

    >>> bool(pattern(("seat",)).search("hot-seat")), bool(pattern(("part*",)).search("Partie"))
    (False, True)
    """
    alternatives = [re.escape(word).replace(r"\*", r"\w*").replace(r"\ ", r"\s+")
                    for word in words]  # fmt: skip
    return re.compile(rf"(?<![\w-])(?:{'|'.join(alternatives)})(?![\w-])", re.IGNORECASE)


CODE = re.compile(
    r"`[^`]*`"  # what the reader types: a command, an option, a move
    r"|%\(\w+\)\w|%\w"  # argparse's fields
    r"|--[\w-]+"  # an option's name
    r"|\b\w*_\w*\b"  # an identifier: match_to, TABLIER_RELAY_PORT
    r"|\btablier [a-z]+"  # a command: tablier log
    r"|\w+://\S*"  # an address
)
FIELDS = re.compile(r"\{[^{}]*\}")  # a placeholder, or a JSON object in an example


def prose(text: str) -> str:
    """*text* without its code and its placeholders: the words a person reads as words.

    >>> prose('tablier log: {"games": G} the log --games ({games} games) `21/off`').split()
    [':', 'the', 'log', '(', 'games)']
    """
    text = CODE.sub(" ", text)
    while FIELDS.search(text):
        text = FIELDS.sub(" ", text)
    return text


def forms(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value or ())


def messages() -> list[Message]:
    with PO.open("rb") as file:
        return [message for message in read_po(file) if message.id]


# English words that are not the glossary's term where they stand: each with its reason.
NOT_THE_TERM: dict[str, str] = {
    "ambiguous option: %(option)s could match %(matches)s": "argparse's verb, to match",
    "No matches found": "Textual's palette: a search's results, not a match played",
    # The relay's settings refused: the French names the option the English paraphrases.
    "max rooms must be at least 1": "the French names --max-rooms",
    "max seats must be 1..{most}": "the French names --max-seats",
    "max spectators cannot be negative": "the French names --max-spectators",
    "seat grace and room idle must be positive": "the French names --seat-grace",
}


def departures(terms: list[Term], catalogue: list[Message]) -> list[str]:
    """Every sentence of *catalogue* whose French does not use the word the glossary gives
    for one of its English terms, or uses a word it rules out."""
    found = []
    compiled = [(pattern(term.english), term) for term in terms]
    for message in catalogue:
        ids = forms(message.id)
        if ids[0] in NOT_THE_TERM:
            continue
        english = prose(" ".join(ids))
        french = prose(" ".join(forms(message.string)))
        present = [term for english_words, term in compiled if english_words.search(english)]
        allowed = {word for term in present for word in term.french}
        for term in present:
            if term.required and not pattern(term.french).search(french):
                found.append(f"{term.english[0]!r} is not {term.french}: {ids[0]!r} -> {french!r}")
            if not term.never:
                continue
            for wrong in pattern(term.never).finditer(french):
                if not pattern(tuple(allowed)).fullmatch(wrong[0]):
                    found.append(f"{term.english[0]!r} is never {wrong[0]!r}: {ids[0]!r}")
    return found


def test_docstring_examples() -> None:
    assert doctest.testmod(sys.modules[__name__]).failed == 0


def test_the_glossary_has_its_terms() -> None:
    terms = glossary()
    english = [word for term in terms for word in term.english]
    assert len(english) == len(set(english)), "one English word, one row"
    assert all(term.english and term.french for term in terms)
    assert sum(term.required for term in terms) > len(terms) / 2
    assert {"match", "game", "log", "seat", "checker", "rematch", "relay"} <= set(english)


def test_every_french_sentence_says_the_glossarys_words() -> None:
    assert departures(glossary(), messages()) == []


def test_the_check_sees_a_match_called_a_partie() -> None:
    """The check itself: a sentence that calls the match a *partie* is caught, a match of
    several *parties* is not."""
    terms = glossary()
    wrong = Message("the match is over", "la partie est finie")
    right = Message("a match over {count} games", "un match en {count} parties")
    assert [line.split(":")[0] for line in departures(terms, [wrong, right])] == [
        "'match' is not ('match', 'matchs')",
        "'match' is never 'partie'",
    ]


CURLY = "\u2019"


def test_one_apostrophe_the_straight_one() -> None:
    curly = [forms(message.string) for message in messages()
             if any(CURLY in form for form in forms(message.string))]  # fmt: skip
    assert curly == []
    assert CURLY not in GLOSSARY.read_text().split("## Typography")[0]


def test_guillemets_hold_their_words_with_no_break_spaces() -> None:
    """« comme ceci », never «comme ceci» nor « comme ceci » with spaces a line may break at."""
    loose = [form for message in messages() for form in forms(message.string)
             if re.search(r"«(?![\u00a0\u202f])|(?<![\u00a0\u202f])»", form)]  # fmt: skip
    assert loose == []


# A placeholder followed by a plural noun in a sentence without its singular form reads
# "1 points" when the count is 1. These placeholders are never 1: each is a bound or a
# count the sentence is only said of when it is larger.
NEVER_ONE: dict[str, str] = {
    "most": "a bound of protocol/bounds.py or client/setup.py, always above 1",
    "least": "a bound, always above 1",
    "limit": "a bound in bytes",
    "players": "the Goose is played by 2 to 15, Jacquet by 2",
    "doubtful": "the coach's thresholds, fractions of a point",
    "bad": "the coach's thresholds, fractions of a point",
    "very_bad": "the coach's thresholds, fractions of a point",
    "lost": "equity lost, a fraction of a point written with decimals",
    "high": "the most players a game takes",
    "size": "the fixed size of a key, a signature, a seed or an id, or a bound",
    "expected": "the fixed size of a key",
    "seats": "the seats of a match: 2 to 15",
    "rate": "a replay's speed, a rate whose two forms client/widgets/replay_bar.py chooses",
    "who": "a name: the noun after it is a verb (plays)",
}
NOUNS = (
    *("points", "turns", "games", "matches", "players", "seats", "bytes", "records", "tokens"),
    *("characters", "columns", "links", "names", "identities", "joins", "steps", "marks"),
    *("moves", "plays", "checkers", "squares", "tours", "parties", "matchs", "joueurs"),
    *("places", "octets", "enregistrements", "jetons", "caractères", "colonnes", "maillons"),
    *("noms", "identités", "adhésions", "pas", "signes", "mouvements", "coups", "dames", "cases"),
)
COUNTED = re.compile(rf"\{{(\w+)\}}\s+(?:{'|'.join(NOUNS)})\b")


@pytest.mark.parametrize("side", ["id", "string"])
def test_a_count_that_decides_a_noun_goes_through_ngettext(side: str) -> None:
    fixed = [
        text
        for message in messages()
        if not message.pluralizable
        for text in forms(getattr(message, side))
        for field in COUNTED.findall(text)
        if field not in NEVER_ONE
    ]
    assert fixed == []


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_the_lobbys_lists_of_logs_call_their_entries_matches(
    language: str, tmp_path: Path
) -> None:
    """Every entry of the lobby's lists is one log or one seat in one, a whole match: each
    list's heading calls them so, with the glossary's word for a match and none it rules
    out (issue 29: "Parties inachevées" above "Matchs quittés avant la fin", and "Dernières
    parties", named logs of whole matches as their games). The catalogue check above cannot
    see this: those headings said "games" in English too."""
    from textual.widgets import Label

    from client import i18n
    from client.app import TablierApp
    from client.screens.confirm import yes_key
    from client.screens.lobby import LobbyScreen
    from client.setup import GooseSetup
    from tests.client.conftest import seeded_settings, until

    (match,) = [term for term in glossary() if "match" in term.english]
    said, never = pattern(match.french), pattern(match.never)
    if language == "en":
        said, never = pattern(match.english), pattern(("game", "games"))
    i18n.use(language)
    try:
        # A game begun and left: an unfinished match, and its log among the latest.
        app = TablierApp(GooseSetup(("Ada", "Bob")), seeded_settings(tmp_path))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("space", "space")
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            if not isinstance(app.screen, LobbyScreen):
                await pilot.press(yes_key())  # "Leave this game for the lobby?"
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            lobby = app.screen
            await pilot.press("f4")
            await until(pilot, lambda: len(lobby.query(".list-title")) == 3, "every list")
            await app.workers.wait_for_complete()
            await pilot.pause()
            titles = [str(label.render()) for label in lobby.query(".list-title").results(Label)]
    finally:
        i18n.use("en")
    assert len(titles) == 3 and all(titles), titles  # unfinished, latest, network seats
    assert [title for title in titles if not said.search(title) or never.search(title)] == []
