"""The side log telling the game in plain words, one line per thing that happened."""

from __future__ import annotations

from textual.widgets import RichLog


class NarrativeLog(RichLog):
    """Wrapping, auto-scrolling; a screen writes sentences to it with :meth:`tell`."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(wrap=True, markup=False, auto_scroll=True, min_width=20, id=id)

    def tell(self, sentence: str) -> None:
        self.write(sentence)
