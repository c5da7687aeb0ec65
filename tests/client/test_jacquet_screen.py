"""The Jacquet screen driven like a person would: keys, clicks, refusals, undo, a pass.

The dice are the protocol's, from a seeded random source and a fixed clock. With seed 65 the
match goes: opening 3-3 (a tie), then white 4, black 3; white 5-6; black 2-1; white 1-1,
which cannot be played (his postillon is on 12 and 13 is black's talon): a forced pass;
black 1-2.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from client.app import TablierApp
from client.screens.end import EndScreen
from client.screens.jacquet import JacquetScreen
from client.setup import JacquetSetup
from client.widgets.jacquet_board import (
    BoardGeometry,
    BoardMarks,
    BoardView,
    JacquetBoard,
    visual_place,
)
from client.widgets.narrative import NarrativeLog
from engine.awaiting import ChoosePlay, ThrowDice
from engine.jacquet import BLACK, WHITE, Move, Position, apply_play
from tests.client.conftest import seeded_settings

SnapCompare = Callable[..., bool]
SEED = 65


def jacquet_app(tmp_path: Path, *, animation: bool = False, **setup: object) -> TablierApp:
    settings = seeded_settings(tmp_path, seed=SEED, animation=animation)
    return TablierApp(JacquetSetup(**setup), settings)  # type: ignore[arg-type]


async def wait_for(pilot: Pilot[None], condition: Callable[[], bool]) -> None:
    """Let the app run until *condition* holds: the computer acts in a worker, in its time.
    No deadline of its own (a budget that a busy machine overran let the test go on and fail
    further down, misleadingly): pytest-timeout (pyproject) stops a real hang, at this line."""
    while not condition():
        await pilot.pause(0.02)


def screen_of(app: TablierApp) -> JacquetScreen:
    assert isinstance(app.screen, JacquetScreen)
    return app.screen


def message(app: TablierApp) -> str:
    return str(app.screen.query_one("#jacquet-message", Static).render())


def narrative(app: TablierApp) -> str:
    """The side log's text, its wrapped lines joined back together."""
    lines = app.screen.query_one(NarrativeLog).lines
    return " ".join(" ".join(line.text.split()) for line in lines)


async def move_cursor(pilot: Pilot[None], target: int) -> None:
    """Walk the board cursor to *target* with the arrow keys, as a person would."""
    board = pilot.app.screen.query_one(JacquetBoard)
    top, column = visual_place(board.marks.cursor or 1)
    goal_top, goal_column = visual_place(target)
    if top != goal_top:
        await pilot.press("up" if goal_top else "down")
    step = "right" if goal_column > column else "left"
    await pilot.press(*[step] * abs(goal_column - column))
    assert board.marks.cursor == target


async def click_point(pilot: Pilot[None], point: int) -> None:
    board = pilot.app.screen.query_one(JacquetBoard)
    geometry = BoardGeometry.fit(board.content_size)
    top, column = visual_place(point)
    x = geometry.column_x(column) + 1
    y = 1 if top else geometry.height - 2
    await pilot.click(JacquetBoard, offset=(x, y))


