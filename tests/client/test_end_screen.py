"""The end-of-game dialog at 80x24 with fifteen Goose players: everything in it can be seen."""

from __future__ import annotations

from pathlib import Path

from textual.widget import Widget

from client.app import TablierApp
from client.screens.end import EndScreen, GameSummary
from client.setup import DEFAULT_GOOSE_NAMES
from tests.client.conftest import screen_text, seeded_settings

NAMES = DEFAULT_GOOSE_NAMES[:15]
LONG_LOG = "home/someone/.local/share/tablier/matches/2026-11-30T143404-goose-alice-bruno.tablier"


def _fifteen_players(log_path: Path) -> GameSummary:
    """The summary the Goose screen gives for a game of fifteen (playing one out takes 12 s)."""
    balances = [f"{name}: put in 9, took 0, balance -9" for name in NAMES[1:]]
    lines = (f"{NAMES[0]} takes the pot of 135 tokens.", f"{NAMES[0]}: put in 9, took 135, "
             "balance +126", *balances)  # fmt: skip
    return GameSummary(f"{NAMES[0]} reaches le jardin de l'oie and wins!", lines, log_path)


def _shown(widget: Widget, dialog: Widget) -> bool:
    """Whether *widget* is wholly inside the dialog's visible part."""
    return dialog.content_region.contains_region(widget.region)


async def test_fifteen_balances_the_log_and_the_buttons_can_all_be_seen_at_80x24(
    tmp_path: Path,
) -> None:
    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        end = EndScreen(_fifteen_players(tmp_path / LONG_LOG))
        await app.push_screen(end)
        await pilot.pause()
        dialog = end.query_one("#dialog")
        buttons = [end.query_one(f"#{name}") for name in ("again", "lobby", "quit")]
        assert all(_shown(button, dialog) for button in buttons)  # always, not scrolled to
        assert _shown(end.query_one("#title"), dialog)
        balances = list(end.query(".result-line"))[1:]  # after the pot's headline
        assert len(balances) == 15
        seen: set[int] = set()
        for _ in range(10):  # page down until the log's path shows; every balance passes by
            seen |= {i for i, line in enumerate(balances) if _shown(line, dialog)}
            if _shown(end.query_one("#log-path"), dialog):
                break
            await pilot.press("pagedown")
            await pilot.pause()
        assert _shown(end.query_one("#log-path"), dialog)
        assert seen == set(range(15))
        assert all(_shown(button, dialog) for button in buttons)
        assert "Match log saved to" in screen_text(app)
        assert "pgup pgdn Scroll" in screen_text(app).splitlines()[-1]  # the footer says so
        await pilot.press("pageup", "pageup", "pageup")
        await pilot.pause()
        assert _shown(balances[0], dialog)
        await pilot.press("tab")  # focus moves along the buttons, which stay in view
        assert app.focused in buttons and _shown(app.focused, dialog)
        await pilot.resize_terminal(120, 40)  # room enough: everything at once
        await pilot.pause()
        shown = [*balances, end.query_one("#log-path"), *buttons]
        assert all(_shown(widget, dialog) for widget in shown)
