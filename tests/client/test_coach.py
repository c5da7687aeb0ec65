"""The coach on the Jacquet screen, at 80x24: a replay's marks and best plays, hints, the tutor.

Every figure the screen shows is checked against the engine's own analysis of the same
position (:mod:`engine.bot.analysis`), computed here directly.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import cast

import pytest
from textual.pilot import Pilot

from client.app import ReplayApp, TablierApp
from client.game.replay import ReplayGame, load_replay
from client.net.game import NetworkGame
from client.net.link import RelayLink
from client.screens.confirm import ConfirmScreen
from client.screens.help import HelpScreen
from client.screens.jacquet import JacquetScreen
from client.screens.jacquet_view import board_view
from client.setup import JacquetSetup
from client.widgets.coach import (
    HELP_AGREED,
    NO_HELP,
    REPLAY_LIMITS,
    CoachPanel,
    frame_turns,
    points,
)
from client.widgets.jacquet_board import JacquetBoard
from engine.awaiting import ChoosePlay, ThrowDice
from engine.bot.analysis import analyse_turn, judge, rank_plays
from engine.jacquet import JacquetState, apply_play, format_play, legal_plays, parse_play
from tests.client.conftest import seeded_settings
from tests.client.net.loop import LoopRoom
from tests.client.net.test_net_match import Unlinked
from tests.client.test_jacquet_screen import move_cursor, wait_for
from tests.client.test_replay import record_match

TUTOR = 40_000  # micro-points: the "doubtful" mark


def coach_text(screen: JacquetScreen) -> str:
    return str(screen.query_one(CoachPanel).render())


async def test_a_replay_marks_each_play_shows_the_best_and_jumps_to_the_next_mistake(
    tmp_path: Path,
) -> None:
    path = tmp_path / "random.tablier"
    record_match(path, "jacquet", ("Blanc", "Noir"), throws=30)  # level 1 plays both
    replay = load_replay(path)
    expected = {index: analyse_turn(turn, REPLAY_LIMITS)
                for index, turn in frame_turns(replay.frames).items()}  # fmt: skip
    mistakes = sorted(index for index, turn in expected.items() if turn.mark)
    assert len(mistakes) >= 2  # level 1 errs: there is something to find
    app = ReplayApp(replay)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, JacquetScreen) and isinstance(screen.game, ReplayGame)
        coach = screen.query_one(CoachPanel)
        await wait_for(pilot, lambda: bool(coach.marks))
        assert coach.marks == expected
        for mistake in mistakes[:2]:
            await pilot.press("n")
            await wait_for(pilot, lambda m=mistake: screen.game.index == m)  # type: ignore[misc]
            turn = expected[mistake]
            text = coach_text(screen)
            assert turn.played in text and turn.mark in text
            assert f"lost {turn.loss / 1_000_000:.3f}" in text and turn.best in text
        await pilot.press("b")  # the best play of the last mistake, on the board
        turn = expected[mistakes[1]]
        board = screen.query_one(JacquetBoard)
        best_position = apply_play(turn.position, parse_play(turn.best))
        assert board.view.mine == screen_view_mine(screen, best_position, turn.seat)
        assert f"Best play: {turn.best}" in str(screen.query_one("#jacquet-message").render())
        await pilot.press("right", "left")  # a step puts the log back
        await wait_for(pilot, lambda: screen.game.index == mistakes[1])
        logged = screen.game.state
        assert isinstance(logged, JacquetState)
        assert board.view.mine == screen_view_mine(screen, logged.position, turn.seat)


def screen_view_mine(screen: JacquetScreen, position: object, seat: int) -> object:
    from client.screens.jacquet_view import board_view
    from engine.jacquet import Position

    assert isinstance(position, Position)
    return board_view(Position(seat, position.boards), 0).mine


def local_app(tmp_path: Path, tutor: int | None) -> TablierApp:
    settings = seeded_settings(tmp_path, seed=65, tutor=tutor)
    return TablierApp(JacquetSetup(), settings)


async def at_a_real_choice(pilot: Pilot[None]) -> tuple[JacquetScreen, JacquetState, ChoosePlay]:
    """The screen, its state and the throw to play, once :func:`play_until_a_real_choice`
    found a throw where the plays differ."""
    screen = pilot.app.screen
    assert isinstance(screen, JacquetScreen)
    awaiting = await play_until_a_real_choice(pilot, screen)
    state = screen.game.state
    assert isinstance(state, JacquetState)
    return screen, state, awaiting


REAL_CHOICE_WITHIN = 30
"""Throws and plays made before :func:`play_until_a_real_choice` must have found one (seed
65 finds it after 15). The dice are seeded: the same match is played every time, however
slow the machine, so a bound on moves is what a minute of play meant on a quiet one."""


async def play_until_a_real_choice(pilot: Pilot[None], screen: JacquetScreen) -> ChoosePlay:
    """Hot-seat: throw (r), acknowledge passes (enter), play the first legal play (through
    the driver), until a throw whose best and worst plays differ by twice the tutor's bar.
    Each key waits until the screen offers it (the turn before may still be on its way)."""
    actions = 0
    while actions <= REAL_CHOICE_WITHIN:
        awaiting, state = screen.game.awaiting, screen.game.state
        assert isinstance(state, JacquetState)
        ready = not screen.acting
        if ready and isinstance(awaiting, ThrowDice) and screen.check_action("throw", ()):
            await pilot.press("r")
            actions += 1
        elif ready and isinstance(awaiting, ChoosePlay) and screen.check_action("type_play", ()):
            ranked = rank_plays(state.position, awaiting.dice)
            if len(ranked) > 1 and ranked[0].equity - ranked[-1].equity >= 2 * TUTOR:
                return awaiting
            first = legal_plays(state.position, awaiting.dice)[0]
            assert screen.start(lambda first=first: screen.game.play(first))  # type: ignore[misc]
            actions += 1
        elif screen.check_action("confirm", ()) and not screen.check_action("type_play", ()):
            # a pass announced (within the throw's turn, still being shown): enter goes on
            await pilot.press("enter")
        else:
            await pilot.pause(0.02)
    raise AssertionError(f"no real choice within {REAL_CHOICE_WITHIN} throws and plays")


async def enter_play(pilot: Pilot[None], play_text: str) -> None:
    """Enter a play move by move with the cursor keys and enter, as a person would."""
    for move in parse_play(play_text):
        await move_cursor(pilot, move.from_point)
        await pilot.press("enter")
        await move_cursor(pilot, move.to_point)
        await pilot.press("enter")


async def test_hints_show_the_computers_three_best_plays_with_their_equities(
    tmp_path: Path,
) -> None:
    app = local_app(tmp_path, tutor=None)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, state, awaiting = await at_a_real_choice(pilot)
        await pilot.press("f1")  # H is off the full footer: F1 lists it (issue 29, item 8)
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert ("H", "Hints") in cast(HelpScreen, app.screen).keys
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press("H")
        await wait_for(pilot, lambda: "Hints" in coach_text(screen))
        top = rank_plays(state.position, awaiting.dice)[:3]
        lines = coach_text(screen).splitlines()[1:]
        assert lines == [f"{n}. {p.play}  {points(p.equity)}" for n, p in enumerate(top, 1)]
        best_points = {point for move in parse_play(top[0].play)
                       for point in (move.from_point, move.to_point)}  # fmt: skip
        assert screen.query_one(JacquetBoard).marks.recent == frozenset(best_points)


async def test_the_tutor_warns_before_a_costly_play_rethink_or_play_anyway(
    tmp_path: Path,
) -> None:
    app = local_app(tmp_path, tutor=TUTOR)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, state, awaiting = await at_a_real_choice(pilot)
        worst = rank_plays(state.position, awaiting.dice)[-1].play
        verdict = judge(state.position, awaiting.dice, parse_play(worst))
        assert verdict.loss >= TUTOR
        await enter_play(pilot, worst)
        await pilot.press("enter")  # confirm the play: the tutor looks first
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert f"loses {verdict.loss / 1_000_000:.3f} points" in dialog.question
        assert verdict.best.play in dialog.detail
        await pilot.press("n")  # Rethink: nothing was sent, and the turn starts again
        await wait_for(pilot, lambda: app.screen is screen)
        assert screen.game.state == state and screen._entry is not None
        assert not screen._entry.steps  # the warned play is off the board
        board = screen.query_one(JacquetBoard)
        assert board.view == board_view(state.position, board.view.viewer)
        await enter_play(pilot, worst)  # entered again, and played anyway this time
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")  # Play anyway
        await wait_for(pilot, lambda: screen.game.state != state)
        after = screen.game.state
        assert isinstance(after, JacquetState)
        assert after.position.boards == apply_play(state.position, parse_play(worst)).boards
        assert format_play(parse_play(worst)) == worst


async def test_after_rethink_the_suggested_play_can_be_typed(tmp_path: Path) -> None:
    """Issue 29, item 5: Rethink left the warned play on the board, so typing the play the
    tutor suggested was refused ("you have no checker on 16")."""
    app = local_app(tmp_path, tutor=TUTOR)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, state, awaiting = await at_a_real_choice(pilot)
        ranked = rank_plays(state.position, awaiting.dice)
        worst, best = ranked[-1].play, ranked[0].play
        await enter_play(pilot, worst)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen) and best in dialog.detail
        await pilot.press("n")  # Rethink
        await wait_for(pilot, lambda: app.screen is screen)
        screen.action_type_play()
        await pilot.press(*best, "enter")
        await wait_for(pilot, lambda: screen.game.state != state)
        after = screen.game.state
        assert isinstance(after, JacquetState)
        assert after.position.boards == apply_play(state.position, parse_play(best)).boards


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("allowed", [True, False])
async def test_a_networked_match_says_on_every_seat_whether_its_signed_setup_allows_help(
    tmp_path: Path, allowed: bool, seat: int
) -> None:
    options: dict[str, int | str] = {"match_to": 1, "coach": 1} if allowed else {"match_to": 1}
    said = HELP_AGREED if allowed else NO_HELP
    room = LoopRoom.meet(tmp_path, ["Ada", "Bob"], "jacquet", options)
    settings = seeded_settings(tmp_path, computer_pause=0)
    game = NetworkGame(room.matches[seat], cast(RelayLink, Unlinked()), settings)
    app = TablierApp(None, settings)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_game(game)
        await wait_for(pilot, lambda: bool(app.screen.query(CoachPanel)))
        screen = app.screen
        assert isinstance(screen, JacquetScreen) and screen.coach.display
        await wait_for(pilot, lambda: coach_text(screen) == said)
        assert coach_text(screen) == said
    room.close()


async def test_leaving_a_replay_stops_its_coach_which_judges_a_bounded_number_of_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The coach judged every play of a replay in a thread worker, which Textual cannot
    interrupt: quitting waited for the last play (a huge log: hours). Now it stops between
    two plays once cancelled, and judges at most MAX_JUDGED_TURNS (here 3), saying so past
    them."""
    from protocol.selfplay import selfplay
    from tests.client.conftest import FIXED_TIME_MS, UNTIL_SECONDS

    path = tmp_path / "long.tablier"
    path.write_bytes(selfplay("jacquet", {"match_to": 7}, seed="coach-long",
                              start_time=FIXED_TIME_MS).log_bytes())  # fmt: skip
    replay = load_replay(path)
    plays = len(frame_turns(replay.frames))
    app = ReplayApp(replay)
    async with app.run_test(size=(80, 24)) as pilot:
        coach = app.screen.query_one(CoachPanel)
        await wait_for(pilot, lambda: coach.judged > 0)
        app.exit()
    async with asyncio.timeout(UNTIL_SECONDS):  # its thread ends at its next play
        while coach.analysing:
            await asyncio.sleep(0.01)
    assert 0 < coach.judged < plays and not coach.marks

    monkeypatch.setattr("client.widgets.coach.MAX_JUDGED_TURNS", 3)
    short = tmp_path / "short.tablier"
    record_match(short, "jacquet", ("Blanc", "Noir"), throws=12)
    replay = load_replay(short)
    judged = sorted(frame_turns(replay.frames))[:3]
    app = ReplayApp(replay)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, JacquetScreen)
        coach = screen.query_one(CoachPanel)
        await wait_for(pilot, lambda: bool(coach.marks))
        assert sorted(coach.marks) == judged
        await pilot.press("end")
        await wait_for(pilot, lambda: screen.game.index == len(replay.frames) - 1)
        left = len(frame_turns(replay.frames)) - 3
        assert coach_text(screen).startswith("Not judged: the coach judges the first 3 plays")
        assert f"{left} more play" in " ".join(coach_text(screen).split())
