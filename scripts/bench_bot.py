#!/usr/bin/env python3
"""Measure the Jacquet computer player's strength: matches with paired dice.

Every dice sequence is played twice with the sides swapped, so luck cancels: a pair is
two single-game matches on the same dice stream (opening throws included), player A white
in the first and black in the second. Players: ``1`` to ``4`` (the bot's levels), ``random``
(a uniformly random legal play), ``greedy`` (the play leaving the lowest pip count; ties by
``legal_plays`` order) and ``pubeval`` (the frozen linear baseline, engine/bot/pubeval.py).

    .venv/bin/python scripts/bench_bot.py --players 2,greedy --players 2,1 --games 1000

For each match it reports games, points won per game by each side, A's share of all points
with a 95% bootstrap confidence interval over pairs, A's game win rate with a Wilson 95%
interval, and the median and maximum thinking time per move of each side (wall clock, so
noisy on a shared machine). Games run over ``--jobs`` processes.

A long match can be recorded pair by pair (``--record FILE``, JSON lines, written in pair
order): run again with the same file, players and seed, it plays only the pairs missing and
reports on all of them; a run stopped early leaves a prefix of the pairs, so its report
(``--games`` at most what the file holds) is the first pairs' — never a selection of the
quick ones.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import multiprocessing
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bot import SearchLimits, choose_play, players
from engine.bot.players import PLAYERS
from engine.bot.prng import SplitMix64, mix64
from engine.bot.weights import TUNED, Weights
from engine.jacquet import (
    GameWon,
    JacquetOptions,
    Play,
    Position,
    PostillonBlocked,
    new_match,
    play,
    throw,
)

Chooser = Callable[[Position, tuple[int, int]], Play]


def make_player(
    name: str, seed: int, weights: Weights = TUNED, limits: SearchLimits | None = None
) -> Chooser:
    """A function choosing a play for ``name`` (:data:`engine.bot.players.PLAYERS`); levels
    1-3 may be given other ``weights`` and ``limits`` (``scripts/tune_bot.py`` does)."""
    if name in ("1", "2", "3") and (weights is not TUNED or limits is not None):
        level = int(name)

        def bot_play(position: Position, dice: tuple[int, int]) -> Play:
            return choose_play(
                position, dice, level=level, seed=seed, weights=weights, limits=limits
            )

        return bot_play
    return players.make_player(name, seed)


@dataclass
class GameResult:
    """One game: points won by each side and each side's move times (seconds)."""

    points: tuple[int, int]
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    blocked: bool = False


def play_game(white: Chooser, black: Chooser, dice_seed: int) -> GameResult:
    """One single-game match; dice (opening throws included) come from ``dice_seed``."""
    rng = SplitMix64(dice_seed)
    players = (white, black)
    result = GameResult((0, 0))
    state = new_match(JacquetOptions())
    while True:
        dice = (rng.below(6) + 1, rng.below(6) + 1)
        outcome = throw(state, dice)
        events = outcome.events
        state = outcome.state
        if state.phase == "play" and state.dice is not None:
            seat = state.position.turn
            started = time.perf_counter()
            chosen = players[seat](state.position, dice)
            result.times[seat].append(time.perf_counter() - started)
            outcome = play(state, chosen)
            events += outcome.events
            state = outcome.state
        for event in events:
            if isinstance(event, GameWon | PostillonBlocked):
                points = [0, 0]
                points[event.winner] = event.points
                result.points = (points[0], points[1])
                result.blocked = isinstance(event, PostillonBlocked)
                return result


@dataclass
class PairResult:
    """A's and B's points over the two games of a pair, and all their move times."""

    a_points: int
    b_points: int
    a_games: int
    a_times: list[float]
    b_times: list[float]
    blocked: int


def play_pair(
    a: str,
    b: str,
    pair: int,
    base_seed: int,
    weights: tuple[Weights, Weights] = (TUNED, TUNED),
    limits: SearchLimits | None = None,
) -> PairResult:
    """Both games of pair ``pair``: A white then A black, on the same dice."""
    dice_seed = mix64(base_seed * 1_000_003 + pair)
    out = PairResult(0, 0, 0, [], [], 0)
    for a_seat in (0, 1):
        # Both sides, in both games, get the same seed: two identical players then play
        # each other's game exactly, so any difference in points is the players' own.
        player_a = make_player(a, mix64(dice_seed + 1), weights[0], limits)
        player_b = make_player(b, mix64(dice_seed + 1), weights[1], limits)
        white, black = (player_a, player_b) if a_seat == 0 else (player_b, player_a)
        game = play_game(white, black, dice_seed)
        out.a_points += game.points[a_seat]
        out.b_points += game.points[1 - a_seat]
        out.a_games += game.points[a_seat] > 0
        out.a_times += game.times[a_seat]
        out.b_times += game.times[1 - a_seat]
        out.blocked += game.blocked
    return out


def _pair_task(args: tuple[str, str, int, int]) -> PairResult:
    return play_pair(*args)


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * ((p * (1 - p) / trials + z * z / (4 * trials * trials)) ** 0.5) / denom
    return (centre - half, centre + half)


def share_interval(pairs: Sequence[PairResult], resamples: int = 2000) -> tuple[float, float]:
    """95% percentile bootstrap interval of A's share of points, resampling pairs."""
    rng = SplitMix64(12345)
    n = len(pairs)
    shares = []
    for _ in range(resamples):
        a = b = 0
        for _ in range(n):
            pick = pairs[rng.below(n)]
            a += pick.a_points
            b += pick.b_points
        shares.append(a / (a + b) if a + b else 0.5)
    shares.sort()
    return (shares[int(0.025 * resamples)], shares[int(0.975 * resamples) - 1])


