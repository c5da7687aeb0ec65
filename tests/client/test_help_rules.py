"""The rules in full in the app (issue 18): each game's help ends with docs/rules.md's
section for that game and its worked examples, word for word in English, in French for a
French player."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Markdown

from client import help_topics, i18n
from client.app import TablierApp
from client.screens.help import HelpScreen
from client.setup import GooseSetup, JacquetSetup
from tests.client.conftest import seeded_settings

ROOT = Path(__file__).resolve().parents[2]
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.use("en")


def section(heading: str) -> str:
    """A section of docs/rules.md, from below its heading to the next rule (``---``)."""
    return RULES.split(f"{heading}\n\n", 1)[1].split("\n---", 1)[0].strip("\n")


def examples(game: str) -> list[str]:
    """The worked-examples table's header and the rows of *game* ("oie", "jacquet")."""
    table = section("## 3. Worked examples every engine must reproduce").splitlines()
    return [*table[:2], *(row for row in table[2:] if row.startswith(f"| {game} |"))]


@pytest.mark.parametrize(
    ("full", "heading", "game"),
    [(help_topics.GOOSE_FULL, "## 1. Jeu de l'oie (Game of the Goose)", "oie"),
     (help_topics.JACQUET_FULL, "## 2. Jacquet", "jacquet")],
)  # fmt: skip
def test_the_in_app_rules_are_docs_rules_md_word_for_word(
    full: str, heading: str, game: str
) -> None:
    expected = ("## The rules in full\n\n" + section(heading) + "\n\n### Worked examples\n\n"
                + "\n".join(examples(game)) + "\n")  # fmt: skip
    assert full == expected


@pytest.mark.parametrize(
    ("setup", "english", "french"),
    [(GooseSetup(("Ada", "Bob")), "### 1.5 Hazards", "### 1.5 Les mauvaises cases"),
     (JacquetSetup(), "### 2.4 The postillon", "### 2.4 Le postillon")],
)  # fmt: skip
async def test_the_help_ends_with_the_full_rules_in_the_reader_s_language(
    tmp_path: Path, setup: GooseSetup | JacquetSetup, english: str, french: str
) -> None:
    for language, heading in (("en", english), ("fr", french)):
        i18n.use(language)
        app = TablierApp(setup, seeded_settings(tmp_path / language))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("f1")
            await pilot.pause()
            help_screen = app.screen
            assert isinstance(help_screen, HelpScreen)
            while not help_screen.query("#full-rules"):  # laid out after the first paint
                await pilot.pause()
            bodies = [markdown.source for markdown in help_screen.query(Markdown)]
            assert len(bodies) == 2  # the summary and the keys, then the rules in full
            full = bodies[1]
            assert full.startswith("## Les règles complètes" if language == "fr"
                                   else "## The rules in full")  # fmt: skip
            assert heading in full
            assert (english if language == "fr" else french) not in full
            if language == "fr":  # the keys' table: the palette's row too
                assert "Palette de commandes" in bodies[0] and "palette" not in full
