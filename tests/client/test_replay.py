"""``tablier replay``: a log's positions are the engine's, step by step, both ways.

Logs are made by the protocol's in-memory match (seeded, fixed clock) with the level-1 bot
choosing Jacquet plays, keeping every state the live match went through to compare with.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList, Static

from client.app import ReplayApp
from client.cli import main
from client.game.replay import ReplayGame, ReplayRefused, load_replay
from client.screens.game import GameScreen
from client.screens.jacquet_view import board_view
from client.widgets.goose_board import GooseBoard
from client.widgets.jacquet_board import JacquetBoard
from engine.awaiting import ChoosePlay, Finished, ThrowDice
from engine.bot import choose_play
from protocol.identity import seeded_source
from protocol.local import LocalMatch
from protocol.logfile import read_log
from tests.client.conftest import FIXED_TIME_MS, until

JACQUET_THROWS = 8


def record_match(path: Path, game: str, names: tuple[str, ...], throws: int) -> list[Any]:
    """Play *throws* throws (and the plays between them) into a log; return every state."""
    match = LocalMatch.create(
        game, {}, names=names, random_source=seeded_source(f"replay-{game}"),
        now=FIXED_TIME_MS, log_path=path,
    )  # fmt: skip
    states = [match.state]
    while not isinstance(match.awaiting, Finished) and throws:
        awaiting = match.awaiting
        if isinstance(awaiting, ThrowDice):
            match.throw(awaiting.seat, FIXED_TIME_MS)
            throws -= 1
        else:
            assert isinstance(awaiting, ChoosePlay)
            play = choose_play(match.state.position, awaiting.dice)
            match.play(awaiting.seat, play, FIXED_TIME_MS)
        states.append(match.state)
    match.close()
    return states


@pytest.fixture
def jacquet_log(tmp_path: Path) -> tuple[Path, list[Any]]:
    path = tmp_path / "jacquet.tablier"
    return path, record_match(path, "jacquet", ("Blanc", "Noir"), JACQUET_THROWS)


def position(screen: GameScreen) -> str:
    """The status line under the board: step, throw, playing or paused."""
    return str(screen.query_one("#replay-bar", Static).render())


def replay_screen(app: ReplayApp) -> GameScreen:
    """The game's own screen, driven by the log."""
    assert isinstance(app.screen, GameScreen) and isinstance(app.screen.game, ReplayGame)
    return app.screen


def replayed(screen: GameScreen) -> ReplayGame:
    assert isinstance(screen.game, ReplayGame)
    return screen.game


async def test_stepping_forward_and_back_shows_exactly_the_engine_positions(
    jacquet_log: tuple[Path, list[Any]],
) -> None:
    path, states = jacquet_log
    replay = load_replay(path)
    assert [frame.state for frame in replay.frames] == states
    assert replay.warning is None and replay.throws == JACQUET_THROWS
    app = ReplayApp(replay)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = replay_screen(app)
        board = screen.query_one(JacquetBoard)
        story = screen.query_one("#story", OptionList)
        for index, state in enumerate(states):
            assert screen.game.state == state
            assert board.view == board_view(state.position, 0)
            assert story.highlighted == index
            told = [str(story.get_option_at_index(k).prompt) for k in range(story.option_count)]
            assert told == list(replayed(screen).stories[: index + 1])  # up to the board only
            await pilot.press("right")
        assert replayed(screen).index == len(states) - 1  # stepping past the end stays there
        for index, state in reversed(list(enumerate(states))):
            assert board.view == board_view(state.position, 0)
            assert story.option_count == index + 1  # a step back takes the lines after it
            await pilot.press("left")
        assert replayed(screen).index == 0

        await pilot.press("end")
        assert screen.game.state == states[-1]
        await pilot.press("9", "9", "enter")  # refused: the log has 8 throws
        assert screen.game.state == states[-1]
        await pilot.press("1", "7", "backspace", "enter")
        assert replayed(screen).replay.frames[replayed(screen).index].throws == 1
        assert replayed(screen).replay.frames[replayed(screen).index - 1].throws == 0
        assert f"throw 1/{JACQUET_THROWS}" in position(screen)
        await pilot.press("f")  # the board seen from black's side
        assert board.view == board_view(screen.game.state.position, 1)
        await pilot.press("home")
        assert replayed(screen).index == 0


