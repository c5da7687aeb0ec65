"""Shared fixtures for the app's tests: deterministic dice, no animation, logs in tmp."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App

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


def screen_text(app: App[object]) -> str:
    """Everything the current screen shows, as plain text (one line per row)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)
