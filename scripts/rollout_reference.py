#!/usr/bin/env python3
"""Make the analysis's reference decisions: pairs of Jacquet plays whose order rollouts settle.

The analysis (docs/analysis.md) judges plays by the equity network; to test it against
something the network did not compute, this script takes the decisions of seeded matches
between a random player and level 3 (the issue's match), pairs the play that was made with
another legal play drawn at random (seeded), and rolls both out: from the position each play
leaves, ``--trials`` games played on by level 2 for both sides (the hand-made evaluation of
``engine.bot.evaluate``, no network), the two plays' games on the same dice (common random
numbers, so the difference's error is small). A pair is kept when the rollouts put one play
ahead by at least ``--margin`` points and four standard errors. ``tests/bot/test_analysis.py``
checks that the analysis orders the kept pairs as the rollouts do.

    .venv/bin/python scripts/rollout_reference.py --out tests/bot/rollout_reference.json

Deterministic: the matches, the drawn plays and every rollout's dice come from the seeds.
Rollout values are written in micro-points (integers), like the analysis's.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from client.commands.analyze_log import analyse_log
from client.commands.selfplay import seat_players
from engine.bot import sides_of
from engine.bot.board import OFF, Side, postillon_blocked, successors
from engine.bot.evaluate import evaluate, multiplier
from engine.bot.net import ONE
from engine.bot.prng import SplitMix64, mix64
from engine.jacquet import (
    format_play,
    legal_play_results,
    position_from_json,
    position_to_json,
)
from protocol.selfplay import selfplay

MAX_PLIES = 600


def level_two(mover: Side, other: Side, dice: tuple[int, int]) -> Side:
    """Level 2's choice on the compact board: the child the evaluation likes best."""
    return min(successors(mover, other, dice), key=lambda child: evaluate(other, child))


def rollout(mover: Side, other: Side, seed: int) -> int:
    """Points ``mover`` (to roll) scores when both sides play on by level 2."""
    dice_stream = SplitMix64(seed)
    sign = 1
    for _ in range(MAX_PLIES):
        dice = (dice_stream.below(6) + 1, dice_stream.below(6) + 1)
        child = level_two(mover, other, dice)
        if child[OFF] == 15:
            return sign * multiplier(other)
        if postillon_blocked(other, child):
            return sign * 4
        mover, other, sign = other, child, -sign
    return 0


def pair_rollouts(task: tuple[dict[str, Any], int, int]) -> dict[str, Any]:
    """Roll out a decision's two plays on the same dice; the made play's lead, per trial."""
    entry, trials, seed = task
    position = position_from_json(entry["position"])
    dice = (entry["dice"][0], entry["dice"][1])
    after = {format_play(play): result for play, result in legal_play_results(position, dice)}
    leads = []
    for trial in range(trials):
        scores = []
        for name in (entry["made"], entry["other"]):
            his, mine = sides_of(after[name])  # he rolls next
            scores.append(-rollout(his, mine, mix64(seed + trial)))
        leads.append(scores[0] - scores[1])
    mean = sum(leads) / trials
    spread = math.sqrt(sum((x - mean) ** 2 for x in leads) / (trials - 1))
    return {**entry, "lead": round(mean * ONE), "error": round(spread / math.sqrt(trials) * ONE)}


def decisions(seeds: Sequence[str]) -> list[dict[str, Any]]:
    """Every decision of the seeded random-against-level-3 matches, with the play made and
    another legal play drawn at random."""
    found = []
    with tempfile.TemporaryDirectory() as folder:
        for seed in seeds:
            path = Path(folder) / f"{seed}.tablier"
            selfplay("jacquet", {}, seed=seed, start_time=0, log_path=path,
                     choose=seat_players("random,3", seed))  # fmt: skip
            analysis = analyse_log(path, plies=1).analysis
            assert analysis is not None
            draw = SplitMix64(mix64(len(found) + 0x5EED))
            for turn in analysis.turns:
                if turn.forced:
                    continue
                others = [format_play(p) for p, _ in legal_play_results(turn.position, turn.dice)]
                others.remove(turn.played)
                found.append({
                    "match": seed, "seat": turn.seat,
                    "position": position_to_json(turn.position), "dice": list(turn.dice),
                    "made": turn.played, "other": others[draw.below(len(others))],
                })  # fmt: skip
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seeds", default="analysis-1,analysis-2", help="the matches' seeds")
    parser.add_argument("--trials", type=int, default=400, help="rollouts per play")
    parser.add_argument("--margin", type=float, default=0.10, help="points a kept pair differs by")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    found = decisions(args.seeds.split(","))
    tasks = [(entry, args.trials, mix64(index)) for index, entry in enumerate(found)]
    with multiprocessing.Pool(args.jobs) as pool:
        rolled = pool.map(pair_rollouts, tasks)
    kept = [
        entry
        for entry in rolled
        if abs(entry["lead"]) >= args.margin * ONE and abs(entry["lead"]) >= 4 * entry["error"]
    ]
    document = {
        "made_by": "scripts/rollout_reference.py",
        "seeds": args.seeds.split(","),
        "trials": args.trials,
        "policy": "level 2 for both sides, the two plays on the same dice",
        "margin": round(args.margin * ONE),
        "decisions": len(rolled),
        "pairs": kept,
    }
    args.out.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(kept)} of {len(rolled)} decisions kept in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
