"""The game screens' footer: every key, and the command-palette hint only when it fits."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.widgets import Footer


class KeysFooter(Footer):
    """Textual's footer, dropping its right-hand "^p palette" hint when the keys need the
    room: on a networked game at 80 columns (chat, claim) the hint covered the last keys,
    F1 Help among them. ctrl+p still opens the palette, and the help's key table lists it."""

    _width = 0

    def compose(self) -> ComposeResult:
        yield from super().compose()
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        if self.show_command_palette and self.virtual_size.width > self.size.width:
            self.show_command_palette = False
            self.call_after_refresh(self.recompose)

    def on_resize(self, event: events.Resize) -> None:
        wider = event.size.width > self._width
        self._width = event.size.width
        if wider and not self.show_command_palette:  # there may be room again: try
            self.show_command_palette = True
            self.call_after_refresh(self.recompose)
