"""A local session of several games keeps a running score: on the board's title from the
second game on, and on the end screen."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Label

from client.app import TablierApp
from client.screens.end import EndScreen
from client.screens.goose import GooseScreen
from client.setup import GooseSetup
from tests.client.conftest import seeded_settings


async def test_play_again_keeps_the_sessions_score_on_the_board_and_the_end_screen(
    tmp_path: Path,
) -> None:
    settings = seeded_settings(tmp_path, seed=9)  # two short games
    setup = GooseSetup(("Alice", "Bruno"), computer_seats=frozenset({0, 1}))
    app = TablierApp(setup, settings)
    async with app.run_test(size=(80, 24)) as pilot:
        while not isinstance(app.screen, EndScreen):
            await pilot.pause(0.01)
        first = board(app)
        assert "Running score" not in (first.sub_title or "")
        lines = [str(label.render()) for label in app.screen.query(Label)]
        assert not any("Running score" in line for line in lines)  # one game: no session yet
        winner = first.game.ended.winner if first.game.ended else None
        assert winner is not None
        await pilot.press("a")
        await pilot.pause()
        second = board(app)
        assert second is not first
        wins = ["1" if seat == winner else "0" for seat in (0, 1)]
        assert f"Running score after 1 game: Alice {wins[0]}, Bruno {wins[1]}" in (
            second.sub_title or ""
        )
        while not isinstance(app.screen, EndScreen) or board(app) is first:
            await pilot.pause(0.01)
        lines = [str(label.render()) for label in app.screen.query(Label)]
        assert any(line.startswith("Running score after 2 games: Alice ") for line in lines)


def board(app: TablierApp) -> GooseScreen:
    return next(screen for screen in app.screen_stack if isinstance(screen, GooseScreen))
