"""scripts/bench_bot.py --record: a long match survives being stopped, and a partial report is
the first pairs' (never a selection of the quick ones)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))

import bench_bot  # noqa: E402


def test_a_recorded_match_resumed_reports_what_one_run_would(tmp_path: Path) -> None:
    record = tmp_path / "pairs.jsonl"
    whole = bench_bot.run_match("greedy", "random", 8, 3, 1)
    first = bench_bot.run_match("greedy", "random", 4, 3, 1, record)
    assert first["games"] == 4 and len(record.read_text().splitlines()) == 2
    bench_bot.run_match("1", "random", 4, 3, 1, record)  # another match, same file
    resumed = bench_bot.run_match("greedy", "random", 8, 3, 1, record)
    timing = ("wall_seconds", "a_ms_per_move_median", "a_ms_per_move_max",
              "b_ms_per_move_median", "b_ms_per_move_max")  # fmt: skip
    assert {k: v for k, v in resumed.items() if k not in timing} == {
        k: v for k, v in whole.items() if k not in timing
    }
    rows = [json.loads(line) for line in record.read_text().splitlines()]
    assert [r["pair"] for r in rows if r["a"] == "greedy"] == [0, 1, 2, 3]


def test_a_gap_in_the_record_ends_what_counts(tmp_path: Path) -> None:
    record = tmp_path / "pairs.jsonl"
    bench_bot.run_match("greedy", "random", 6, 3, 1, record)
    lines = record.read_text().splitlines()
    record.write_text("\n".join([lines[0], lines[2]]) + "\n")  # pair 1 lost
    assert [p.a_points for p in bench_bot.recorded(record, "greedy", "random", 3)] == [
        json.loads(lines[0])["a_points"]
    ]


def test_the_worst_moves_file_holds_real_positions_and_times_them(tmp_path: Path) -> None:
    import bench_bot_worst

    from engine.jacquet import legal_plays, position_from_json

    slow = tmp_path / "slow.jsonl"
    bench_bot_worst.collect(2, 2, 5, slow)  # level 2 against level 1, two games
    requests = [json.loads(line) for line in slow.read_text().splitlines()]
    assert len(requests) == 5
    for request in requests:
        dice = tuple(request["dice"])
        assert all(1 <= die <= 6 for die in dice) and len(dice) == 2
        assert legal_plays(position_from_json(request["position"]), (dice[0], dice[1]))
    timed = bench_bot_worst.time_file(slow, 2)
    assert timed["positions"] == 5 and 0 < timed["median_ms"] <= timed["max_ms"]
