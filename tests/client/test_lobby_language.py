"""The lobby's language setting (issue 18): the lobby is drawn again in the language chosen,
which is kept for the next start; --lang and TABLIER_LANG still win over it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Select

from client import i18n
from client.app import TablierApp
from tests.client.conftest import screen_text, seeded_settings


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.use("en")


async def test_choosing_french_redraws_the_lobby_in_french_and_keeps_it(tmp_path: Path) -> None:
    config = tmp_path / "config"
    app = TablierApp(settings=seeded_settings(tmp_path, config_dir=config))
    async with app.run_test(size=(80, 24)) as pilot:
        assert "Play Jeu de l'oie" in screen_text(app) and "Language" in screen_text(app)
        app.screen.query_one("#language", Select).value = "fr"  # as a person picks it
        french = ("Jouer au jeu de l'oie", "Langue Français", "f5 Jouer", "^q Quitter")
        async with asyncio.timeout(60):  # the lobby, then its footer's keys, drawn again
            while not all(words in screen_text(app) for words in french):
                await pilot.pause(0.05)
        shown = screen_text(app)
        assert all(len(line) <= 80 for line in shown.splitlines())
    assert i18n.current() == "fr"
    assert i18n.saved_language(config) == "fr"
    assert i18n.choose(None, {"LANG": "en_US.UTF-8"}, i18n.saved_language(config)) == "fr"
    assert i18n.choose(None, {"TABLIER_LANG": "en"}, i18n.saved_language(config)) == "en"


def test_a_damaged_saved_language_is_ignored(tmp_path: Path) -> None:
    (tmp_path / i18n.LANGUAGE_FILE).write_bytes(b"\xff\xfeklingon")
    assert i18n.saved_language(tmp_path) is None
    assert i18n.saved_language(tmp_path / "nowhere") is None


def test_the_saved_language_lives_beside_the_identity() -> None:
    from protocol.identity import default_config_dir

    assert i18n.config_dir() == default_config_dir()
