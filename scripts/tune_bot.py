#!/usr/bin/env python3
"""Tune the evaluation's weights by a coordinate search over paired self-play.

Start from ``engine.bot.weights.TUNED``. For each weight in turn (tuple weights element by
element), try it a step up and a step down; each candidate plays ``--games`` paired games
(every dice stream twice, sides swapped) at ``--level`` against the incumbent, all on the
same dice streams within a sweep (common random numbers: candidates are compared on equal
luck). A candidate that wins at least ``--accept`` of the points replaces the incumbent.
Each sweep draws fresh dice streams. Every trial is logged as one JSON line on stderr; the
final weights are printed as Python, ready to paste into ``engine/bot/weights.py``.

    .venv/bin/python scripts/tune_bot.py --sweeps 1 --games 400 --jobs 2 2> tune.log

Then measure the result against the starting weights on fresh dice (``--verify``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import fields, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_bot import PairResult, play_pair

from engine.bot.weights import TUNED, Weights

Coordinate = tuple[str, int | None]
"""A weight's field name, and the element index for tuple-valued weights."""

# Weights whose sign is meaningful only one way, and the tables' first entries (always 0).
FIXED: set[Coordinate] = {("run_pips", 0), ("block_base", 0)}


def coordinates(weights: Weights) -> Iterator[Coordinate]:
    for item in fields(weights):
        value = getattr(weights, item.name)
        if isinstance(value, tuple):
            for index in range(len(value)):
                if (item.name, index) not in FIXED:
                    yield (item.name, index)
        else:
            yield (item.name, None)


def get(weights: Weights, coordinate: Coordinate) -> int:
    name, index = coordinate
    value = getattr(weights, name)
    return int(value[index]) if index is not None else int(value)


def put(weights: Weights, coordinate: Coordinate, value: int) -> Weights:
    name, index = coordinate
    if index is None:
        return replace(weights, **{name: value})
    table = list(getattr(weights, name))
    table[index] = value
    return replace(weights, **{name: tuple(table)})


def label(coordinate: Coordinate) -> str:
    name, index = coordinate
    return name if index is None else f"{name}[{index}]"


def step(value: int) -> int:
    """A quarter of the value, at least 1: big weights move in proportion."""
    return max(1, abs(value) // 4)


def _task(args: tuple[Weights, Weights, int, int, str]) -> PairResult:
    candidate, incumbent, pair, seed, level = args
    return play_pair(level, level, pair, seed, (candidate, incumbent))


def share(
    candidate: Weights, incumbent: Weights, games: int, seed: int, level: str, pool: object
) -> float:
    """The candidate's share of points over ``games`` paired games against the incumbent."""
    tasks = [(candidate, incumbent, pair, seed, level) for pair in range(games // 2)]
    results: list[PairResult] = pool.map(_task, tasks, chunksize=8)  # type: ignore[attr-defined]
    won = sum(r.a_points for r in results)
    lost = sum(r.b_points for r in results)
    return won / (won + lost) if won + lost else 0.5


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sweeps", type=int, default=1)
    parser.add_argument("--games", type=int, default=400, help="paired games per candidate")
    parser.add_argument("--accept", type=float, default=0.53, help="share needed to accept")
    parser.add_argument("--level", default="2", choices=("1", "2", "3"))
    parser.add_argument("--seed", type=int, default=1000, help="first sweep's dice seed")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--verify", type=int, default=0, help="final check: games vs the start")
    args = parser.parse_args(argv)
    start = best = TUNED
    with multiprocessing.Pool(args.jobs) as pool:
        for sweep in range(args.sweeps):
            seed = args.seed + sweep
            for coordinate in coordinates(best):
                value = get(best, coordinate)
                for trial in (value + step(value), value - step(value)):
                    if trial < 0:
                        continue
                    candidate = put(best, coordinate, trial)
                    began = time.perf_counter()
                    result = share(candidate, best, args.games, seed, args.level, pool)
                    accepted = result >= args.accept
                    log = {
                        "sweep": sweep,
                        "weight": label(coordinate),
                        "from": value,
                        "to": trial,
                        "share": round(result, 4),
                        "accepted": accepted,
                        "seconds": round(time.perf_counter() - began, 1),
                    }
                    print(json.dumps(log), file=sys.stderr, flush=True)
                    if accepted:
                        best = candidate
                        break
        if args.verify:
            final = share(best, start, args.verify, args.seed + 7919, args.level, pool)
            print(
                json.dumps({"verify_games": args.verify, "share_vs_start": round(final, 4)}),
                file=sys.stderr,
                flush=True,
            )
    print(repr(best))
    return 0


if __name__ == "__main__":
    sys.exit(main())
