"""The Tablier app: one Textual application whose bottom screen is always the lobby.

Games are screens pushed on top of the lobby (see docs/client-architecture.md): the app builds
the local game controller for a :class:`~client.setup.GameSetup`, picks the game's screen, and
handles what every screen shares — help, quitting with confirmation, the end-of-game choices
and the command palette's entries for the current screen's keys.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Coroutine, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from rich.console import RenderableType
from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.geometry import Size
from textual.notifications import SeverityLevel
from textual.screen import Screen

from client.i18n import N_, _, path_shown, say_error
from client.messages import (
    CloseLater,
    EndChosen,
    OpenGame,
    ReturnToLobby,
    RoomOpened,
    StartGame,
)
from client.screens.confirm import ConfirmScreen
from client.screens.lobby import LobbyScreen
from client.setup import GameSetup, SessionSettings
from client.textual_words import key_name, system_commands
from client.typography import keep_no_break_spaces
from client.widgets.too_small import TooSmall, fits

# The game screens, and the engines and protocol under them, are imported where a game, a
# replay or a room is opened: the lobby paints without them (docs/client-architecture.md).
if TYPE_CHECKING:
    from client.game.driver import GameDriver
    from client.game.replay import MatchReplay
    from client.net.plan import HostPlan, JoinPlan
    from client.screens.end import EndChoice
    from client.screens.room import RoomScreen

CLOSING_SECONDS = 3.0
"""How long quitting waits for rooms to be left (a relay that stopped answering, say)."""


@runtime_checkable
class AsksBeforeQuitting(Protocol):
    """A screen that may ask before the app quits: a game screen, while someone plays
    (:class:`~client.screens.game.GameScreen`, which the app does not import to start)."""

    @property
    def in_progress(self) -> bool: ...

    def quit_detail(self) -> str: ...


@runtime_checkable
class HoldsAGame(Protocol):
    """A screen whose game holds files open (its log: one writer at a time), let go at once
    when the screen is left: Textual removes a popped screen a moment later, and the lobby
    reads which games are free as soon as it is back."""

    def let_go(self) -> None: ...


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
    SUB_TITLE = _("Jeu de l'oie · Jacquet")  # imported after the language is chosen
    CSS_PATH = "app.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", N_("Quit"), show=False, priority=True),
        Binding("f1", "help", N_("Help"), tooltip=N_("Rules of this game and every key")),
    ]

    def __init__(
        self, start: GameSetup | None = None, settings: SessionSettings | None = None
    ) -> None:
        super().__init__()
        keep_no_break_spaces()  # French typography: no line starts with its ":"
        self.settings = settings or SessionSettings()
        self._start = start
        self._rooms_closing: set[asyncio.Task[None]] = set()
        # How many closings quitting had to cut short (each should end by itself: leaving a
        # room never waits on a relay that does not answer).
        self.closings_cut_short = 0
        self._open_rooms: set[Callable[[], Coroutine[Any, Any, None]]] = set()

    def get_default_screen(self) -> Screen[None]:
        return LobbyScreen(self.settings)

    def on_mount(self) -> None:
        # ``tablier`` keeps the garbage collector off until the first screen is painted
        # (client/commands/play.py): on again from then on.
        self.call_after_refresh(gc.enable)
        self.screen_change_signal.subscribe(self, self._screen_changed)
        if self._start is not None:
            self.start_game(self._start)

    # -- a terminal too small: one sentence instead of a cut screen (client/widgets/too_small.py)

    def on_resize(self, event: events.Resize) -> None:
        self.fit_terminal(event.size)  # (the app's own size is updated after this handler)

    def _screen_changed(self, screen: Screen[Any]) -> None:
        self.fit_terminal(self.size)

    def fit_terminal(self, size: Size) -> None:
        """Cover the screen on top with the terminal-too-small sentence, or uncover it, for
        the terminal's size now. A new cover goes on the screen on top only (a dialog's
        hides the screens it is drawn over); every screen that has one is uncovered (a dialog
        lets the screen under it show through)."""
        for screen in self.screen_stack:
            for guard in screen.query_children(TooSmall):
                guard.fit(size)
        if not fits(size) and not self.screen.query_children(TooSmall):
            self.screen.mount(TooSmall())  # it covers the screen as it mounts

    def update_styles(self, node: DOMNode, animate: bool = True) -> None:
        """Textual's restyling of *node* and what it holds, when its classes change — but
        not before it is mounted: Textual styles every widget as it mounts it, and widgets
        change their classes while they are built (``compact``, an ``Input``'s validity, a
        ``Button``'s variant): about 8 ms of CPU before the lobby's first paint, for nothing."""
        if node is self or node.is_attached:
            super().update_styles(node, animate)

    def start_game(self, setup: GameSetup) -> None:
        """Start a new local game for *setup* and show it, replacing any finished game."""
        from client.game.local import LocalGame  # the protocol's crypto loads with a game
        from client.game.score import RunningScore
        from client.screens.game import GameScreen

        replacing = self.screen if isinstance(self.screen, GameScreen) else None
        score = None
        if replacing is not None and isinstance(replacing.game, LocalGame):
            before = replacing.game  # "Play again": the session's score goes on
            if before.setup == setup and before.ended is not None:
                score = (before.extras.score or RunningScore.start(setup.names)).after(before.ended)
        try:
            game = LocalGame(setup, self.settings, score=score)
        except OSError as problem:  # the log folder cannot be written, the disk is full…
            self.notify(
                _("The match log cannot be written: {problem}").format(problem=say_error(problem)),
                title=_("Cannot start"),
                severity="error",
            )
            return
        self.open_game(game, replacing)

    def open_game(self, game: GameDriver, replacing: Screen[Any] | None = None) -> None:
        """Show *game* on its game's screen (the one screen of that game, whatever drives
        it), in place of *replacing* and whatever is above it when given."""
        from client.screens.goose import GooseScreen
        from client.screens.jacquet import JacquetScreen

        kind = GooseScreen if game.setup.game == "goose" else JacquetScreen
        screen = kind(game, self.settings)
        if replacing is not None and replacing in self.screen_stack:
            while self.screen is not replacing:
                self.pop_screen()
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def on_start_game(self, message: StartGame) -> None:
        self.start_game(message.setup)

    def on_open_game(self, message: OpenGame) -> None:
        self.open_game(message.game, message.replacing)

    def on_return_to_lobby(self, message: ReturnToLobby) -> None:
        self.return_to_lobby()

    def on_end_chosen(self, message: EndChosen) -> None:
        self.handle_end_choice(message.setup, message.choice)

    def on_room_opened(self, message: RoomOpened) -> None:
        self._open_rooms.add(message.closing)

    def on_close_later(self, message: CloseLater) -> None:
        self._open_rooms.discard(message.closing)
        self.close_later(message.closing)

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
        """The screens are gone: leave the rooms still open, and let those being left finish
        closing, for a moment."""
        for closing in self._open_rooms:
            self.close_later(closing)
        self._open_rooms.clear()
        if self._rooms_closing:
            _, late = await asyncio.wait(self._rooms_closing, timeout=CLOSING_SECONDS)
            self.closings_cut_short = len(late)
            for task in late:
                task.cancel()
            if late:
                await asyncio.wait(late)

    def return_to_lobby(self) -> None:
        while len(self.screen_stack) > 1:
            if isinstance(self.screen, HoldsAGame):
                self.screen.let_go()
            self.pop_screen()

    async def action_quit(self) -> None:
        """Quit at once, unless a game is in progress: then ask first."""
        screen = self.screen
        if isinstance(screen, AsksBeforeQuitting) and screen.in_progress:
            self.push_screen(
                ConfirmScreen(
                    _("Quit Tablier in the middle of this game?"),
                    detail=screen.quit_detail(),
                    confirm_label=_("Quit"),
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
                    _(binding.description),
                    _(binding.tooltip)
                    if binding.tooltip
                    else _("key: {key}").format(key=self.get_key_display(binding)),
                    partial(screen.run_action, binding.action),
                )
        if "app.quit" not in offered:  # the lobby's: its key is the app's ctrl+q
            yield SystemCommand(_("Quit"), _("Quit Tablier (asks first mid-game)"),
                                partial(self.run_action, "quit"))  # fmt: skip
        yield from system_commands(super().get_system_commands(screen), self._save_screenshot)

    def get_key_display(self, binding: Binding) -> str:
        """A key named as a keyboard of the language in use labels it ("Échap")."""
        return key_name(super().get_key_display(binding))

    def action_command_palette(self) -> None:
        from textual.command import CommandPalette

        from client.widgets.palette import Palette

        if self.use_command_palette and not isinstance(self.screen, CommandPalette):
            self.push_screen(Palette(id="--command-palette",
                                     placeholder=_("Search for commands…")))  # fmt: skip

    def search_themes(self) -> None:
        from textual.theme import ThemeProvider

        from client.widgets.palette import Palette

        self.push_screen(Palette(providers=[ThemeProvider],
                                 placeholder=_("Search for themes…")))  # fmt: skip

    def action_help_quit(self) -> None:
        """ctrl+c copies (and quits nothing): say which key quits, as Textual does."""
        quitting = (active.binding for active in self.active_bindings.values()
                    if active.binding.action in ("quit", "app.quit"))  # fmt: skip
        binding = next(quitting, None)
        if binding is not None:
            key = self.get_key_display(binding)
            self.notify(_("Press {key} to quit Tablier").format(key=key),
                        title=_("Do you want to quit?"), markup=False)  # fmt: skip

    def _save_screenshot(self) -> None:
        """The palette's Screenshot: an SVG of the screen in the current folder."""
        try:
            path = self.save_screenshot()
        except OSError as error:
            self.notify(say_error(error), title=_("Screenshot"), severity="error", markup=False)
            return
        saved = _("Screenshot saved to {path}").format(path=path_shown(path))
        self.notify(saved, title=_("Screenshot"), markup=False)


