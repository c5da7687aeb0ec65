"""The story of a game in the reader's language (issue 18): the protocol gives clauses, the
client says them through its catalogue; the hazards keep their 1792 names, Jacquet its own
words; what two machines share (the JSON export) stays the same English."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from client import i18n
from client.game.story import tell
from client.game.turn import TurnEvent
from engine import goose, jacquet
from engine.jacquet import Move
from protocol.narrate import narrate, narrate_turns
from tests.client.terminal import ROOT, TABLIER, environment

NAMES = ("Alice", "Bruno")
NBSP = "\u00a0"


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.use("en")


def goose_story() -> list[TurnEvent]:
    return [
        goose.Thrown(0, (3, 2), 5), goose.Moved(0, 29, 34, 5, (30, 31, 32, 33, 34)),
        goose.Thrown(1, (6, 1), 7), goose.Moved(1, 51, 58, 7, (52, 53, 54, 55, 56, 57, 58)),
        goose.Death(1),
        goose.Thrown(0, (5, 4), 9), goose.Moved(0, 57, 60, 9, (58, 59, 60, 61, 62, 63, 62, 61, 60)),
        goose.Bounced(0, 3, 60),
    ]  # fmt: skip


def test_a_goose_story_reads_in_french_with_the_hazards_1792_names() -> None:
    i18n.use("fr")
    assert tell("goose", goose_story(), NAMES) == [
        "Alice jette 3+2 de 29 à 34.",
        f"Bruno jette 6+1 de 51 à 58{NBSP}; la mort (58){NBSP}: retour au départ.",
        "Alice jette 5+4 de 57 à 63 et 3 en arrière jusqu'à 60.",
    ]


def test_the_same_story_in_english_is_the_protocols_own_words() -> None:
    sentences = [str(sentence) for sentence in narrate_turns(goose_story(), NAMES)]
    assert tell("goose", goose_story(), NAMES) == sentences == [
        "Alice throws 3+2 from 29 to 34.",
        "Bruno throws 6+1 from 51 to 58; la mort (58): back to the start.",
        "Alice throws 5+4 from 57 to 63 and 3 back to 60.",
    ]


def test_jacquet_says_its_own_words_and_counts_its_points() -> None:
    i18n.use("fr")
    won = [jacquet.GameWon(1, 2, 2, (0, 2)), jacquet.GameWon(0, 1, 1, (1, 2))]
    assert tell("jacquet", won, NAMES) == [
        f"Bruno gagne la partie double{NBSP}: 2 points (score 0-2).",
        f"Alice gagne la partie simple{NBSP}: 1 point (score 1-2).",
    ]
    blocked = jacquet.PostillonBlocked(seat=0, winner=1, points=4, score=(0, 4))
    assert tell("jacquet", [blocked], NAMES) == [
        f"Alice a son postillon bloqué{NBSP}: Bruno gagne 4 points (score 0-4)."
    ]
    played = [jacquet.Moved(0, Move(1, 7), False), jacquet.Moved(0, Move(7, 12), False)]
    assert tell("jacquet", played, NAMES) == ["Alice joue 1/7 7/12."]


def test_a_name_is_never_read_as_a_pattern() -> None:
    """A hostile peer's name with braces in it is shown as it is, in both languages."""
    names = ("{who}", "{0.__class__}")
    for language in ("en", "fr"):
        i18n.use(language)
        clause = narrate(goose.LotTied(seats=(0, 1), point=7), names)
        assert clause is not None
        said = clause.say(i18n.words())
        assert "{who}" in said and "{0.__class__}" in said


def _export(log: Path, *args: str) -> str:
    done = subprocess.run([*TABLIER, *args, "log", "export", str(log)], capture_output=True,
                          text=True, env=environment(log.parent), cwd=ROOT, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_log_export_as_text_speaks_the_readers_language(tmp_path: Path) -> None:
    from protocol.selfplay import selfplay

    log = tmp_path / "goose.tablier"
    selfplay("goose", {}, players=2, seed="story", start_time=0, log_path=log)
    french, english = _export(log, "--lang", "fr"), _export(log, "--lang", "en")
    assert french.startswith("Jeu de l'oie, 2 joueurs, règles daumont, mise 4, amende 1\n")
    assert english.startswith("Jeu de l'oie, 2 players, rules daumont, ante 4, fee 1\n")
    assert " jette " in french and " throws " not in french
    assert len(french.splitlines()) == len(english.splitlines())
