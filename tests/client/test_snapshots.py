"""What people see, pinned as SVG snapshots: fixed names, seeded dice, no animation, no clock.

Regenerate after an intended change with ``pytest tests/client/test_snapshots.py
--snapshot-update`` and look at the SVGs before committing them.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

from client.app import TablierApp
from client.screens.end import EndScreen
from client.setup import GooseSetup
from tests.client.conftest import seeded_settings

SnapCompare = Callable[..., bool]
FOUR = GooseSetup(("Alice", "Bruno", "Chloé", "Denis"), frozenset({3}))
MID_GAME_THROWS = 14


def _goose_app(tmp_path: Path, setup: GooseSetup = FOUR) -> TablierApp:
    return TablierApp(setup, seeded_settings(tmp_path, seed=11))


async def _play_until_over(pilot: Pilot[None]) -> None:
    for _ in range(1000):
        if isinstance(pilot.app.screen, EndScreen):
            return
        await pilot.press("space")


def test_lobby(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(TablierApp(settings=seeded_settings(tmp_path)), terminal_size=(80, 24))


def test_goose_mid_game_80x24(snap_compare: SnapCompare, tmp_path: Path) -> None:
    presses = ["space"] * MID_GAME_THROWS
    assert snap_compare(_goose_app(tmp_path), press=presses, terminal_size=(80, 24))


def test_goose_mid_game_160x50(snap_compare: SnapCompare, tmp_path: Path) -> None:
    presses = ["space"] * MID_GAME_THROWS
    assert snap_compare(_goose_app(tmp_path), press=presses, terminal_size=(160, 50))


async def open_help(pilot: Pilot[None]) -> None:
    """F1, and the help whole: its rules in full are laid out after its first paint."""
    await pilot.press("f1")
    while not pilot.app.screen.query("#full-rules"):
        await pilot.pause()


def test_goose_help(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(_goose_app(tmp_path), run_before=open_help, terminal_size=(80, 24))


def fixed_log_path(name: str) -> Path:
    """The end screen prints the log's path: a fixed one keeps the picture stable."""
    log_path = Path(tempfile.gettempdir()) / "tablier-snapshot" / name
    log_path.unlink(missing_ok=True)
    return log_path


def test_goose_end(snap_compare: SnapCompare) -> None:
    log_path = fixed_log_path("alice-bruno.tablier")
    settings = seeded_settings(log_path.parent, seed=14, log_path=log_path)  # Alice wins
    app = TablierApp(GooseSetup(("Alice", "Bruno")), settings)
    assert snap_compare(app, run_before=_play_until_over, terminal_size=(80, 24))
