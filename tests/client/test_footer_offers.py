"""A game's footer offers only what its reader can do at the moment: no ``r Throw`` while
the computer is to play, no ``m Type`` once a play is entered whole, no ``s Skip`` with
nothing being shown; F1 still lists every key of the game (issue 29)."""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.widgets._footer import FooterKey

from client.app import TablierApp
from client.screens.game import GameScreen
from client.screens.goose import GooseScreen
from client.screens.help import HelpScreen
from client.screens.jacquet import JacquetScreen
from client.setup import GooseSetup, JacquetSetup
from client.widgets.footer import KeysFooter
from engine.awaiting import ChoosePlay, ThrowDice
from engine.bot import choose_play
from engine.jacquet.notation import format_play
from tests.client.conftest import seeded_settings, until


def footer_keys(app: App[None]) -> set[str]:
    """The keys the footer shows (the first key of each binding, as Textual names it)."""
    return {key.key for key in app.screen.query_one(KeysFooter).query(FooterKey)}


def help_keys(app: App[None]) -> set[str]:
    """What F1's key table lists for the screen (each key's description)."""
    return {description for _key, description in HelpScreen.for_screen(app.screen).keys}


def noir_to_act(screen: GameScreen) -> bool:
    """The second seat (the computer's) is awaited."""
    return getattr(screen.game.awaiting, "seat", None) == 1


def typed(text: str) -> list[str]:
    """The keys that type *text*."""
    return ["space" if char == " " else char for char in text]


async def test_jacquet_offers_the_throw_only_on_its_players_turn(tmp_path: Path) -> None:
    # Noir is the computer and takes half a minute before each throw: its turn lasts.
    settings = seeded_settings(tmp_path, computer_pause=30.0)
    app = TablierApp(JacquetSetup(computer_seats=frozenset({1})), settings)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, JacquetScreen)
        await until(pilot, lambda: "r" in footer_keys(app), "r Throw for the opening")
        assert "m" not in footer_keys(app) and "u" not in footer_keys(app)  # nothing to type
        await pilot.press("r")  # the opening throw: Blanc starts (seeded dice)
        await until(pilot, lambda: isinstance(screen.game.awaiting, ThrowDice)
                    and screen.game.state.phase == "play", "Blanc to throw")  # fmt: skip
        await pilot.press("r")
        await until(pilot, lambda: isinstance(screen.game.awaiting, ChoosePlay), "a play")
        await until(pilot, lambda: "m" in footer_keys(app), "m Type, a play to enter")
        assert "r" not in footer_keys(app)  # thrown already
        awaiting = screen.game.awaiting
        assert isinstance(awaiting, ChoosePlay)
        play = choose_play(screen.state.position, awaiting.dice)
        first, *rest = play
        await pilot.press("m", *typed(format_play((first,))), "enter")  # one move of it
        await until(pilot, lambda: "u" in footer_keys(app), "u Undo, a move to take back")
        if rest:
            await pilot.press("m", *typed(format_play(tuple(rest))), "enter")
        await until(pilot, lambda: noir_to_act(screen), "the computer's turn")
        await pilot.pause()
        shown = footer_keys(app)
        assert not {"r", "m", "u", "enter"} & shown, shown  # nothing of Blanc's to do now
        assert {"escape", "q", "f1"} <= shown
        listed = help_keys(app)
        assert {"Throw", "Pick/Confirm", "Undo", "Type"} <= listed, listed  # F1: every key


async def test_jacquet_offers_no_typed_move_once_the_play_is_entered_whole(
    tmp_path: Path,
) -> None:
    app = TablierApp(JacquetSetup(), seeded_settings(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, JacquetScreen)
        await pilot.press("r")
        await until(pilot, lambda: screen.game.state.phase == "play", "the opening thrown")
        await pilot.press("r")
        await until(pilot, lambda: isinstance(screen.game.awaiting, ChoosePlay), "a play")
        awaiting = screen.game.awaiting
        assert isinstance(awaiting, ChoosePlay)
        entry = screen._entry
        assert entry is not None
        for move in choose_play(screen.state.position, awaiting.dice):  # on the board
            (path,) = [p for target, p in entry.destinations(move.from_point).items()
                       if target == move.to_point]  # fmt: skip
            entry.enter(path)
        screen._prompt_entry()
        screen._redraw()
        await pilot.pause()
        assert "m" not in footer_keys(app)  # nothing more to type: enter plays it
        assert {"enter", "u"} <= footer_keys(app)


async def test_goose_offers_the_throw_only_to_the_player_to_throw(tmp_path: Path) -> None:
    settings = seeded_settings(tmp_path, computer_pause=30.0)  # Bruno, the computer, waits
    app = TablierApp(GooseSetup(("Alice", "Bruno"), frozenset({1})), settings)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, GooseScreen)
        await until(pilot, lambda: "space" in footer_keys(app), "space Throw for Alice")
        await pilot.press("space")  # Alice's lot; now the computer's turn
        await until(pilot, lambda: noir_to_act(screen), "Bruno's turn")
        await until(pilot, lambda: "space" not in footer_keys(app), "no throw for Bruno")
        assert "f1" in footer_keys(app)
        assert "Throw" in help_keys(app)  # F1 still lists it