async def test_turns_entered_by_keys_and_by_clicks_with_undo_refusals_and_a_pass(
    tmp_path: Path,
) -> None:
    app = jacquet_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = screen_of(app)
        await press_when_offered(pilot, "r", "r", "r")
        await offered(pilot, "type_play")
        assert "a tie, they throw again" in narrative(app)
        assert screen.game.awaiting == ChoosePlay(WHITE, (5, 6))
        assert message(app) == "Blanc: pick a checker to move (dice left: 5 6)."

        # Keys: the cursor starts on the only checker that may move; pick it, walk to 12.
        await pilot.press("enter")
        assert message(app).startswith("Blanc: the checker on 1 may go to 6, 7, 12.")
        assert screen.board.marks.targets == {6, 7, 12}
        await move_cursor(pilot, 12)
        await pilot.press("enter")
        assert message(app).startswith("Blanc: 1/6 6/12. Press enter to play it")
        await pilot.press("u")  # undo takes back 6/12, leaving 1/6
        assert screen.board.view.mine[5] == 1 and screen.board.view.mine[11] == 0
        await move_cursor(pilot, 6)
        await pilot.press("space")
        await move_cursor(pilot, 12)
        await pilot.press("space", "enter")
        await offered(pilot, "throw")  # white's play shown: black's dice to throw
        after_white = apply_play(Position.initial(WHITE), (Move(1, 7), Move(7, 12)))
        assert screen.game.state.position == after_white
        assert screen.game.awaiting == ThrowDice(BLACK, 2)

        # Hot-seat: the board now faces black; white's play is highlighted in his numbering.
        assert screen.board.view.viewer == BLACK
        assert screen.board.marks.recent == {13, 18, 24}  # white's 1/6 6/12, seen by black
        await press_when_offered(pilot, "r")
        await offered(pilot, "type_play")

        # Clicks: black picks his talon and clicks 4 (two steps), after two refusals.
        await click_point(pilot, 8)
        assert message(app) == "you have no checker on 8"
        await click_point(pilot, 1)
        await click_point(pilot, 9)
        assert message(app) == "1 to 9 is 8 points; the dice left are 2 and 1"
        await click_point(pilot, 4)
        await pilot.press("enter")
        await offered(pilot, "throw")
        assert screen.game.state.position.count(BLACK, 4) == 1
        assert "Noir plays 1/2 2/4." in narrative(app)

        # White's 1-1 cannot be played: announced, and the turn passes on enter.
        await press_when_offered(pilot, "r")
        await offered(pilot, "confirm")
        assert message(app) == "Blanc cannot play 1-1: the turn passes. Press enter."
        assert screen.board.view.viewer == WHITE  # still facing the player who passed
        await pilot.press("enter")
        await offered(pilot, "throw")
        assert screen.game.awaiting == ThrowDice(BLACK, 2)
        assert screen.board.view.viewer == BLACK

        # Black's 1-2: his talon may not move while the postillon is out.
        await press_when_offered(pilot, "r")
        await offered(pilot, "type_play")
        await click_point(pilot, 1)
        assert message(app).startswith("no legal move from 1: the postillon must reach")
        assert screen.game.awaiting == ChoosePlay(BLACK, (1, 2))


def computer_played_for(app: TablierApp) -> bool:
    """Black (the computer) has played and his play has been shown: white is asked to throw.
    (The game awaits white's throw as soon as black's play is sent, while the screen still
    shows it: the prompt comes once it is shown.)"""
    screen = screen_of(app)
    return screen.game.awaiting == ThrowDice(WHITE, 2) and "press r to throw" in message(app)


async def test_against_the_computer_the_board_stays_with_the_person(tmp_path: Path) -> None:
    app = jacquet_app(tmp_path, computer_seats=frozenset({BLACK}))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = screen_of(app)
        await white_plays_1_6_6_12(pilot)
        # The computer throws 2-1 and plays it in its worker; shown, white is asked to throw.
        await wait_for(pilot, lambda: computer_played_for(app))
        assert screen.game.awaiting == ThrowDice(WHITE, 2)
        assert screen.board.view.viewer == WHITE
        black_moved = screen.game.state.position.points(BLACK)
        assert sum(black_moved[1:]) == 1 and black_moved[3] == 1  # his postillon on his 4
        assert 16 in screen.board.marks.recent  # black's 4 is white's 16, highlighted
        assert "Noir plays" in narrative(app)
        # Her turn to throw: the dice shown are hers to throw, not black's 2-1 (issue 29).
        assert screen._status().dice == ()


async def test_the_computers_pass_is_told_to_the_person_who_throws_next(tmp_path: Path) -> None:
    app = jacquet_app(tmp_path, computer_seats=frozenset({WHITE}))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = screen_of(app)
        # The computer throws the opening (twice) and plays its 5-6.
        await wait_for(pilot, lambda: screen.game.awaiting == ThrowDice(BLACK, 2))
        assert screen.board.view.viewer == BLACK
        await press_when_offered(pilot, "r")
        await offered(pilot, "type_play")
        await click_point(pilot, 1)
        await click_point(pilot, 4)
        await pilot.press("enter")  # black 1/2 2/4; white's 1-1 then cannot be played
        await wait_for(pilot, lambda: screen.game.awaiting == ThrowDice(BLACK, 2))
        assert message(app) == "Blanc could not play 1-1. Noir, your turn: press r to throw."


async def test_the_computers_play_is_shown_one_move_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = jacquet_app(tmp_path, animation=True, computer_seats=frozenset({BLACK}))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = screen_of(app)
        board = screen.board
        shown: list[tuple[int, ...]] = []  # black's checkers on the board, each time drawn
        draw = board.show

        def drawing(view: BoardView | None = None, marks: BoardMarks | None = None) -> None:
            draw(view, marks)
            if not shown or shown[-1] != board.view.theirs:
                shown.append(board.view.theirs)

        monkeypatch.setattr(board, "show", drawing)
        await white_plays_1_6_6_12(pilot)
        await wait_for(pilot, lambda: computer_played_for(app))
        # Black's 2-1 from his talon (white's 13): one checker out, then on to his 4 (16).
        halfway = [view for view in shown if view[12] == 14 and view[15] == 0]
        assert halfway, "the first move should have been shown on its own"
        assert shown[-1][12] == 14 and shown[-1][15] == 1


