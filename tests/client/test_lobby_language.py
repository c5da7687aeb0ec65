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


def test_the_language_and_the_identity_are_written_whole_and_never_through_a_link(
    tmp_path: Path,
) -> None:
    """The language file was written in place (``write_text``, following a link put as its
    name) and the identity through ``identity.tmp`` opened O_TRUNC (following a link put
    there, whose target it overwrote with the key); both now go through the one safe writer
    (client.private_file.write_whole: an O_EXCL temporary under a name nobody can guess,
    renamed over the name)."""
    import stat

    from client.config_files import IDENTITY_FILE, load_or_create_identity, save_language
    from client.private_file import RefusedDestination
    from protocol.errors import LocalProtocolError
    from protocol.identity import seeded_source

    victim = tmp_path / "victim"
    victim.write_text("mine")
    folder = tmp_path / "cfg"
    folder.mkdir()
    (folder / "identity.tmp").symlink_to(victim)
    first = load_or_create_identity(seeded_source("a"), folder)
    assert victim.read_text() == "mine"
    identity = folder / IDENTITY_FILE
    assert identity.read_bytes() == first.private_bytes()
    assert stat.S_IMODE(identity.stat().st_mode) == 0o600
    assert load_or_create_identity(seeded_source("b"), folder).public_key == first.public_key
    identity.write_bytes(b"not a key")
    with pytest.raises(LocalProtocolError, match="not a Tablier identity"):
        load_or_create_identity(seeded_source("a"), folder)
    save_language(folder, "fr")
    assert i18n.saved_language(folder) == "fr"
    (folder / i18n.LANGUAGE_FILE).unlink()
    (folder / i18n.LANGUAGE_FILE).symlink_to(victim)
    with pytest.raises(RefusedDestination):
        save_language(folder, "en")
    assert victim.read_text() == "mine"
