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


async def test_the_join_forms_error_wraps_and_quotes_what_was_pasted_uncut(
    tmp_path: Path,
) -> None:
    from textual.widgets import Input

    from client.screens.room import JoinScreen
    from tests.client.conftest import screen_text

    pasted = "https://example.org/not-an-invite-garbage"  # 41 characters: the longest quoted
    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(JoinScreen(app.settings, "Bob"))
        for typed, quoted in ((pasted[:-1], pasted[:-1]), (pasted, pasted[:39] + "…")):
            app.screen.query_one("#join-invite", Input).value = typed
            await pilot.press("enter")
            await pilot.pause()
            error = app.screen.query_one("#join-error")
            assert _inside(error, app.screen.query_one("#join-form"))
            words = " ".join(screen_text(app).split())
            assert ("An invite starts with tablier:// (or tabliers:// for a TLS relay), not "
                    f"'{quoted}'") in words  # fmt: skip
