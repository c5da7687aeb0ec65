"""French no-break spaces on screen: the wrapping a Label is drawn with never breaks at one,
and the library patterns :func:`~client.typography.keep_no_break_spaces` replaces are still
the ones it was written from (so that an upgrade of Textual or Rich is caught here)."""

from __future__ import annotations

import importlib
import re

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Label

from client.typography import PATTERNS, keep_no_break_spaces
from tests.client.conftest import screen_text

# Unpatched, at 11 columns: "Tour : 12" / "345 points" / "!" — half a number, and a "!"
# alone at the start of a line.
SENTENCE = "Tour\u00a0: 12\u202f345 points\u00a0!"


class OneLabel(App[None]):
    CSS = "Label { width: 11; }"

    def compose(self) -> ComposeResult:
        yield Label(SENTENCE)


async def test_a_label_breaks_its_lines_at_breakable_spaces_only() -> None:
    keep_no_break_spaces()
    app = OneLabel()
    async with app.run_test(size=(20, 4)):
        lines = [line.rstrip() for line in screen_text(app).splitlines()]
    assert lines == ["Tour\u00a0:", "12\u202f345", "points\u00a0!", ""]


def test_the_installed_libraries_wrap_with_the_patterns_ours_replace() -> None:
    """Fails when Textual or Rich changed the pattern: then the patch leaves it alone, and
    the new pattern needs reading before ours is written from it."""
    keep_no_break_spaces()
    for (module_name, name), (theirs, ours) in PATTERNS.items():
        pattern = getattr(importlib.import_module(module_name), name).pattern
        assert pattern == ours, f"{module_name}.{name}: ours replaces {theirs!r}, not {pattern!r}"


def test_a_pattern_it_was_not_written_from_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    modules = [(importlib.import_module(module_name), name) for module_name, name in PATTERNS]
    for module, name in modules:
        monkeypatch.setattr(module, name, re.compile(r"\S+\s*"))
    before = [getattr(module, name) for module, name in modules]
    monkeypatch.setitem(PATTERNS, ("textual._gone", "re_chunk"), (r"\S+", r"\S+"))
    keep_no_break_spaces()  # and a module gone in a new version is no error
    assert [getattr(module, name) for module, name in modules] == before
