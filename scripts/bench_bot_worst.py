#!/usr/bin/env python3
"""A level's worst moves: find the slowest positions of real games, then time any code on them.

``collect`` plays ``--games`` games of ``--level`` (3 by default) against the level below
(paired seeds as in ``bench_bot.py``) and writes the ``--keep`` positions it took longest on
(JSON lines: position and dice). ``time`` plays ``--level`` on every position of such a file
and prints the median and the maximum time a move. Run ``time`` from two checkouts back to back (the
``PYTHONPATH`` picks the code) to compare them on the same positions, on the same machine,
in the same minute — the worst case depends on which positions occur, and this holds them
fixed::

    .venv/bin/python scripts/bench_bot_worst.py collect --games 20 --out /tmp/slow.jsonl
    PYTHONPATH=/path/to/old .venv/bin/python scripts/bench_bot_worst.py time /tmp/slow.jsonl
    .venv/bin/python scripts/bench_bot_worst.py time /tmp/slow.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

# Appended, not inserted: a PYTHONPATH naming another checkout comes first and is timed.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from engine.bot import choose_play
from engine.jacquet import Play, Position, position_from_json, position_to_json


def collect(level: int, games: int, keep: int, out: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_bot import make_player, play_game

    timed: list[tuple[float, Position, tuple[int, int]]] = []

    def timed_level(position: Position, dice: tuple[int, int]) -> Play:
        started = time.perf_counter()
        play = choose_play(position, dice, level=level)
        timed.append((time.perf_counter() - started, position, dice))
        return play

    below = make_player(str(level - 1), 0)
    for game in range(games):
        white, black = (timed_level, below) if game % 2 else (below, timed_level)
        play_game(white, black, 1000 + game)
    timed.sort(key=lambda entry: -entry[0])
    with out.open("w") as file:
        for _seconds, position, dice in timed[:keep]:
            file.write(json.dumps({"position": position_to_json(position), "dice": dice}) + "\n")
    print(f"{out}: the {keep} slowest of {len(timed)} level-{level} moves")


def time_file(path: Path, level: int) -> dict[str, float]:
    times = []
    for line in path.read_text().splitlines():
        request = json.loads(line)
        position, dice = position_from_json(request["position"]), tuple(request["dice"])
        started = time.perf_counter()
        choose_play(position, (dice[0], dice[1]), level=level)
        times.append(time.perf_counter() - started)
    return {
        "positions": len(times),
        "median_ms": round(1000 * statistics.median(times), 1),
        "max_ms": round(1000 * max(times), 1),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    find = commands.add_parser("collect", help="write the slowest positions of real games")
    find.add_argument("--level", type=int, choices=(2, 3, 4), default=3)
    find.add_argument("--games", type=int, default=20)
    find.add_argument("--keep", type=int, default=40)
    find.add_argument("--out", type=Path, required=True)
    clock = commands.add_parser("time", help="time a level on a file of positions")
    clock.add_argument("--level", type=int, choices=(2, 3, 4), default=3)
    clock.add_argument("positions", type=Path)
    args = parser.parse_args(argv)
    if args.command == "collect":
        collect(args.level, args.games, args.keep, args.out)
    else:
        print(json.dumps(time_file(args.positions, args.level)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
