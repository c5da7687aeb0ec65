"""A lobby list of files (logs, seat files) shown again after a re-scan: the highlight stays
on the file it was on, so a list read again every few seconds never moves it away under the
player's keys."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.widgets import OptionList


def show_list(options: OptionList, entries: list[tuple[Path, str]], shown: list[Path]) -> None:
    """Show *entries* (each a file and its line) in *options*, which shows the files *shown*
    now: the highlight on the file it was on if still listed, else on the first (so that
    enter and delete act at once)."""
    index = options.highlighted
    kept = shown[index] if index is not None and index < len(shown) else None
    paths = [path for path, _ in entries]
    options.clear_options()
    options.add_options([line for _, line in entries])
    if entries:
        options.highlighted = paths.index(kept) if kept in paths else 0


class OneScan:
    """A list's re-scans, one at a time: one asked for while another runs starts when it
    ends, so the list shows what was there after the last ask. None is ever cancelled: the
    lobby asks every few seconds, and a worker cancelled under someone waiting for it (the
    app's workers, waited for by a test or at exit) ends in an error."""

    def __init__(self, start: Callable[[], object]) -> None:
        self._start = start
        self._running = False
        self._again = False

    def ask(self) -> None:
        """Scan now, or once the scan running has ended."""
        if self._running:
            self._again = True
            return
        self._running = True
        self._start()

    def done(self) -> None:
        """The scan running ended (its result shown): the next one, if asked for meanwhile."""
        self._running = False
        if self._again:
            self._again = False
            self.ask()
