"""What screens ask of the app, as Textual messages: they bubble up from a screen to
:class:`~client.app.TablierApp`, which alone decides which screen shows what."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from textual.screen import Screen

    from client.game.driver import GameDriver
    from client.screens.end import EndChoice
    from client.setup import GameSetup


class OpenGame(Message):
    """Show *game* on its screen, in place of *replacing* (and whatever is above it) when
    given: the room giving way to its match, a finished game to a rematch."""

    def __init__(self, game: GameDriver, replacing: Screen[Any] | None = None) -> None:
        super().__init__()
        self.game = game
        self.replacing = replacing


class StartGame(Message):
    """Start a new local game for *setup* (the lobby's Play)."""

    def __init__(self, setup: GameSetup) -> None:
        super().__init__()
        self.setup = setup


class ReturnToLobby(Message):
    """Leave whatever is shown for the lobby (``tablier replay`` quits instead)."""


class EndChosen(Message):
    """The end-of-game choice for a game of *setup*: again, the lobby, or quit."""

    def __init__(self, setup: GameSetup, choice: EndChoice | None) -> None:
        super().__init__()
        self.setup = setup
        self.choice = choice


class RoomOpened(Message):
    """A room was entered; *closing* leaves it. The app leaves every room still open when
    it quits (a screen being removed then can no longer ask it to)."""

    def __init__(self, closing: Callable[[], Coroutine[Any, Any, None]]) -> None:
        super().__init__()
        self.closing = closing


class CloseLater(Message):
    """Leave the room *closing* leaves, in the background (a screen closes synchronously);
    the app waits for it before it exits."""

    def __init__(self, closing: Callable[[], Coroutine[Any, Any, None]]) -> None:
        super().__init__()
        self.closing = closing
