"""The lobby: games start from it, bad settings are explained and nothing typed is lost."""

from __future__ import annotations

from textual.widgets import Input, Select, Static

from client.app import TablierApp
from client.screens.goose import GooseScreen
from client.screens.lobby import LobbyScreen, SeatRow
from client.setup import SessionSettings


async def test_lobby_starts_a_goose_game_with_the_chosen_players(
    settings: SessionSettings,
) -> None:
    app = TablierApp(settings=settings)
    async with app.run_test(size=(80, 30)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        lobby.query_one("#goose-players", Select).value = 4
        await pilot.pause()
        assert [row.display for row in lobby.query(SeatRow)][:5] == [True] * 4 + [False]
        lobby.query_one("#seat-3 .name", Input).value = "Zoé"
        await pilot.click("#seat-1 .computer")
        await pilot.press("f5")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GooseScreen)
        assert screen.game.names == ("Alice", "Bruno", "Chloé", "Zoé")
        assert screen.game.setup.computer_seats == {1}


async def test_bad_settings_are_explained_and_kept(settings: SessionSettings) -> None:
    app = TablierApp(settings=settings)
    async with app.run_test(size=(80, 30)) as pilot:
        lobby = app.screen
        lobby.query_one("#goose-fee", Input).value = "-2"
        lobby.query_one("#seat-1 .name", Input).value = "alice"
        await pilot.click("#play-goose")
        await pilot.pause()
        error = str(lobby.query_one("#goose-error", Static).render())
        assert error == "Two players are called 'alice': give each a different name"
        lobby.query_one("#seat-1 .name", Input).value = "Bruno"
        await pilot.press("f5")
        await pilot.pause()
        error = str(lobby.query_one("#goose-error", Static).render())
        assert error == "The fee cannot be negative (-2)"
        assert app.screen is lobby
        assert lobby.query_one("#goose-fee", Input).value == "-2"
