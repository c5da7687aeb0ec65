"""A lobby list of files (logs, seat files) shown again after a re-scan: the highlight stays
on the file it was on, so a list read again every few seconds never moves it away under the
player's keys."""

from __future__ import annotations

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
