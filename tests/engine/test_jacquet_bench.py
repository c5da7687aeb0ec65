"""scripts/bench_engine.py runs end to end and prints the three figures (tiny sizes)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench_engine.py"


def test_bench_prints_every_figure_as_json() -> None:
    args = ["--json", "--positions", "200", "--games", "2", "--repeat", "1"]
    result = subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert set(figures) == {"goose_games_per_s", "jacquet_positions_per_s", "jacquet_games_per_s"}
    assert all(value > 0 for value in figures.values())