async def test_autoplay_runs_to_the_end_at_the_chosen_speed(
    jacquet_log: tuple[Path, list[Any]],
) -> None:
    path, states = jacquet_log
    app = ReplayApp(load_replay(path))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = replay_screen(app)
        bar = screen.query_one("#replay-bar", Static)
        said: list[str] = []  # every status the bar showed: three steps at 8/s are soon over,
        show = bar.update  # on a busy machine before the keys' wait ends; read them all

        def update(content: Any = "", **kwargs: Any) -> None:
            said.append(str(content))
            show(content, **kwargs)

        bar.update = update  # type: ignore[method-assign]
        await pilot.press("end", "left", "left", "left")
        await pilot.press("plus", "plus", "plus", "space")  # 8 steps a second
        await until(pilot, lambda: "paused" in position(screen), "the autoplay's end")
        playing = [index for index, text in enumerate(said) if "playing at 8 steps/s" in text]
        assert playing and said[playing[0] - 1].endswith("paused")  # it said so as it began
        assert said[-1].endswith("paused") and "Step 14/14" in said[-1]
        assert replayed(screen).index == len(states) - 1
        assert screen.game.state == states[-1]


async def test_a_goose_log_replays_on_the_goose_board(tmp_path: Path) -> None:
    path = tmp_path / "goose.tablier"
    states = record_match(path, "goose", ("Alice", "Bruno", "Chloé"), 9)
    replay = load_replay(path)
    assert [frame.state for frame in replay.frames] == states
    app = ReplayApp(replay)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = replay_screen(app)
        await pilot.press("end")
        assert screen.query_one(GooseBoard).squares == states[-1].squares
        assert "throws" in replay.frames[-1].story


def test_a_tampered_log_is_refused_with_the_reason(
    jacquet_log: tuple[Path, list[Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _states = jacquet_log
    contents = read_log(path)
    data = bytearray(path.read_bytes())
    data[contents.offsets[6] - 1] ^= 0x01  # the last byte of record 5 (from 0): its signature
    path.write_bytes(bytes(data))
    with pytest.raises(ReplayRefused, match="fails verification: record 5 "):
        load_replay(path)
    assert main(["replay", str(path)]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"tablier replay: {path}: record 5 ")  # the file and the record
    assert error.count("\n") == 1


def test_a_file_that_is_not_a_log_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a match log")
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err.startswith("tablier replay: ")


async def test_a_truncated_log_replays_its_good_records_with_a_warning(
    jacquet_log: tuple[Path, list[Any]],
) -> None:
    path, states = jacquet_log
    path.write_bytes(path.read_bytes()[:-5])
    replay = load_replay(path)
    assert replay.warning is not None and "replaying up to its last good record" in replay.warning
    assert [frame.state for frame in replay.frames] == states[: len(replay.frames)]
    assert len(replay.frames) >= len(states) - 1
    app = ReplayApp(replay)
    async with app.run_test(size=(80, 24)) as pilot:
        warning = app.screen.query_one("#replay-warning", Static)
        assert warning.display and "damaged" in str(warning.render())
        await pilot.press("end")
        assert replay_screen(app).game.state == replay.frames[-1].state


async def test_a_click_on_the_story_jumps_there_and_fast_keys_are_not_undone(
    jacquet_log: tuple[Path, list[Any]],
) -> None:
    path, states = jacquet_log
    app = ReplayApp(load_replay(path))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = replay_screen(app)
        for _ in range(6):  # as fast as a held key: no pause for the screen between them
            replayed(screen).step(1)
        await pilot.pause()
        assert replayed(screen).index == 6
        story = screen.query_one("#story", OptionList)
        await pilot.click(story, offset=(2, 2))  # under the border: the opening throw
        assert replayed(screen).index == 1 and screen.game.state == states[1]


async def test_help_in_a_replay_is_the_framed_dialog_without_the_players_turn_keys(
    jacquet_log: tuple[Path, list[Any]],
) -> None:
    from client.screens.help import HelpScreen

    path, _states = jacquet_log
    app = ReplayApp(load_replay(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        assert "postillon" in help_screen.rules
        assert "press **r** to throw" not in help_screen.rules  # r does nothing here
        dialog = help_screen.query_one("#dialog")
        assert dialog.styles.border_top[0] == "thick"  # the app's dialog style, as in a game
        assert dialog.region.width < 80
