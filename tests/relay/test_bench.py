"""The relay benchmark still runs end to end (at toy sizes: the figures mean nothing here)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.relay.conftest import ROOT

KEYS = {"p50_ratio_1", "p50_ratio_100", "throughput_ratio", "p99_ratio_1000", "lost"}


def test_bench_relay_smoke_run_reports_every_key() -> None:
    result = subprocess.run(
        [sys.executable, "scripts/bench_relay.py", "--smoke", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert KEYS | {"kib_per_idle_connection", "details"} <= report.keys()
    assert report["lost"] == 0
    for target in ("relay", "baseline"):
        assert report["details"][target]["messages_1000"] == 20  # 10 rooms, a ping and a pong
    assert all(report[key] > 0 for key in KEYS - {"lost"})
