"""The app ``tablier replay LOG`` runs: the replay screen over the lobby; closing it quits."""

from __future__ import annotations

from client.app import TablierApp, app_styles
from client.screens.replay import ReplayScreen
from client.screens.replay_log import MatchReplay


class ReplayApp(TablierApp):
    """Shows one recorded match (with TablierApp's help, quit and plain-text notices)."""

    CSS_PATH = app_styles()  # type: ignore[assignment]

    def __init__(self, replay: MatchReplay) -> None:
        super().__init__()
        self.replay = replay

    def on_mount(self) -> None:
        # TablierApp.on_mount also runs (Textual calls each class's handler); it starts nothing.
        self.push_screen(ReplayScreen(self.replay), lambda _closed: self.exit())
