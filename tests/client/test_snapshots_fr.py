"""The lobby, the boards mid-game, the help and the end screen in French at 80x24, pinned as
SVG snapshots (issue 18): the same games as the English snapshots (fixed names, seeded
dice, no animation), read by a French player. Every line of the prompt, the side panel, the
legend and the footer fits, the keys are named as a French keyboard names them, and no line
starts with the punctuation a no-break space ties to its word.

Regenerate after an intended change with ``pytest tests/client/test_snapshots_fr.py
--snapshot-update`` and look at the SVGs before committing them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from client import i18n
from client.app import TablierApp
from client.setup import GooseSetup
from tests.client.conftest import seeded_settings
from tests.client.test_jacquet_screen import _black_picks_his_postillon, jacquet_app
from tests.client.test_snapshots import (
    MID_GAME_THROWS,
    SnapCompare,
    _goose_app,
    _play_until_over,
    fixed_log_path,
    open_help,
)


@pytest.fixture(autouse=True)
def french() -> Iterator[None]:
    i18n.use("fr")
    yield
    i18n.use("en")


def test_goose_board_in_french_80x24(snap_compare: SnapCompare, tmp_path: Path) -> None:
    presses = ["space"] * MID_GAME_THROWS
    assert snap_compare(_goose_app(tmp_path), press=presses, terminal_size=(80, 24))


def test_jacquet_board_in_french_80x24(snap_compare: SnapCompare, tmp_path: Path) -> None:
    app = jacquet_app(tmp_path)
    assert snap_compare(app, run_before=_black_picks_his_postillon, terminal_size=(80, 24))


def test_lobby_in_french_80x24(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(TablierApp(settings=seeded_settings(tmp_path)), terminal_size=(80, 24))


def test_goose_help_in_french_80x24(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(_goose_app(tmp_path), run_before=open_help, terminal_size=(80, 24))


def test_jacquet_help_in_french_80x24(snap_compare: SnapCompare, tmp_path: Path) -> None:
    app = jacquet_app(tmp_path)
    assert snap_compare(app, run_before=open_help, terminal_size=(80, 24))


def test_goose_end_in_french_80x24(snap_compare: SnapCompare) -> None:
    log_path = fixed_log_path("alice-bruno-fr.tablier")
    settings = seeded_settings(log_path.parent, seed=14, log_path=log_path)  # Alice wins
    app = TablierApp(GooseSetup(("Alice", "Bruno")), settings)
    assert snap_compare(app, run_before=_play_until_over, terminal_size=(80, 24))
