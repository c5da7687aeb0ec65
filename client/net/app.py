"""The Tablier app opened straight on a room (``tablier host``, ``join``, ``watch``)."""

from __future__ import annotations

from client.app import TablierApp, app_styles
from client.screens.room import HostPlan, JoinPlan, RoomScreen
from client.setup import SessionSettings


class NetworkApp(TablierApp):
    """The lobby at the bottom as always, the room on top of it from the start.

    The room is what the command was run for: when it cannot be entered, the app ends at
    once (exit status 1), and the command says why on the terminal (:meth:`problem`).
    """

    CSS_PATH = app_styles()  # type: ignore[assignment]

    def __init__(self, plan: HostPlan | JoinPlan, settings: SessionSettings) -> None:
        super().__init__(None, settings)
        self.plan = plan
        self.room_screen: RoomScreen | None = None

    def on_mount(self) -> None:
        # TablierApp.on_mount also runs (Textual calls each class's handler); it starts nothing.
        self.room_screen = RoomScreen(self.plan, self.settings)
        self.push_screen(self.room_screen)

    def on_room_screen_failed(self, message: RoomScreen.Failed) -> None:
        if message.room_screen is self.room_screen:
            self.exit(return_code=1)

    def problem(self) -> str | None:
        """Why the command's room was never entered (None: it was)."""
        if self.room_screen is None:
            return "the app stopped before it opened the room"
        return self.room_screen.outcome()