async def test_the_computer_plays_a_whole_match_against_itself(tmp_path: Path) -> None:
    app = jacquet_app(tmp_path, computer_seats=frozenset({0, 1}), match_to=2)
    async with app.run_test(size=(80, 24)) as pilot:
        # The computer may have finished before the test looks: find the game's screen.
        (screen,) = (screen for screen in app.screen_stack if isinstance(screen, JacquetScreen))
        game = screen.game
        await wait_for(pilot, lambda: isinstance(app.screen, EndScreen))
        assert isinstance(app.screen, EndScreen)
        assert game.finished and max(game.state.score) >= 2
        await pilot.pause()
        # The end says how the last game was won, its value included (issue 29, item 11).
        lines = [str(label.render()) for label in app.screen.query(".result-line")]
        # (or a postillon blocked: "…'s postillon is blocked: Noir wins 4 points (score 0-4).")
        assert re.fullmatch(r".+ wins (the game (simple|double|triple|quadruple): )?\d points? "
                            r"\(score \d-\d\)\.", lines[0]), lines  # fmt: skip
        assert lines[1].startswith("Final score:")


KEY_ACTIONS = {"r": "throw", "enter": "confirm"}


async def offered(pilot: Pilot[None], action: str) -> None:
    """Until the screen offers *action* (its key in the footer), as a person waits for the
    dice, the pass notice or the prompt to play: a key or a click before that does nothing,
    and on a loaded machine the turn before may still be on its way after a key's time."""
    screen = screen_of(pilot.app)
    await wait_for(pilot, lambda: bool(screen.check_action(action, ())))
    assert screen.check_action(action, ()), f"{action} was never offered"


async def press_when_offered(pilot: Pilot[None], *keys: str) -> None:
    for key in keys:
        await offered(pilot, KEY_ACTIONS[key])
        await pilot.press(key)


async def white_plays_1_6_6_12(pilot: Pilot[None]) -> None:
    """The opening thrown (a tie, then white 4-3), white picks his talon and plays 5-6 as
    1/6 6/12, each key once the screen offers it."""
    await press_when_offered(pilot, "r", "r", "r")
    await offered(pilot, "type_play")
    await press_when_offered(pilot, "enter")  # picks the talon
    await move_cursor(pilot, 12)
    await press_when_offered(pilot, "enter", "enter")  # 1/6 6/12, confirmed


async def _black_picks_his_postillon(pilot: Pilot[None]) -> None:
    """Tie, white 1/7 7/12, black 1/3 3/4, white passes; black throws 1-2, picks 4."""
    await press_when_offered(pilot, "r", "r", "r")
    await offered(pilot, "type_play")
    await press_when_offered(pilot, "enter")
    await move_cursor(pilot, 12)
    await press_when_offered(pilot, "enter", "enter", "r")
    await offered(pilot, "type_play")
    await click_point(pilot, 1)
    await click_point(pilot, 4)
    await press_when_offered(pilot, "enter", "r", "enter", "r")
    await offered(pilot, "type_play")
    await click_point(pilot, 4)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_board_mid_game(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    app = jacquet_app(tmp_path)
    assert snap_compare(app, run_before=_black_picks_his_postillon, terminal_size=size)


async def test_help_lists_the_board_cursor_keys_and_how_a_play_is_entered(
    tmp_path: Path,
) -> None:
    from client.screens.help import HelpScreen

    app = jacquet_app(tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("f1")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        keys = dict((description, key) for key, description in help_screen.keys)
        assert keys["Cursor"] == "←→↑↓"  # the footer's keys are all in the table
        assert keys["Pick/Confirm"] == "⏎" and keys["Throw"] == "r"
        assert "arrows" in help_screen.rules and "click" in help_screen.rules


async def test_no_entry_keys_are_offered_when_nobody_plays_from_this_terminal(
    tmp_path: Path,
) -> None:
    settings = seeded_settings(tmp_path, seed=SEED, computer_pause=30.0, animation=True)
    app = TablierApp(JacquetSetup(computer_seats=frozenset({0, 1})), settings)
    async with app.run_test(size=(80, 24)):
        screen = screen_of(app)
        for action in ("throw", "confirm", "undo"):
            assert screen.check_action(action, ()) is False  # hidden, not just dimmed


async def test_the_header_names_the_game_being_played(tmp_path: Path) -> None:
    app = jacquet_app(tmp_path, match_to=5)
    async with app.run_test(size=(80, 24)):
        assert screen_of(app).sub_title == "Jacquet · match to 5 · backgammon bear-off"
