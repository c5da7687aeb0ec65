#!/usr/bin/env python3
"""Fit the frozen linear baseline ("pubeval" for Jacquet) and write engine/bot/pubeval.json.

Plays ``--games`` seeded games at level 2 and, for every position met, takes up to
``--children`` of the positions its legal plays lead to (the one played and others drawn
by the seed); each is encoded from the side that just played
(:func:`engine.bot.features.encode`) and labelled with the equity network's equity for that
side (:func:`engine.bot.equity.equity`, game-over and race positions exact). A least-squares
fit (a small ridge keeps rare inputs tame) per kind of position — contact, pure race — gives
the weights, rounded to integers in thousandths of a point. Run once; the result is data.

    .venv/bin/python scripts/train_pubeval.py --games 200 --seed 1
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.bot import choose_play, sides_of  # noqa: E402
from engine.bot.equity import equity  # noqa: E402
from engine.bot.features import encode  # noqa: E402
from engine.bot.net import NETWORK  # noqa: E402
from engine.bot.prng import SplitMix64, mix64  # noqa: E402
from engine.bot.race import pure_race  # noqa: E402
from engine.jacquet import Position, blocked_postillon, legal_play_results  # noqa: E402


def samples(games: int, seed: int, children: int) -> dict[str, tuple[list[tuple[int, ...]],
                                                                     list[int]]]:  # fmt: skip
    data: dict[str, tuple[list[tuple[int, ...]], list[int]]] = {"contact": ([], []),
                                                                "race": ([], [])}  # fmt: skip
    for game in range(games):
        rng = SplitMix64(mix64(seed * 1_000_003 + game))
        position = Position.initial()
        while not blocked_postillon(position) and position.borne_off(1 - position.turn) < 15:
            dice = (rng.below(6) + 1, rng.below(6) + 1)
            results = legal_play_results(position, dice)
            played = choose_play(position, dice, level=2, seed=game)
            picks = {next(i for i, (p, _) in enumerate(results) if p == played)}
            while len(picks) < min(children, len(results)):
                picks.add(rng.below(len(results)))
            for index in sorted(picks):
                after = results[index][1]
                him, me = sides_of(after)  # after the play, the other side is to move
                kind = "race" if pure_race(me, him) else "contact"
                data[kind][0].append(encode(me, him))
                data[kind][1].append(-equity(him, me))
            position = dict(results)[played]
    return data


def fit(inputs: list[tuple[int, ...]], targets: list[int], ridge: float) -> list[int]:
    x = np.array(inputs, dtype=np.float64)
    y = np.array(targets, dtype=np.float64) / 1000  # thousandths of a point
    gram = x.T @ x + ridge * np.eye(x.shape[1])
    weights = np.linalg.solve(gram, x.T @ y)
    return [round(float(w)) for w in weights]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--children", type=int, default=5, help="positions kept per roll")
    parser.add_argument("--ridge", type=float, default=10.0)
    parser.add_argument("--out", type=Path, default=ROOT / "engine" / "bot" / "pubeval.json")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    data = samples(args.games, args.seed, args.children)
    weights = {kind: fit(*data[kind], args.ridge) for kind in ("contact", "race")}
    made = {
        "script": "scripts/train_pubeval.py",
        "games": args.games,
        "seed": args.seed,
        "children": args.children,
        "ridge": args.ridge,
        "positions": {kind: len(data[kind][1]) for kind in data},
        "labels": "engine.bot.equity.equity, network of "
        f"{NETWORK.made.get('games')} training games",
        "seconds": round(time.perf_counter() - began, 1),
    }
    lines = ['{', ' "format": "tablier-pubeval/1",', f' "made": {json.dumps(made)},',
             f' "contact": {json.dumps(weights["contact"])},',
             f' "race": {json.dumps(weights["race"])}', '}']  # fmt: skip
    args.out.write_text("\n".join(lines) + "\n", encoding="ascii")
    print(json.dumps(made))
    return 0


if __name__ == "__main__":
    sys.exit(main())
