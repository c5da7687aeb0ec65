"""A widget mounted just after its screen's first paint (for tabs not shown at first).

Textual's ``Lazy`` does this, but mounts unconditionally once the screen refreshed: when the
app quits in between (``ctrl+q`` on the lobby as soon as it shows), its mount raises
``MountError``. :class:`AfterFirstPaint` asks :func:`client.lifecycle.closing` first.

A screen composed under another (the lobby of an app started on a game or a room) is not
painted: its deferred widgets wait until it is shown, and an app that never goes back to it
never pays for them.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widget import Widget

from client.lifecycle import closing


class AfterFirstPaint(Widget):
    """Stands in for *widget* (invisible) until its screen has been painted once."""

    DEFAULT_CSS = """
    AfterFirstPaint {
        display: none;
    }
    """

    def __init__(self, widget: Widget) -> None:
        self._widget = widget
        super().__init__()

    def compose_add_child(self, widget: Widget) -> None:
        self._widget.compose_add_child(widget)

    async def mount_composed_widgets(self, widgets: list[Widget]) -> None:
        if self.screen.is_active:
            self.call_after_refresh(self._mount_for_real)
        else:
            self.app.screen_change_signal.subscribe(self, self._screen_changed)

    def _screen_changed(self, screen: Screen[object]) -> None:
        if screen is self.screen:
            self.app.screen_change_signal.unsubscribe(self)
            self.call_after_refresh(self._mount_for_real)

    async def _mount_for_real(self) -> None:
        parent = self.parent
        if closing(self) or not isinstance(parent, Widget):
            return
        await parent.mount(self._widget, after=self)
        await self.remove()
