"""Textual's command palette, saying in the language in use that it found nothing.

Textual writes its "No matches found" in English, in a timer's callback built inside
``CommandPalette._start_no_matches_countdown``: no hook lets it be worded otherwise, so
:class:`Palette` builds that line itself, as Textual does, with Tablier's words
(``tests/client/test_i18n.py`` types a search that finds nothing in a French game and reads
the line it shows).
"""

from __future__ import annotations

from rich.align import Align
from rich.style import Style
from rich.text import Text
from textual.command import CommandList, CommandPalette
from textual.widgets.option_list import Option

from client.i18n import _


class Palette(CommandPalette):
    """Textual's palette, its "No matches found" in the language in use."""

    def _start_no_matches_countdown(self, search_value: str) -> None:
        self._stop_no_matches_countdown()

        def show_no_matches() -> None:
            # As Textual's: only a search that found nothing says so; an empty search
            # (discovering the commands) just shows no list.
            if search_value:
                line = Align.center(Text(_("No matches found"), style=Style(bold=False)))
                self.query_one(CommandList).add_option(
                    Option(line, disabled=True, id=self._NO_MATCHES)
                )
                self._list_visible = True
            else:
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show_no_matches)
