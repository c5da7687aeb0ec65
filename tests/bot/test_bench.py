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
