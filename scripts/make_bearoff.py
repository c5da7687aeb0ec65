#!/usr/bin/env python3
"""Make ``engine/bot/bearoff_table.bin``: exact expected turns to bear off, every position.

Solves the bear-off of every distribution of up to 15 checkers on points 19-24 with
:func:`engine.bot.bearoff.compute` (best play, the ``backgammon`` rule of RULES 2.6, legal
plays from the computer player's generator, which tests/bot checks against the engine) and
writes one unsigned 16-bit little-endian value per position, in milli-turns, in
:func:`engine.bot.bearoff.index` order. About a minute; the output is deterministic.

    .venv/bin/python scripts/make_bearoff.py
"""

from __future__ import annotations

import sys
from array import array
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.bot.bearoff import POSITIONS, compute, index  # noqa: E402


def main() -> int:
    table = array("H", [0]) * POSITIONS
    for home, turns in compute(15).items():
        table[index(home)] = turns
    if sys.byteorder != "little":
        table.byteswap()
    (ROOT / "engine" / "bot" / "bearoff_table.bin").write_bytes(table.tobytes())
    return 0


if __name__ == "__main__":
    sys.exit(main())
