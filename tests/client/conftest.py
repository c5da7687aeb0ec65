"""Shared fixtures for the app's tests: deterministic dice, no animation, logs in tmp."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from client.setup import SessionSettings
from protocol.identity import seeded_source

FIXED_TIME_MS = 1_796_000_000_000  # a fixed match time: same match id, same dice, every run


def seeded_settings(tmp_path: Path, seed: int = 7, **overrides: object) -> SessionSettings:
    """Settings for a reproducible game: seeded dice, no animation, no computer pause."""
    values: dict[str, object] = {
        "animation": False,
        "data_dir": tmp_path,
        "random_source": seeded_source(seed),
        "computer_pause": 0.0,
        "clock": lambda: FIXED_TIME_MS,
    }
    values.update(overrides)
    return SessionSettings(**values)  # type: ignore[arg-type]


@pytest.fixture
def settings(tmp_path: Path) -> SessionSettings:
    return seeded_settings(tmp_path)


def screen_text(app: App[Any]) -> str:
    """Everything the current screen shows, as plain text (one line per row)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


UNTIL_SECONDS = 150.0
"""How long :func:`until` lets the app run: a hang guard, never a budget. It is longer than
pytest-timeout's 120 s (pyproject), which stops a hang first, at the line that waited; this
one only names *what* never happened when pytest-timeout is off (a debugger). A busy machine
(load 25 on 2 cores) ran out a 60 s budget while nothing was wrong."""


async def until(pilot: Pilot[None], done: Callable[[], bool], what: str) -> None:
    """Let the app run until *done()* holds; AssertionError naming *what* otherwise."""
    try:
        async with asyncio.timeout(UNTIL_SECONDS):
            while not done():
                await pilot.pause(0.01)
    except TimeoutError:
        raise AssertionError(f"{what} never happened") from None
