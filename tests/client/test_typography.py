"""French no-break spaces on screen: the wrapping a Label is drawn with never breaks at one,
and the library patterns :func:`~client.typography.keep_no_break_spaces` replaces are still
the ones it was written from (so that an upgrade of Textual or Rich is caught here)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

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


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_a_notice_breaks_a_log_path_at_its_separators_only(
    language: str, tmp_path: Path
) -> None:
    """The notice a player back in his seat reads (issue 29: at 80x24 its log's name was
    cut mid-word, "…elise-fran" / "cois.tablier."): each line of it ends at a space, after
    a ``/``, or after a hyphen of the file's name, and together they say it whole."""
    from textual.widgets._toast import Toast

    from client import i18n
    from client.app import TablierApp
    from client.i18n import path_shown
    from tests.client.conftest import seeded_settings, until

    log = tmp_path / "xdg" / "data" / "tablier" / "matches"
    log = log / "2026-12-07T201215-jacquet-elise-francois.tablier"
    i18n.use(language)
    try:
        notice = i18n._("Back in your seat as {name}; your log is {path}.").format(
            name="Élise", path=path_shown(log)
        )
        app = TablierApp(settings=seeded_settings(tmp_path))
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            app.notify(notice, title=i18n._("Your seat"), markup=False)
            await until(pilot, lambda: bool(app.screen.query(Toast)), "the notice")
            await pilot.pause()
            area = app.screen.query(Toast).first().content_region
            rows = screen_text(app).splitlines()[area.y : area.bottom]
    finally:
        i18n.use("en")
    lines = [row[area.x : area.right].rstrip() for row in rows][1:]  # (its title first)
    lines = [line for line in lines if line]
    assert path_shown(log).startswith("/") and len(log.name) > area.width  # it must break
    at = 0
    for line in lines:  # the notice, whole, line after line; each break where it may be
        assert notice.startswith(line, at), (notice[at:], lines)
        at += len(line)
        if at < len(notice):
            assert notice[at] == " " or notice[at - 1] in "/-", (line, lines)
            at += notice[at] == " "
    assert at == len(notice), lines
