#!/usr/bin/env python3
"""Make the bear-off tables: exact expected turns, and the distribution of turns, every home.

``engine/bot/bearoff_table.bin``: the expected number of turns to bear off every
distribution of up to 15 checkers on points 19-24, solved by
:func:`engine.bot.bearoff.compute` (best play, the ``backgammon`` rule of RULES 2.6, legal
plays from the computer player's generator, which tests/bot checks against the engine); one
unsigned 16-bit little-endian value per position, in milli-turns, in
:func:`engine.bot.bearoff.index` order.

``engine/bot/bearoff_dist.bin``: for each of those positions, the probability of being off
within 1..20 turns when each roll is played as the first table prefers
(:func:`engine.bot.race.compute`), zlib-compressed 16-bit values in 1/65535ths; the equity of a
pure race comes from it (:mod:`engine.bot.race`).

A few minutes; the output is deterministic (integer arithmetic throughout).

    .venv/bin/python scripts/make_bearoff.py            # both tables
    .venv/bin/python scripts/make_bearoff.py --only dist  # the distributions alone
"""

from __future__ import annotations

import argparse
import sys
import zlib
from array import array
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.bot import bearoff, race  # noqa: E402


def _write(name: str, values: array) -> None:  # type: ignore[type-arg]
    if sys.byteorder != "little":
        values.byteswap()
    data = values.tobytes()
    if name.endswith("dist.bin"):
        data = zlib.compress(data, 9)
    (ROOT / "engine" / "bot" / name).write_bytes(data)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("turns", "dist"), help="make one table only")
    args = parser.parse_args()
    if args.only != "dist":
        table = array("H", [0]) * bearoff.POSITIONS
        for home, turns in bearoff.compute(15).items():
            table[bearoff.index(home)] = turns
        _write("bearoff_table.bin", table)
    if args.only != "turns":
        dist = array("H", [0]) * (bearoff.POSITIONS * race.TURNS)
        for home, within in race.compute(15).items():
            at = bearoff.index(home) * race.TURNS
            dist[at : at + race.TURNS] = array("H", within)
        _write("bearoff_dist.bin", dist)
    return 0


if __name__ == "__main__":
    sys.exit(main())
