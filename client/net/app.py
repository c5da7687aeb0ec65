"""The Tablier app opened straight on a room (``tablier host``, ``join``, ``watch``)."""

from __future__ import annotations

from client.app import TablierApp, app_styles
from client.screens.room import HostPlan, JoinPlan, RoomScreen
from client.setup import SessionSettings


class NetworkApp(TablierApp):
    """The lobby at the bottom as always, the room on top of it from the start."""

    CSS_PATH = app_styles()  # type: ignore[assignment]

    def __init__(self, plan: HostPlan | JoinPlan, settings: SessionSettings) -> None:
        super().__init__(None, settings)
        self.plan = plan

    def on_mount(self) -> None:
        # TablierApp.on_mount also runs (Textual calls each class's handler); it starts nothing.
        self.push_screen(RoomScreen(self.plan, self.settings))
