"""scripts/train_net.py: seeded and resumable (a paused run makes the very same network), and
its export is a network the engine loads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from engine.bot.board import initial_side
from engine.bot.net import ONE, load_network

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_net.py"
TINY = ["--games", "6", "--hidden", "5", "--check-every", "0", "--report", "3", "--seed", "7",
        "--race-plies", "4"]  # fmt: skip


def train(checkpoint: Path, *extra: str) -> str:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), *TINY, "--checkpoint", str(checkpoint), *extra],
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout


def test_a_paused_and_resumed_run_makes_the_same_network(tmp_path: Path) -> None:
    whole, paused = tmp_path / "whole.npz", tmp_path / "paused.npz"
    out = train(whole, "--export", str(tmp_path / "net.json"))
    assert '"games": 3' in out and '"games": 6' in out  # progress lines
    train(paused, "--pause-at", "4")
    assert int(np.load(paused)["games"]) == 4
    assert "resumed" in train(paused)
    first, second = np.load(whole), np.load(paused)
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(first[name], second[name]), name
    network = load_network((tmp_path / "net.json").read_text())
    assert network.hidden == 5 and network.made["games"] == 6
    assert sum(network.probabilities(initial_side(), initial_side())) == ONE