class NetworkApp(TablierApp):
    """``tablier host``, ``join`` and ``watch``: the lobby at the bottom as always, the room
    on top of it from the start.

    The room is what the command was run for: when it cannot be entered, the app ends at
    once (exit status 1), and the command says why on the terminal (:meth:`problem`).
    """

    CSS_PATH = app_styles()  # type: ignore[assignment]  # a subclass: paths from this file

    def __init__(self, plan: HostPlan | JoinPlan, settings: SessionSettings) -> None:
        super().__init__(None, settings)
        self.plan = plan
        self.room_screen: RoomScreen | None = None

    def on_mount(self) -> None:
        # TablierApp.on_mount also runs (Textual calls each class's handler); it starts nothing.
        from client.screens.room import RoomScreen

        self.room_screen = RoomScreen(self.plan, self.settings)
        self.push_screen(self.room_screen)

    def on_room_screen_failed(self, message: RoomScreen.Failed) -> None:
        if message.room_screen is self.room_screen:
            self.exit(return_code=1)

    def on_room_screen_left_unentered(self, message: RoomScreen.LeftUnentered) -> None:
        """esc while `tablier join` was still connecting: the command ends (saying why), it
        does not drop the person into a lobby he never asked for."""
        if message.room_screen is self.room_screen:
            self.exit(return_code=1)

    def problem(self) -> str | None:
        """Why the command's room was never entered (None: it was)."""
        if self.room_screen is None:
            return _("the app stopped before it opened the room")
        return self.room_screen.outcome()


class ReplayApp(TablierApp):
    """``tablier replay LOG``: the recorded match over the lobby; closing it quits."""

    CSS_PATH = app_styles()  # type: ignore[assignment]

    def __init__(self, replay: MatchReplay) -> None:
        from client.game.replay import ReplayGame

        super().__init__()
        self.replay = replay
        # Set up here, not once running: options the screens refuse (a match to 2^31
        # points, in a valid log) are refused before the app takes the terminal.
        self.replay_game = ReplayGame(replay)

    def on_mount(self) -> None:
        self.open_game(self.replay_game)

    def return_to_lobby(self) -> None:
        """Closing the replay ends the program: it was opened for this log alone."""
        self.exit()
