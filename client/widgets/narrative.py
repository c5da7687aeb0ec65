"""The side log telling the game in plain words, one line per thing that happened."""

from __future__ import annotations

import re

from rich.text import Text
from textual.widgets import RichLog


class NarrativeLog(RichLog):
    """Wrapping, auto-scrolling; a screen writes sentences to it with :meth:`tell`."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(wrap=True, markup=False, auto_scroll=True, min_width=20, id=id)

    def tell(self, sentence: str, names: dict[str, str] | None = None) -> None:
        """Add *sentence*; each name in *names* is drawn in its style (a player's colour)."""
        text = Text(sentence)
        for name, style in (names or {}).items():
            text.highlight_regex(rf"\b{re.escape(name)}\b", style)
        self.write(text)
