"""Local games can be taken up again after leaving them: the lobby lists them, enter replays
the log to where it stopped; a log changed since is refused with a sentence; a game left
before its first throw leaves nothing behind (issue 14, item 16)."""

from __future__ import annotations

import stat
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from client.app import TablierApp
from client.game.local import LocalGame
from client.screens.goose import GooseScreen
from client.screens.lobby import LobbyScreen
from client.setup import GooseSetup
from client.widgets.narrative import NarrativeLog
from protocol.logfile import parse_log
from protocol.verify import verify_log
from tests.client.conftest import seeded_settings, until

THREE = GooseSetup(("Alice", "Bruno", "Chloé"))


async def _leave_for_the_lobby(pilot: Pilot[None]) -> None:
    await pilot.press("escape")
    await pilot.pause()
    if not isinstance(pilot.app.screen, LobbyScreen):
        await pilot.press("y")  # "Leave this game for the lobby?"
    await until(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen), "the lobby")


async def _unfinished(pilot: Pilot[None]) -> OptionList:
    await pilot.press("f4")
    lobby = pilot.app.screen
    await until(pilot, lambda: bool(lobby.query("#unfinished-list")), "the Recorded match tab")
    listed = lobby.query_one("#unfinished-list", OptionList)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    return listed


async def test_a_local_game_left_midway_is_taken_up_where_it_stopped(tmp_path: Path) -> None:
    app = TablierApp(THREE, seeded_settings(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await _leave_for_the_lobby(pilot)  # before the first throw: nothing is kept
        listed = await _unfinished(pilot)
        assert listed.option_count == 0
        await until(pilot, lambda: not list((tmp_path / "matches").iterdir()), "no log")
        assert not list((tmp_path / "local").iterdir())

        app.start_game(THREE)
        await until(pilot, lambda: isinstance(app.screen, GooseScreen), "a new game")
        first = app.screen
        assert isinstance(first, GooseScreen) and isinstance(first.game, LocalGame)
        await pilot.press("space", "space", "space", "space")
        await until(pilot, lambda: not first.game.pending_turns, "the throws")
        left_at, log_path = first.game.match.state, first.game.log_path
        await _leave_for_the_lobby(pilot)

        await pilot.press("f4")  # the list is read again on coming back to the lobby
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert listed.option_count == 1
        assert str(listed.get_option_at_index(0).prompt).startswith(
            "Jeu de l'oie: Alice, Bruno, Chloé ("
        )
        recent = app.screen.query_one("#recent-logs", OptionList)  # read again, with results
        assert str(recent.get_option_at_index(0).prompt) == f"{log_path.name}  ·  unfinished"
        (seat_file,) = (tmp_path / "local").iterdir()
        assert stat.S_IMODE(seat_file.stat().st_mode) == 0o600  # every seat's secrets
        listed.focus()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GooseScreen), "the game again")
        again = app.screen
        assert isinstance(again, GooseScreen) and isinstance(again.game, LocalGame)
        # The side log tells the game so far first, as a networked rejoin's does (issue 29,
        # item 7): the four throws, then the board where it stopped.
        await until(pilot, lambda: not again.game.pending_turns, "the game retold")
        assert again.game.state == left_at and again.game.log_path == log_path
        told = "\n".join(line.text for line in again.query_one(NarrativeLog).lines)
        assert all(name in told for name in ("Alice", "Bruno", "Chloé")), told
        assert told.count("throws") >= 4, told
        await pilot.press("space")  # the log goes on from there
        await until(pilot, lambda: not again.game.pending_turns, "the throw")
        await _leave_for_the_lobby(pilot)
    report = verify_log(log_path)
    assert report.ok and report.throws == 5, report.summary()


async def test_a_log_changed_since_is_refused_in_a_sentence(tmp_path: Path) -> None:
    app = TablierApp(THREE, seeded_settings(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        game = app.screen.game  # type: ignore[attr-defined]
        await pilot.press("space", "space")
        await until(pilot, lambda: not game.pending_turns, "the throws")
        await _leave_for_the_lobby(pilot)
        data = bytearray(game.log_path.read_bytes())
        data[parse_log(bytes(data)).offsets[1] + 12] ^= 1  # a bit of the second record
        game.log_path.write_bytes(bytes(data))

        listed = await _unfinished(pilot)
        listed.focus()
        await pilot.press("enter")
        lobby = app.screen
        error = lobby.query_one("#replay-error", Static)
        await until(pilot, lambda: "verification" in str(error.render()), "the refusal")
        assert str(error.render()).startswith(
            "Its log fails verification, so the game cannot be taken up again: "
        )
        assert app.screen is lobby


async def test_a_game_open_in_another_terminal_is_shown_so_and_cannot_be_opened_twice(
    tmp_path: Path,
) -> None:
    """Two terminals, one data folder (issue 29, item 1): while the first plays a local
    game, the second's lobby lists it as being played elsewhere and cannot open it (its log
    has one writer, held by an OS lock); once the first left it, the second takes it up."""
    from client.game.local import ResumeRefused

    first_app = TablierApp(THREE, seeded_settings(tmp_path))
    second_app = TablierApp(None, seeded_settings(tmp_path))
    async with first_app.run_test(size=(80, 24)) as first, second_app.run_test(
        size=(80, 24)
    ) as second:
        await until(first, lambda: isinstance(first_app.screen, GooseScreen), "the game")
        playing = first_app.screen
        assert isinstance(playing, GooseScreen) and isinstance(playing.game, LocalGame)
        await first.press("space", "space")
        await until(first, lambda: not playing.game.pending_turns, "the throws")
        log_bytes = playing.game.log_path.read_bytes()

        listed = await _unfinished(second)
        assert listed.option_count == 1
        assert str(listed.get_option_at_index(0).prompt) == (
            "Jeu de l'oie: Alice, Bruno, Chloé — being played in another terminal"
        )
        (seat_file,) = (tmp_path / "local").iterdir()
        try:
            LocalGame.resume(seat_file, seeded_settings(tmp_path))
        except ResumeRefused as refusal:
            assert str(refusal) == (
                "This game is being played in another terminal: a game is played from one "
                "terminal at a time."
            )
        else:
            raise AssertionError("a game open elsewhere was opened twice")
        listed.focus()
        await second.press("enter")  # told why, and nothing opens
        await second.pause()
        assert isinstance(second_app.screen, LobbyScreen)
        assert playing.game.log_path.read_bytes() == log_bytes  # nobody else wrote to it

        await _leave_for_the_lobby(first)  # the first terminal lets it go
        await second.press("enter")  # picked again: still listed as busy, so read again
        # (Waited for on the screen: two apps in one process share Textual's notion of the
        # active app, so the second app's workers may hold the first's turn worker.)
        await until(second, lambda: str(listed.get_option_at_index(0).prompt).startswith(
            "Jeu de l'oie: Alice, Bruno, Chloé ("), "the list read again")  # fmt: skip
        listed.focus()
        await second.press("enter")
        await until(second, lambda: isinstance(second_app.screen, GooseScreen), "the game here")
