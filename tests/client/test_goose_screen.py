"""The Jeu de l'oie screen driven by keys, as a person plays it (no animation, seeded dice)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from client.app import TablierApp
from client.screens import goose as goose_screen
from client.screens.confirm import ConfirmScreen
from client.screens.end import EndScreen
from client.screens.goose import GooseScreen
from client.screens.help import HelpScreen
from client.screens.lobby import LobbyScreen
from client.setup import GooseSetup, SessionSettings
from client.widgets.goose_board import GooseBoard
from client.widgets.narrative import NarrativeLog
from protocol.verify import verify_log
from tests.client.conftest import seeded_settings

THREE = ("Alice", "Bruno", "Chloé")


async def until_shown(pilot: Pilot[None], screen: GooseScreen) -> None:
    """Until the throw just made has been shown to its end (and the next one is awaited)."""
    async with asyncio.timeout(30):
        while screen.busy or screen.acting:
            await pilot.pause(0.01)


def _narrative(screen: GooseScreen) -> str:
    return "\n".join(line.text for line in screen.query_one(NarrativeLog).lines)


async def test_three_players_play_a_whole_game_by_pressing_space(
    settings: SessionSettings,
) -> None:
    app = TablierApp(GooseSetup(THREE), settings)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        assert isinstance(screen, GooseScreen)
        throws = 0
        while not isinstance(app.screen, EndScreen):
            assert throws < 1000, "the game should have ended"
            await pilot.press("space")
            throws += 1
        game = screen.game
        assert game.finished
        state = game.state
        assert game.names[state.winner] in app.screen.summary.title
        assert state.squares[state.winner] == 63
        assert screen.query_one(GooseBoard).squares == state.squares
        assert "wins" in _narrative(screen)
        log_line = str(app.screen.query_one("#log-path", Static).render())
        assert str(game.log_path) in log_line
    report = verify_log(game.log_path)
    assert report.ok, report.error
    assert report.players == THREE


async def test_an_animated_throw_walks_its_path_and_can_be_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each frame held for a minute: however slowly this machine runs the test, the walk is
    # still on screen when it is looked at, and only the skip ends it.
    monkeypatch.setattr(goose_screen, "STEP_SECONDS", 60.0)
    monkeypatch.setattr(goose_screen, "PAUSE_SECONDS", 60.0)
    settings = seeded_settings(tmp_path, animation=True)
    app = TablierApp(GooseSetup(THREE), settings)
    async with app.run_test() as pilot:
        screen = app.screen
        assert isinstance(screen, GooseScreen)
        for _ in range(3):  # the lots: nobody moves
            await pilot.press("space")
            await until_shown(pilot, screen)
        before = screen.game.state.squares
        board = screen.query_one(GooseBoard)
        await pilot.press("space")
        async with asyncio.timeout(30):  # until the first frame of the walk is drawn
            while not board.highlight:
                await pilot.pause(0.01)
        assert screen.busy
        assert board.squares != before, "the token is on its way"
        assert screen.throw_refusal() == "Wait until the throw being shown is over (s skips it)."
        await pilot.press("s")
        await until_shown(pilot, screen)
        assert not screen.busy
        assert board.squares == screen.game.state.squares
        assert not board.highlight


async def test_command_palette_offers_the_screen_keys(settings: SessionSettings) -> None:
    app = TablierApp(GooseSetup(THREE), settings)
    async with app.run_test() as pilot:
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert {"Throw", "Lobby", "Quit", "Resign"} <= set(titles)
        assert titles.count("Quit") == 1  # Tablier's, which asks first mid-game; not Textual's too
        lobby_titles = [command.title for command in app.get_system_commands(app.screen_stack[0])]
        assert lobby_titles.count("Quit") == 1
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert titles.count("No") == 1  # one entry, though both n and escape answer no
        assert "Yes" in titles


async def test_throw_is_refused_while_the_computer_is_to_play(tmp_path: Path) -> None:
    # Bruno (seat 1) is the computer and waits a long time before throwing.
    settings = seeded_settings(tmp_path, computer_pause=30.0)
    app = TablierApp(GooseSetup(("Alice", "Bruno"), frozenset({1})), settings)
    async with app.run_test(notifications=True) as pilot:
        screen = app.screen
        assert isinstance(screen, GooseScreen)
        await pilot.press("space")  # Alice throws her lot: now the computer's turn
        before = screen.game.state
        assert screen.game.awaiting.seat == 1
        assert screen.throw_refusal() == "It is Bruno's turn: the computer throws."
        await pilot.press("space")
        await pilot.pause()
        assert screen.game.state is before
        toasts = [str(toast.render()) for toast in app.screen.query("Toast")]
        assert any("It is Bruno's turn: the computer throws." in toast for toast in toasts)


async def test_computer_seats_finish_a_whole_game_alone(settings: SessionSettings) -> None:
    setup = GooseSetup(("Anne", "Basile", "Clara", "Dimitri"), frozenset(range(4)))
    app = TablierApp(setup, settings)
    async with app.run_test() as pilot:
        # The computers may have finished before the test looks: find the game's screen.
        (screen,) = (screen for screen in app.screen_stack if isinstance(screen, GooseScreen))
        for _ in range(500):
            if isinstance(app.screen, EndScreen):
                break
            await pilot.pause(0.01)
        assert isinstance(app.screen, EndScreen)
        assert screen.game.finished
        assert screen.throw_refusal() == "The game is over."


async def test_quitting_mid_game_asks_first(settings: SessionSettings) -> None:
    app = TablierApp(GooseSetup(THREE), settings)
    async with app.run_test() as pilot:
        await pilot.press("space", "space")
        game_screen = app.screen
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # keep playing: nothing lost
        assert app.screen is game_screen
        await pilot.press("escape")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("escape")
        assert app.screen is game_screen
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
    assert app.return_code == 0
    assert not app.is_running


async def test_help_shows_the_rules_and_every_key(settings: SessionSettings) -> None:
    app = TablierApp(GooseSetup(THREE), settings)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("f1")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        assert "le jardin de l'oie" in help_screen.rules
        assert "In a two-player game, one held in the well" in help_screen.rules  # only then
        keys = dict((description, key) for key, description in help_screen.keys)
        assert keys["Throw"] == "space"
        assert "Skip animation" not in keys  # throws are not animated in this game
        assert keys["Lobby"] == "esc"
        assert keys["Resign"] == "^r"  # kept off the full footer, but listed here
        await pilot.press("escape")
        assert isinstance(app.screen, GooseScreen)


async def test_a_local_game_is_resigned_by_the_person_to_move(settings: SessionSettings) -> None:
    """ctrl+r works in a local game too (issue 29, item 8): the person whose turn it is
    gives up, after a question naming him, and the game ends for everyone, in its log."""
    app = TablierApp(GooseSetup(("Alice", "Bruno")), settings)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, GooseScreen)
        await pilot.press("space")  # Alice throws: Bruno to move
        await until_shown(pilot, screen)
        assert screen.game.awaiting.seat == 1
        await pilot.press("ctrl+r")
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert dialog.question == "Resign this match, Bruno?"
        assert "It ends now for Alice too" in dialog.detail
        await pilot.press("y")
        async with asyncio.timeout(30):
            while not isinstance(app.screen, EndScreen):
                await pilot.pause(0.01)
        assert str(app.screen.query_one("#title", Static).render()) == (
            "Bruno resigned: Alice wins the match."
        )
        log_path = screen.game.log_path
    report = verify_log(log_path)
    assert report.ok and report.proven and "resigned" in report.result, report.result


async def test_play_again_starts_a_new_game_with_its_own_log(tmp_path: Path) -> None:
    log_path = tmp_path / "night.tablier"
    settings = seeded_settings(tmp_path, seed=14, log_path=log_path)
    app = TablierApp(GooseSetup(("Alice", "Bruno")), settings)
    async with app.run_test() as pilot:
        first = app.screen
        assert isinstance(first, GooseScreen)
        while not isinstance(app.screen, EndScreen):
            await pilot.press("space")
        await pilot.press("a")
        second = app.screen
        assert isinstance(second, GooseScreen)
        assert second is not first
        assert not second.game.finished
        assert first.game.log_path == log_path
        assert second.game.log_path == tmp_path / "night-2.tablier"
        assert len(app.screen_stack) == 2  # the lobby, and the one game
        await pilot.press("escape", "y")  # leave the new game for the lobby
        assert isinstance(app.screen, LobbyScreen)
    assert verify_log(log_path).ok


async def test_space_pressed_again_and_again_when_it_cannot_throw_shows_one_toast(
    tmp_path: Path,
) -> None:
    settings = seeded_settings(tmp_path, computer_pause=30.0)  # the computer takes its time
    app = TablierApp(GooseSetup(THREE, computer_seats=frozenset({1, 2})), settings)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, GooseScreen)
        await pilot.press("space")  # Alice's lot; then Bruno, the computer, is to throw
        assert screen.throw_refusal() == "It is Bruno's turn: the computer throws."
        await pilot.press("space", "space", "space", "space")
        await pilot.pause()
        refusals = [n for n in app._notifications if n.title == "Not now"]
        assert len(refusals) == 1, "one toast saying why, not a pile over the board"


async def test_the_throw_key_is_not_offered_when_nobody_throws_from_this_terminal(
    tmp_path: Path,
) -> None:
    settings = seeded_settings(tmp_path, computer_pause=30.0)
    app = TablierApp(GooseSetup(("Alice", "Bruno"), computer_seats=frozenset({0, 1})), settings)
    async with app.run_test(size=(80, 24)):
        assert isinstance(app.screen, GooseScreen)
        assert app.screen.check_action("throw", ()) is False  # hidden, not just dimmed
