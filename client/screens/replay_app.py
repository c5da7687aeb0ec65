"""The app ``tablier replay LOG`` runs: one replay screen, with help and quit."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from client.screens.help import HelpScreen
from client.screens.replay import ReplayScreen
from client.screens.replay_log import MatchReplay


class ReplayApp(App[None]):
    """Shows one recorded match; closing the replay quits."""

    TITLE = "Tablier"
    CSS_PATH = "../app.tcss"  # the help dialog's frame, as in the main app
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        Binding("f1", "help", "Help", tooltip="The game's rules and every key"),
    ]

    def __init__(self, replay: MatchReplay) -> None:
        super().__init__()
        self.replay = replay

    def on_mount(self) -> None:
        self.push_screen(ReplayScreen(self.replay), lambda _closed: self.exit())

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss()
            return
        self.push_screen(HelpScreen.for_screen(self.screen))
