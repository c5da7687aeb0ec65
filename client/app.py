"""The Tablier app: one Textual application whose bottom screen is always the lobby.

Games are screens pushed on top of the lobby (see docs/client-architecture.md): the app builds
the local game controller for a :class:`~client.setup.GameSetup`, picks the game's screen, and
handles what every screen shares — help, quitting with confirmation, the end-of-game choices
and the command palette's entries for the current screen's keys.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import RenderableType
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.notifications import SeverityLevel
from textual.screen import Screen

from client.screens.confirm import ConfirmScreen
from client.screens.end import EndChoice
from client.screens.game import GameScreen
from client.screens.lobby import LobbyScreen
from client.setup import GameSetup, SessionSettings

if TYPE_CHECKING:
    from client.local_game import LocalGame


CLOSING_SECONDS = 3.0
"""How long quitting waits for rooms to be left (a relay that stopped answering, say)."""


def app_styles() -> list[str | Path]:
    """TablierApp's style sheets, found from its module (a subclass resolves relative paths
    from its own file)."""
    paths = TablierApp.CSS_PATH
    listed = paths if isinstance(paths, list) else [paths] if paths else []
    home = Path(__file__).parent
    return [home / path for path in listed]


class TablierApp(App[None]):
    """Lobby at the bottom, at most one game screen above it, modal dialogs on top."""

    TITLE = "Tablier"
    SUB_TITLE = "Jeu de l'oie · Jacquet"
    CSS_PATH = "app.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        Binding("f1", "help", "Help", tooltip="Rules of this game and every key"),
    ]

    def __init__(
        self, start: GameSetup | None = None, settings: SessionSettings | None = None
    ) -> None:
        super().__init__()
        self.settings = settings or SessionSettings()
        self._start = start
        self._rooms_closing: set[asyncio.Task[None]] = set()

    def get_default_screen(self) -> Screen[None]:
        return LobbyScreen()

    def on_mount(self) -> None:
        if self._start is not None:
            self.start_game(self._start)

    def start_game(self, setup: GameSetup) -> None:
        """Start a new local game for *setup* and show it, replacing any finished game."""
        from client.local_game import LocalGame  # the protocol's crypto loads with a game

        try:
            game = LocalGame.start(setup, self.settings)
        except OSError as problem:  # the log folder cannot be written, the disk is full…
            self.notify(
                f"The match log cannot be written: {problem}",
                title="Cannot start",
                severity="error",
            )
            return
        if isinstance(self.screen, GameScreen):
            self.pop_screen()
        self.push_screen(self._screen_for(game))

    def _screen_for(self, game: LocalGame) -> GameScreen:
        animation = self.settings.animation
        if game.setup.game == "goose":
            from client.screens.goose import GooseScreen

            return GooseScreen(game, animation=animation)
        from client.screens.jacquet import JacquetScreen

        return JacquetScreen(game, animation=animation)

    def handle_end_choice(self, setup: GameSetup, choice: EndChoice | None) -> None:
        """What the end-of-game screen's buttons do: play again, back to the lobby, or quit."""
        if choice == "again":
            self.start_game(setup)
        elif choice == "lobby":
            self.return_to_lobby()
        elif choice == "quit":
            self.exit()

    def exit(
        self,
        result: None = None,
        return_code: int = 0,
        message: RenderableType | None = None,
    ) -> None:
        """Stop the games' workers first: one waiting for a turn (from the relay, say) would
        otherwise wake while the screens are taken down and find their widgets gone."""
        self.workers.cancel_all()
        super().exit(result, return_code, message)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Textual's notification, always as plain text: its messages carry names, reasons
        and chat from other machines, and ``[@click=app.quit]`` in a peer's name must show as
        written, not run (``Widget.notify`` passes ``markup=True`` on: it is ignored here)."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def close_later(self, closing: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run *closing* (leaving a room, stopping an embedded relay) without waiting for it:
        screens are removed synchronously. Quitting waits for it (:meth:`on_unmount`)."""
        task = asyncio.create_task(closing())
        self._rooms_closing.add(task)
        task.add_done_callback(self._rooms_closing.discard)

    async def on_unmount(self) -> None:
        """The screens are gone: let the rooms they left finish closing, for a moment."""
        if self._rooms_closing:
            _, late = await asyncio.wait(self._rooms_closing, timeout=CLOSING_SECONDS)
            for task in late:
                task.cancel()
            if late:
                await asyncio.wait(late)

    def return_to_lobby(self) -> None:
        while len(self.screen_stack) > 1:
            self.pop_screen()

    async def action_quit(self) -> None:
        """Quit at once, unless a game is in progress: then ask first."""
        screen = self.screen
        if isinstance(screen, GameScreen) and screen.in_progress:
            self.push_screen(
                ConfirmScreen(
                    "Quit Tablier in the middle of this game?",
                    detail=screen.quit_detail(),
                    confirm_label="Quit",
                ),
                lambda confirmed: self.exit() if confirmed else None,
            )
            return
        self.exit()

    def action_help(self) -> None:
        from client.screens.help import HelpScreen  # Markdown loads when help is first asked

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss()
            return
        self.push_screen(HelpScreen.for_screen(self.screen))

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """The palette offers every key of the current screen, then Textual's own commands."""
        offered: set[str] = set()  # one entry per action, however many keys are bound to it
        for active in screen.active_bindings.values():
            binding = active.binding
            if active.enabled and binding.description and active.node is screen:
                if binding.action in offered:
                    continue
                offered.add(binding.action)
                yield SystemCommand(
                    binding.description,
                    binding.tooltip or f"key: {self.get_key_display(binding)}",
                    partial(screen.run_action, binding.action),
                )
        yield from super().get_system_commands(screen)
