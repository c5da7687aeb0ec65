"""The dialogs (quit confirmation, end of game) at 80x24 with a real-length log path."""

from __future__ import annotations

from pathlib import Path

from textual.widget import Widget

from client.app import TablierApp
from client.screens.confirm import ConfirmScreen
from client.screens.end import EndScreen
from client.setup import GooseSetup
from tests.client.conftest import seeded_settings

# As long as a default one: ~/.local/share/tablier/matches/<date>-goose-<names>.tablier
LONG_LOG = "home/someone/.local/share/tablier/matches/2026-11-30T143404-goose-alice-bruno.tablier"


def _inside(widget: Widget, dialog: Widget) -> bool:
    return dialog.content_region.contains_region(widget.region)


async def test_a_long_log_path_wraps_inside_the_dialogs_instead_of_being_cut(
    tmp_path: Path,
) -> None:
    log_path = tmp_path / LONG_LOG
    log_path.parent.mkdir(parents=True)
    settings = seeded_settings(tmp_path, seed=14, log_path=log_path)
    app = TablierApp(GooseSetup(("Alice", "Bruno")), settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
        confirm = app.screen
        assert isinstance(confirm, ConfirmScreen)
        detail = confirm.query_one("#detail")
        assert str(log_path) in str(detail.render())
        assert _inside(detail, confirm.query_one("#dialog"))
        await pilot.press("n")
        for _ in range(1000):
            if isinstance(app.screen, EndScreen):
                break
            await pilot.press("space")
        end = app.screen
        assert isinstance(end, EndScreen)
        await pilot.pause()
        path_line = end.query_one("#log-path")
        assert str(log_path) in str(path_line.render())
        assert _inside(path_line, end.query_one("#dialog"))