def summarise(a: str, b: str, pairs: Sequence[PairResult], seconds: float) -> dict[str, object]:
    games = 2 * len(pairs)
    a_points = sum(p.a_points for p in pairs)
    b_points = sum(p.b_points for p in pairs)
    a_games = sum(p.a_games for p in pairs)
    a_times = [t for p in pairs for t in p.a_times]
    b_times = [t for p in pairs for t in p.b_times]
    low, high = share_interval(pairs)
    wlow, whigh = wilson(a_games, games)
    return {
        "a": a,
        "b": b,
        "games": games,
        "a_points_per_game": round(a_points / games, 3),
        "b_points_per_game": round(b_points / games, 3),
        "a_point_share": round(a_points / (a_points + b_points), 4),
        "a_point_share_ci95": [round(low, 4), round(high, 4)],
        "a_win_rate": round(a_games / games, 4),
        "a_win_rate_ci95": [round(wlow, 4), round(whigh, 4)],
        "blocked_postillon_games": sum(p.blocked for p in pairs),
        "a_ms_per_move_median": round(1000 * statistics.median(a_times), 2),
        "a_ms_per_move_max": round(1000 * max(a_times), 1),
        "b_ms_per_move_median": round(1000 * statistics.median(b_times), 2),
        "b_ms_per_move_max": round(1000 * max(b_times), 1),
        "wall_seconds": round(seconds, 1),
    }


def recorded(path: Path, a: str, b: str, seed: int) -> list[PairResult]:
    """The first pairs of the match already in ``path`` (in order, up to the first gap)."""
    found: dict[int, PairResult] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            row = json.loads(line)
            match, pair = (row.pop("a"), row.pop("b"), row.pop("seed")), row.pop("pair")
            if match == (a, b, seed):
                found[pair] = PairResult(**row)
    prefix: list[PairResult] = []
    while len(prefix) in found:
        prefix.append(found[len(prefix)])
    return prefix


def run_match(
    a: str, b: str, games: int, seed: int, jobs: int, record: Path | None = None
) -> dict[str, object]:
    wanted = (games + 1) // 2
    done = recorded(record, a, b, seed)[:wanted] if record else []
    tasks = [(a, b, pair, seed) for pair in range(len(done), wanted)]
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        if jobs > 1 and tasks:
            pool = stack.enter_context(multiprocessing.Pool(jobs))
            results: Iterable[PairResult] = pool.imap(_pair_task, tasks)
        else:
            results = map(_pair_task, tasks)
        out = stack.enter_context(record.open("a")) if record else None
        pairs = list(done)
        for task, result in zip(tasks, results, strict=True):
            pairs.append(result)
            if out is not None:
                row = {"a": a, "b": b, "seed": seed, "pair": task[2], **dataclasses.asdict(result)}
                out.write(json.dumps(row) + "\n")
                out.flush()
    return summarise(a, b, pairs, time.perf_counter() - started)


def table(rows: Sequence[dict[str, object]]) -> str:
    head = (
        "| A vs B | games | A pts/game | B pts/game | A share of points (95% CI) "
        "| A wins games (95% CI) | A ms/move median / max | B ms/move median / max |"
    )
    lines = [head, "|" + "---|" * 8]
    for r in rows:
        share_ci = r["a_point_share_ci95"]
        win_ci = r["a_win_rate_ci95"]
        assert isinstance(share_ci, list) and isinstance(win_ci, list)
        lines.append(
            f"| {r['a']} vs {r['b']} | {r['games']} | {r['a_points_per_game']} "
            f"| {r['b_points_per_game']} "
            f"| {100 * float(r['a_point_share']):.1f}% "  # type: ignore[arg-type]
            f"({100 * share_ci[0]:.1f}-{100 * share_ci[1]:.1f}) "
            f"| {100 * float(r['a_win_rate']):.1f}% "  # type: ignore[arg-type]
            f"({100 * win_ci[0]:.1f}-{100 * win_ci[1]:.1f}) "
            f"| {r['a_ms_per_move_median']} / {r['a_ms_per_move_max']} "
            f"| {r['b_ms_per_move_median']} / {r['b_ms_per_move_max']} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--players",
        action="append",
        metavar="A,B",
        help=f"a match between two of {', '.join(PLAYERS)} (repeatable; default 3,greedy)",
    )
    parser.add_argument("--games", type=int, default=200, help="games per match (even)")
    parser.add_argument("--seed", type=int, default=1, help="base seed of the dice streams")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--json", action="store_true", help="print JSON lines, not a table")
    parser.add_argument(
        "--record", type=Path, help="keep each pair's result here; a rerun plays only the rest"
    )
    args = parser.parse_args(argv)
    matches = []
    for spec in args.players or ["3,greedy"]:
        names = spec.split(",")
        if len(names) != 2 or any(name not in PLAYERS for name in names):
            parser.error(f"--players takes two of {', '.join(PLAYERS)}, not {spec!r}")
        matches.append((names[0], names[1]))
    rows = []
    for a, b in matches:
        row = run_match(a, b, args.games, args.seed, args.jobs, args.record)
        rows.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"{a} vs {b}: done in {row['wall_seconds']} s", file=sys.stderr, flush=True)
    if not args.json:
        print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
