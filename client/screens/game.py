"""What every game screen shares: its game, quitting and leaving with confirmation, the end.

The Goose and Jacquet screens subclass :class:`GameScreen`; see docs/client-architecture.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from textual.binding import Binding, BindingType
from textual.screen import Screen

from client.screens.confirm import ConfirmScreen
from client.screens.end import EndChoice, EndScreen, GameSummary

if TYPE_CHECKING:
    from client.app import TablierApp
    from client.local_game import LocalGame


class GameScreen(Screen[None]):
    """A screen showing one game. ``HELP_TEXT`` is the rules summary the help screen shows."""

    HELP_TEXT: ClassVar[str] = ""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", "Lobby", tooltip="Leave this game for the lobby"),
        Binding("q", "app.quit", "Quit", tooltip="Quit Tablier (asks first mid-game)"),
    ]

    def __init__(self, game: LocalGame, *, animation: bool) -> None:
        super().__init__()
        self.game = game
        self.animation = animation

    @property
    def tablier(self) -> TablierApp:
        return cast("TablierApp", self.app)

    @property
    def in_progress(self) -> bool:
        """Whether leaving now would abandon a game someone is still playing."""
        return not self.game.finished

    def on_unmount(self) -> None:
        self.game.close()

    def refuse(self, reason: str) -> None:
        """Say why a key does nothing now; pressed again, it replaces its toast rather than
        stacking another over the board (space held during a computer's turn)."""
        self.app.clear_notifications()
        self.notify(reason, title="Not now", severity="warning")

    def quit_detail(self) -> str:
        if self.game.log_path is None:
            return "The game so far is lost."
        return f"The game so far stays in its log: {self.game.log_path}"

    def action_leave(self) -> None:
        if not self.in_progress:
            self.tablier.return_to_lobby()
            return
        self.app.push_screen(
            ConfirmScreen(
                "Leave this game for the lobby?",
                detail=self.quit_detail(),
                confirm_label="Leave",
            ),
            lambda confirmed: self.tablier.return_to_lobby() if confirmed else None,
        )

    def show_end(self, summary: GameSummary) -> None:
        """Open the end-of-game screen; its choice (again, lobby, quit) goes to the app."""
        setup = self.game.setup

        def chosen(choice: EndChoice | None) -> None:
            self.tablier.handle_end_choice(setup, choice)

        self.app.push_screen(EndScreen(summary), chosen)
