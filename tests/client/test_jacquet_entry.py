"""Entering a Jacquet play at 80x24 without the mouse: putting a picked checker back.

Seed 65 (see test_jacquet_screen): the opening ties at 3-3, white wins it 4-3 and throws
5-6; only his talon (1) may move.
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from client.app import TablierApp
from client.screens.jacquet import JacquetScreen
from engine.awaiting import ChoosePlay
from engine.jacquet import WHITE
from tests.client.test_jacquet_screen import jacquet_app, message, move_cursor

SIZE = (80, 24)


def footer_keys(app: TablierApp) -> dict[str, str]:
    """What the footer offers: each key shown, by its label."""
    footer = app.screen.query_one(Footer)
    return {str(key.description): key.key for key in footer.query(FooterKey)}


async def test_esc_or_backspace_puts_a_picked_checker_back_and_the_footer_says_so(
    tmp_path: Path,
) -> None:
    app = jacquet_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, JacquetScreen)
        await pilot.press("r", "r", "r")
        assert screen.game.awaiting == ChoosePlay(WHITE, (5, 6))
        assert "Put back" not in footer_keys(app) and "Lobby" in footer_keys(app)

        await pilot.press("enter")  # picks the talon; the cursor jumps to 6
        assert screen.board.marks.selected == 1 and screen.board.marks.cursor == 6
        assert message(app).endswith("Esc puts it back.")
        await pilot.pause()
        keys = footer_keys(app)
        assert keys["Put back"] == "escape" and "Lobby" not in keys

        await pilot.press("escape")  # back on its point, nothing left picked, still playing
        assert screen.board.marks.selected is None and screen.board.marks.targets == set()
        assert screen.board.marks.cursor == 1
        assert app.screen is screen and message(app).startswith("Blanc: pick a checker")
        await pilot.pause()
        assert "Put back" not in footer_keys(app) and "Lobby" in footer_keys(app)

        # Backspace too; with nothing picked it is Undo again (a move entered is taken back).
        await pilot.press("enter", "backspace")
        assert screen.board.marks.selected is None
        await pilot.press("enter")
        await move_cursor(pilot, 12)
        await pilot.press("enter")
        assert message(app).startswith("Blanc: 1/6 6/12 - enter to confirm")
        await pilot.press("backspace")
        assert screen.board.view.mine[5] == 1 and screen.board.view.mine[11] == 0
