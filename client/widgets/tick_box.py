"""A checkbox whose state is a glyph, not only a colour.

Textual's checkbox draws the same ``X`` ticked or not, told apart by colour alone: a dark
``X`` on a dark panel when unticked, so in the default theme (and under NO_COLOR) the two
read alike. :class:`TickBox` draws ``✓`` when ticked and nothing when not.
"""

from __future__ import annotations

from textual.widgets import Checkbox

TICKED, UNTICKED = "✓", " "


class TickBox(Checkbox):
    """A :class:`~textual.widgets.Checkbox` drawn ``▐✓▌`` ticked, ``▐ ▌`` unticked."""

    def on_mount(self) -> None:
        self._show_tick()

    def watch_value(self) -> None:
        super().watch_value()
        self._show_tick()

    def _show_tick(self) -> None:
        self.BUTTON_INNER = TICKED if self.value else UNTICKED
        self.refresh()
