"""The Tablier app opened straight on a room (``tablier host``, ``join``, ``watch``)."""

from __future__ import annotations

from pathlib import Path

import client.app
from client.app import TablierApp
from client.screens.room import HostPlan, JoinPlan, RoomScreen
from client.setup import SessionSettings


def _app_styles() -> list[str | Path]:
    """TablierApp's style sheets, found from its module (a subclass resolves relative paths
    from its own file)."""
    paths = TablierApp.CSS_PATH
    listed = paths if isinstance(paths, list) else [paths] if paths else []
    home = Path(client.app.__file__).parent
    return [home / path for path in listed]


class NetworkApp(TablierApp):
    """The lobby at the bottom as always, the room on top of it from the start."""

    CSS_PATH = _app_styles()  # type: ignore[assignment]

    def __init__(self, plan: HostPlan | JoinPlan, settings: SessionSettings) -> None:
        super().__init__(None, settings)
        self.plan = plan

    def on_mount(self) -> None:
        # TablierApp.on_mount also runs (Textual calls each class's handler); it starts nothing.
        self.push_screen(RoomScreen(self.plan, self.settings))
