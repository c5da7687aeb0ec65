#!/usr/bin/env python3
"""Verify throughput and log size of real match logs (floor: >= 1,000 turns/s).

Generates logs with ``protocol.selfplay`` (real keys, chains and signed bytes), then times
``protocol.verify.verify_bytes`` on each — every chain link, dice derivation, play, state
hash, history and time checked, and one signature per seat (which vouches for the seat's
others: docs/fair-dice.md) — best of ``--repeat`` runs, in this one process.

- Goose: no single game lasts 1,000 turns (a 4-player game takes ~40), so the Goose figure
  verifies consecutive 4-player games (seeds 0, 1, ...) until they total >= 1,000 turns;
  and the same with 15 players (``--big-goose-players``), where a throw takes 15 shares.
- Jacquet: one long match (``--match-to``, default 15 points: ~1,500 turns, so every seat
  also renews its 1,024-link dice chain).

A *turn* is one throw (lots and openings included) or one missed Goose turn.
``--json`` prints one object: ``verify_turns_per_s`` (the 2-4-seat logs: all their turns over
all their verify time), ``verify_turns_per_s_big_goose`` (the 15-seat ones),
``log_bytes_per_turn``, and the per-game breakdown. Verify time is this process's CPU time
(best of the runs), so other work on a shared machine does not skew it; the wall-clock
figure is reported beside it as ``verify_turns_per_s_wall``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from protocol.selfplay import selfplay
from protocol.verify import verify_bytes

FLOOR_TURNS_PER_S = 1_000


def goose_logs(min_turns: int, players: int) -> list[tuple[bytes, int]]:
    logs: list[tuple[bytes, int]] = []
    total, seed = 0, 0
    while total < min_turns:
        match = selfplay("goose", {}, players=players, seed=f"bench-{seed}", start_time=0)
        logs.append((match.log_bytes(), match.sessions[0].turns))
        total += match.sessions[0].turns
        seed += 1
    return logs


def time_verify(logs: list[tuple[bytes, int]], repeat: int) -> tuple[float, float]:
    """Best (CPU, wall) seconds over *repeat* runs to verify every log (each must be valid)."""
    best_cpu = best_wall = float("inf")
    for _ in range(repeat):
        cpu, wall = time.process_time(), time.perf_counter()
        for data, turns in logs:
            report = verify_bytes(data)
            if not report.ok or report.turns != turns:
                raise SystemExit(f"bench log failed verification: {report.error}")
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return best_cpu, best_wall


def measure(name: str, logs: list[tuple[bytes, int]], repeat: int) -> dict[str, float | int]:
    seconds, wall = time_verify(logs, repeat)
    turns = sum(t for _, t in logs)
    size = sum(len(d) for d, _ in logs)
    return {
        "game": name,
        "logs": len(logs),
        "turns": turns,
        "log_bytes": size,
        "verify_seconds": round(seconds, 4),
        "verify_wall_seconds": round(wall, 4),
        "verify_turns_per_s": round(turns / seconds),
        "verify_turns_per_s_wall": round(turns / wall),
        "log_bytes_per_turn": round(size / turns, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--goose-turns", type=int, default=1_000)
    parser.add_argument("--goose-players", type=int, default=4)
    parser.add_argument("--big-goose-players", type=int, default=15)
    parser.add_argument("--big-goose-turns", type=int, default=500)
    parser.add_argument("--match-to", type=int, default=15)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    jacquet = selfplay("jacquet", {"match_to": args.match_to}, seed="bench", start_time=0)
    rows = [
        measure(f"goose ({args.goose_players} players)",
                goose_logs(args.goose_turns, args.goose_players), args.repeat),
        measure(f"jacquet (match to {args.match_to})",
                [(jacquet.log_bytes(), jacquet.sessions[0].turns)], args.repeat),
    ]  # fmt: skip
    big_logs = goose_logs(args.big_goose_turns, args.big_goose_players)
    big = measure(f"goose ({args.big_goose_players} players)", big_logs, args.repeat)
    turns = sum(int(r["turns"]) for r in rows)
    seconds = sum(float(r["verify_seconds"]) for r in rows)
    wall = sum(float(r["verify_wall_seconds"]) for r in rows)
    size = sum(int(r["log_bytes"]) for r in rows)
    result = {
        "verify_turns_per_s": round(turns / seconds),
        "verify_turns_per_s_wall": round(turns / wall),
        "verify_turns_per_s_big_goose": big["verify_turns_per_s"],
        "log_bytes_per_turn": round(size / turns, 1),
        "games": [*rows, big],
    }
    if args.json:
        print(json.dumps(result))
    else:
        for row in [*rows, big]:
            print(f"{row['game']:<26} {row['turns']:>6} turns in {row['logs']:>3} log(s): "
                  f"verify {row['verify_turns_per_s']:>7,} turns/s CPU "
                  f"({row['verify_turns_per_s_wall']:>6,} wall), "
                  f"{row['log_bytes_per_turn']:>6} log bytes/turn")
        print(f"{'2-4 seats overall':<26} {turns:>6} turns: verify "
              f"{result['verify_turns_per_s']:>7,} turns/s (floor {FLOOR_TURNS_PER_S:,}), "
              f"{result['log_bytes_per_turn']} bytes/turn")
    return 0 if result["verify_turns_per_s"] >= FLOOR_TURNS_PER_S else 1


if __name__ == "__main__":
    sys.exit(main())
