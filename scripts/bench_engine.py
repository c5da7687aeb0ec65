#!/usr/bin/env python3
"""Benchmark the rules engines: Goose games, Jacquet legal-play generation and games.

    python scripts/bench_engine.py            # figures, one per line
    python scripts/bench_engine.py --json     # {"goose_games_per_s": ..., ...}

Everything random comes from one seeded PRNG here (the engine takes dice as inputs), so
every run measures the same games and the same corpus of positions. Single process. Time
is this process's CPU time (``time.process_time``), so other work on a shared machine does
not count against the engine; each figure is the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.awaiting import ChoosePlay, Finished, MissTurn
from engine.goose import GooseOptions, miss_turn, new_game
from engine.goose import throw as goose_throw
from engine.jacquet import (
    JacquetOptions,
    Position,
    blocked_postillon,
    legal_play_results,
    legal_plays,
    new_match,
    play,
    throw,
)

Corpus = list[tuple[Position, tuple[int, int]]]


def roll(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def jacquet_corpus(size: int, seed: int) -> Corpus:
    """(position, dice) pairs met in random games until *size* are collected."""
    rng = random.Random(seed)
    corpus: Corpus = []
    while len(corpus) < size:
        position = Position.initial(rng.choice((0, 1)))
        while len(corpus) < size and not blocked_postillon(position):
            dice = roll(rng)
            corpus.append((position, dice))
            choices = legal_play_results(position, dice)
            position = rng.choice(choices)[1]
            if position.borne_off(1 - position.turn) == 15:
                break
    return corpus


def jacquet_game(rng: random.Random) -> None:
    """One random single game through the match flow (plays are checked as in real play)."""
    state = new_match(JacquetOptions())
    while not isinstance(state.awaiting, Finished):
        if isinstance(state.awaiting, ChoosePlay):
            state = play(state, rng.choice(state.legal_plays())).state
        else:
            state = throw(state, roll(rng)).state


def goose_game(rng: random.Random) -> None:
    """One random four-player Goose game, lots included."""
    state = new_game(GooseOptions(players=4))
    while not isinstance(state.awaiting, Finished):
        if isinstance(state.awaiting, MissTurn):
            state = miss_turn(state).state
        else:
            state = goose_throw(state, roll(rng)).state


def best_rate(count: int, run: Callable[[], None], repeat: int) -> float:
    """Best of *repeat* runs of *run*, as *count* items per second."""
    best = min(_timed(run) for _ in range(repeat))
    return count / max(best, 1e-9)  # a coarse CPU clock can report 0 for tiny runs


def _timed(run: Callable[[], None]) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--positions", type=int, default=10_000, help="Jacquet corpus size")
    parser.add_argument("--games", type=int, default=200, help="games per timed run")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the best counts")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    corpus = jacquet_corpus(args.positions, args.seed)

    def generate_all() -> None:
        for position, dice in corpus:
            legal_plays(position, dice)

    def games(one: Callable[[random.Random], None]) -> Callable[[], None]:
        def run() -> None:
            rng = random.Random(args.seed)
            for _ in range(args.games):
                one(rng)

        return run

    figures = {
        "goose_games_per_s": round(best_rate(args.games, games(goose_game), args.repeat), 1),
        "jacquet_positions_per_s": round(best_rate(len(corpus), generate_all, args.repeat), 1),
        "jacquet_games_per_s": round(best_rate(args.games, games(jacquet_game), args.repeat), 1),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        doubles = sum(dice[0] == dice[1] for _position, dice in corpus)
        print(f"goose: {figures['goose_games_per_s']:,.1f} games/s (4 players, lots included)")
        print(
            f"jacquet: {figures['jacquet_positions_per_s']:,.1f} positions/s "
            f"(legal_plays over {len(corpus):,} positions, {doubles:,} with doubles)"
        )
        print(f"jacquet: {figures['jacquet_games_per_s']:,.1f} games/s (random single games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
