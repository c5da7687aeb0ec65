"""Quitting at any moment closes the app cleanly: during a game screen's mount, an animation,
the computer's turn (its search runs in a thread). ``run_test`` re-raises whatever a widget or
worker raised while the app closed, and the suite turns a coroutine left unawaited into an
error (pyproject.toml's ``filterwarnings``), so each test fails on a traceback or a leftover.

The moment varies with the machine's speed, so each test quits at a spread of moments.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import Button
from textual.widgets._footer import FooterKey

from client import i18n
from client.app import TablierApp
from client.screens.confirm import ConfirmScreen
from client.screens.game import GameScreen
from client.setup import GameSetup, GooseSetup, JacquetSetup
from tests.client.conftest import seeded_settings, until

SIZE = (80, 24)
MOMENTS = (None, 0.0, 0.03, 0.2)  # None: before the first pause at all

COMPUTERS_ONLY: dict[str, GameSetup] = {
    "goose": GooseSetup(("Alice", "Bruno", "Chloé"), frozenset({0, 1, 2})),
    "jacquet": JacquetSetup(("Blanc", "Noir"), frozenset({0, 1}), level=3),
}


@pytest.mark.parametrize("game", sorted(COMPUTERS_ONLY))
@pytest.mark.parametrize("moment", MOMENTS)
async def test_quitting_at_any_moment_of_an_animated_game(
    tmp_path: Path, game: str, moment: float | None
) -> None:
    """Computer seats act at once and every throw and move is animated: whichever moment the
    quit lands on, it finds a mount, an animation step or a search under way."""
    settings = seeded_settings(tmp_path, animation=True, computer_pause=0.0)
    app = TablierApp(COMPUTERS_ONLY[game], settings)
    async with app.run_test(size=SIZE) as pilot:
        if moment is not None:
            await pilot.pause(moment)
        app.exit()
    assert app.return_code == 0


async def test_quitting_with_q_while_the_computer_moves_asks_then_closes(tmp_path: Path) -> None:
    """The key a person uses: q asks first (the game is on), y quits mid-animation."""
    settings = seeded_settings(tmp_path, animation=True, computer_pause=0.0)
    app = TablierApp(COMPUTERS_ONLY["goose"], settings)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.1)
        assert isinstance(app.screen, GameScreen) and app.screen.in_progress
        await pilot.press("q")
        await pilot.press("y")
        await pilot.pause()
    assert app.return_code == 0


@pytest.mark.parametrize(("language", "yes", "other"), [("en", "y", "o"), ("fr", "o", "y")])
async def test_the_question_is_answered_with_the_language_s_yes_key(
    tmp_path: Path, language: str, yes: str, other: str
) -> None:
    """A French player answers "oui" with o: the button and the footer show the key the
    language uses, and the other language's key does nothing."""
    i18n.use(language)
    try:
        people = GooseSetup(("Alice", "Bruno"), frozenset())  # waits for Alice: in progress
        app = TablierApp(people, seeded_settings(tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("q")
            await pilot.pause()
            question = app.screen
            assert isinstance(question, ConfirmScreen)
            assert str(question.query_one("#yes", Button).label).endswith(f"({yes})")
            # (the footer composes its keys after the screen: a busy machine read it empty)
            await until(pilot, lambda: bool(question.query(FooterKey)), "the question's keys")
            shown = [key.key for key in question.query(FooterKey)]
            assert yes in shown and other not in shown
            await pilot.press(other)
            await pilot.pause()
            assert app.screen is question
            await pilot.press(yes)
            await pilot.pause()
        assert app.return_code == 0
    finally:
        i18n.use("en")


@pytest.mark.parametrize("game", sorted(COMPUTERS_ONLY))
@pytest.mark.parametrize("ticks", (0, 2, 8))
async def test_quitting_while_a_game_screen_is_being_mounted(
    tmp_path: Path, game: str, ticks: int
) -> None:
    """From the lobby: a game starts and the app quits a few event-loop turns later, while
    the new screen's widgets are still mounting (a title line queued an update then)."""
    app = TablierApp(None, seeded_settings(tmp_path, animation=True))
    async with app.run_test(size=SIZE) as pilot:
        app.start_game(COMPUTERS_ONLY[game])
        for _ in range(ticks):
            await asyncio.sleep(0)
        app.exit()
        await pilot.pause()
    assert app.return_code == 0
