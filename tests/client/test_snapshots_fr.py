"""The boards in French at 80x24, pinned as SVG snapshots (issue 18): the same games as the
English snapshots (fixed names, seeded dice, no animation), read by a French player. Every
line of the prompt, the side panel, the legend and the footer fits.

Regenerate after an intended change with ``pytest tests/client/test_snapshots_fr.py
--snapshot-update`` and look at the SVGs before committing them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from client import i18n
from tests.client.test_jacquet_screen import _black_picks_his_postillon, jacquet_app
from tests.client.test_snapshots import MID_GAME_THROWS, SnapCompare, _goose_app


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
