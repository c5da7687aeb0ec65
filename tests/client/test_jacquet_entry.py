"""Entering a Jacquet play at 80x24 without the mouse: putting a picked checker back, and a
play typed in the notation the logs use.

Seed 65 (see test_jacquet_screen): the opening ties at 3-3, white wins it 4-3 and throws
5-6; only his talon (1) may move.
"""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from client.app import TablierApp
from client.screens.jacquet import JacquetScreen
from client.widgets.play_input import PlayInput
from engine.awaiting import ChoosePlay, ThrowDice
from engine.jacquet import BLACK, WHITE, Move, Position, apply_play
from tests.client.conftest import until
from tests.client.test_jacquet_screen import (
    jacquet_app,
    message,
    move_cursor,
    offered,
    press_when_offered,
)

SIZE = (80, 24)


def footer_keys(app: TablierApp) -> dict[str, str]:
    """What the footer offers: each key shown, by its label."""
    footer = app.screen.query_one(Footer)
    return {str(key.description): key.key for key in footer.query(FooterKey)}


async def white_to_play(pilot: Pilot[None]) -> JacquetScreen:
    """The opening thrown (a tie, then white 4-3): white to play 5-6."""
    screen = pilot.app.screen
    assert isinstance(screen, JacquetScreen)
    await press_when_offered(pilot, "r", "r", "r")
    await offered(pilot, "type_play")
    assert screen.game.awaiting == ChoosePlay(WHITE, (5, 6))
    return screen


async def test_esc_or_backspace_puts_a_picked_checker_back_and_the_footer_says_so(
    tmp_path: Path,
) -> None:
    app = jacquet_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await white_to_play(pilot)
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
        assert message(app) == "Blanc: 1/6 6/12. Press enter to play it, or u to take a move back."
        await pilot.press("backspace")
        assert screen.board.view.mine[5] == 1 and screen.board.view.mine[11] == 0


async def test_a_play_typed_in_notation_is_refused_in_the_boards_words_or_played(
    tmp_path: Path,
) -> None:
    app = jacquet_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await white_to_play(pilot)
        await pilot.pause()
        assert footer_keys(app)["Type"] == "m"
        field = screen.query_one(PlayInput)
        assert not field.display

        await pilot.press("m")
        assert field.display and field.has_focus
        await pilot.press(*"8/12", "enter")  # the board's own sentence, naming the move
        assert message(app) == "8/12: you have no checker on 8"
        field.value = ""
        await pilot.press(*"1/9", "enter")
        assert message(app) == "1/9: 1 to 9 is 8 points; the dice left are 5 and 6"
        field.value = ""
        await pilot.press(*"1-7", "enter")
        assert message(app) == "'1-7' is not a move; write from/to, e.g. 1/7 or 21/off"
        field.value = ""
        await pilot.press(*"1/6 6/12 12/15", "enter")  # one too many: named, the line kept
        assert message(app) == "12/15 is one move too many: the dice 5-6 are used by 1/6 6/12"
        assert field.display and field.has_focus and field.value == "1/6 6/12 12/15"
        await pilot.press("u")  # the text's, not the board's undo
        assert field.value == "1/6 6/12 12/15u"
        assert screen.board.view.mine[0] == 15  # nothing entered by any of these
        await pilot.press("escape")  # closed, the keys back on the board
        assert not field.display and screen.board.has_focus and app.screen is screen

        await pilot.press("m", *"1/7 7/12", "enter")  # complete: its enter plays it
        assert screen.game.state.position == apply_play(
            Position.initial(WHITE), (Move(1, 7), Move(7, 12))
        )
        assert not field.display
        await press_when_offered(pilot, "r")  # black throws 2-1; a digit starts the line
        await offered(pilot, "type_play")
        assert screen.game.awaiting == ChoosePlay(BLACK, (2, 1))
        await pilot.press("1")
        assert field.display and field.value == "1"
        await pilot.press(*"/4", "enter")  # one checker over both dice: 1/2 2/4 or 1/3 3/4
        assert screen.game.state.position.count(BLACK, 4) == 1
        assert screen.game.awaiting == ThrowDice(WHITE, 2)


async def test_the_typed_line_says_what_to_do_next_and_a_whole_play_waits_for_enter(
    tmp_path: Path,
) -> None:
    # The line once held a whole play while the screen still said "pick a checker to move":
    # what it holds is said as it is typed, and a whole play says enter plays it.
    app = jacquet_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await white_to_play(pilot)
        await pilot.press("m")
        typing = "Blanc: type the moves for 5 6, then press enter (esc: back to the board)."
        assert message(app) == typing
        await pilot.press(*"1/6")
        await pilot.pause()
        assert message(app) == typing  # not whole yet: more to type
        await pilot.press("space", *"6/12")
        await pilot.pause()
        assert message(app) == "Blanc: 1/6 6/12 completes the play: press enter to play it."
        assert screen.board.view.mine[0] == 15  # nothing entered until enter
        await pilot.press("escape")  # back to the board: its own prompt again
        assert message(app).startswith("Blanc: pick a checker to move")
        await pilot.press("m", *"1/6", "enter")  # a move entered, then the rest typed
        assert message(app) == "Blanc: pick a checker to move (dice left: 6)."
        await pilot.press("m", *"6/12")
        await pilot.pause()
        assert message(app) == "Blanc: 6/12 completes the play: press enter to play it."
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(screen.game.awaiting, ThrowDice), "played")
