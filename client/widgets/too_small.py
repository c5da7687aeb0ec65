# ruff: noqa: RUF001, RUF002 -- the multiplication signs of 80 by 24 are meant
"""The smallest terminal Tablier draws in, and the one sentence it shows below it.

Every screen is laid out for :data:`MIN_WIDTH` × :data:`MIN_HEIGHT` at least: the Jacquet
board (45 columns at its narrowest) beside its side panel (30), the French footers' keys,
the lobby's *Recorded match* tab with its lists. Below that a board would be cut (at 60×20
the Jacquet board lost points 1-5 and 20-24), so the app covers the screen with
:class:`TooSmall` instead — one centred sentence saying how big the terminal must be and
how big it is — and takes it away when the terminal grows back. The screen under it stays
as it was, mounted and untouched: the game goes on, what was typed stays typed, and the
widget that had the focus has it again.

The rest of the screen is hidden while the sentence shows (app.tcss), not removed.
The app (client/app.py) puts a :class:`TooSmall` on whichever screen is on top, when the
terminal is too small for it, and tells it each time the terminal's size changes: one
place for the whole app, not one per screen.
"""

from __future__ import annotations

from typing import Final

from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Static

from client.i18n import _

MIN_WIDTH: Final = 80
"""Columns Tablier needs (the Jacquet board and its side panel; the French footers)."""
MIN_HEIGHT: Final = 24
"""Rows Tablier needs (the lobby's lists of games; a board, its connection line and keys)."""


def fits(size: Size) -> bool:
    """Whether a terminal of *size* is big enough for every screen.

    >>> fits(Size(80, 24)), fits(Size(79, 40)), fits(Size(200, 23))
    (True, False, False)
    """
    return size.width >= MIN_WIDTH and size.height >= MIN_HEIGHT


def minimum_size() -> str:
    """The minimum as people write it: ``80×24``."""
    return f"{MIN_WIDTH}×{MIN_HEIGHT}"


def too_small_sentence(size: Size) -> str:
    """The one sentence shown instead of a screen that would not fit *size*."""
    return _(
        "Tablier needs a terminal of at least {minimum} (this one is {width}×{height}): "
        "make it bigger."
    ).format(minimum=minimum_size(), width=size.width, height=size.height)


class TooSmall(Static, can_focus=True):
    """Covers its screen while the terminal is smaller than the minimum.

    While shown it holds the focus, so that keys reach neither the hidden board nor a hidden
    field (a key pressed blind would play a move unseen); only the app's priority keys
    (``ctrl+q``) still act. The widget that had the focus gets it back when the terminal
    is big enough again.
    """

    DEFAULT_CSS = """
    TooSmall {
        width: 100%;
        height: 100%;
        background: $background;
        color: $text;
        content-align-horizontal: center;
        content-align-vertical: middle;
        text-align: center;
        text-style: bold;
        padding: 0 1;
        display: none;
    }
    """
    # While it is shown, its screen has the class ``-too-small``, and app.tcss hides all the
    # rest of the screen (hidden, not removed: nothing is lost) and shows this.

    def __init__(self) -> None:
        super().__init__("", markup=False)
        self._given_back: Widget | None = None  # who had the focus before it was covered
        self.shown = False

    def on_mount(self) -> None:
        self.watch(self.screen, "focused", self._keep_focus, init=False)
        self.fit(self.app.size)

    def fit(self, size: Size) -> None:
        """Cover the screen when *size* is too small for it, uncover it when it is not."""
        if fits(size):
            if self.shown:
                self.shown = False
                self.screen.remove_class("-too-small")
                given_back, self._given_back = self._given_back, None
                if given_back is not None and given_back.is_attached and given_back.can_focus:
                    given_back.focus(scroll_visible=False)
                else:  # covered from the start: the focus goes where the screen puts it first
                    self.blur()
                    self.call_after_refresh(self._auto_focus)  # once the screen shows again
            return
        self.update(Text(too_small_sentence(size)))
        if not self.shown:
            self.shown = True
            self.screen.add_class("-too-small")
            self._given_back = self.screen.focused
            self.focus(scroll_visible=False)

    def _auto_focus(self) -> None:
        screen = self.screen  # Textual's rule: the screen's AUTO_FOCUS, else the app's
        selector = self.app.AUTO_FOCUS if screen.AUTO_FOCUS is None else screen.AUTO_FOCUS
        if selector:
            for widget in screen.query(selector):
                if widget is not self and widget.focusable:
                    widget.focus(scroll_visible=False)
                    return

    def _keep_focus(self, focused: Widget | None) -> None:
        """Something took the focus while the screen is covered (a screen that focuses a
        field as it starts): it gets it back later, the cover keeps it now."""
        if self.shown and focused is not self:
            if focused is not None:
                self._given_back = focused
            self.focus(scroll_visible=False)

    def on_key(self, event: events.Key) -> None:
        if self.shown:  # not to the screen's keys either: nothing acts unseen
            event.stop()
            event.prevent_default()

    def on_paste(self, event: events.Paste) -> None:
        if self.shown:
            event.stop()
            event.prevent_default()
