"""The equity network: integer inference that is the same everywhere, and outputs that mean
something (probabilities summing to 1, in line with the exact race table)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from engine.bot import sides_of
from engine.bot.board import Side, successors
from engine.bot.equity import Oracle, oracle, probabilities
from engine.bot.net import NETWORK, ONE, NetworkFormatError, load_network
from engine.bot.race import compute, done_within, pure_race, win_chance
from tests.bot.positions import random_positions

ROOT = Path(__file__).resolve().parents[2]
NET_FILE = ROOT / "engine" / "bot" / "equity_net.json"


@cache
def network_positions() -> list[tuple[Side, Side]]:
    """Positions of seeded random games and the plays from them: the network's domain."""
    found = []
    for index, (position, dice) in enumerate(random_positions(seed=5, games=3)):
        mover, other = sides_of(position)
        found.append((mover, other))
        if index % 4 == 0:
            found.extend((other, child) for child in successors(mover, other, dice))
    return [(m, o) for m, o in found if oracle(m, o) is Oracle.NETWORK]


def digest(pairs: list[tuple[Side, Side]]) -> str:
    outputs = [NETWORK.probabilities(m, o) for m, o in pairs]
    return hashlib.sha256(json.dumps(outputs).encode()).hexdigest()


PROGRAM = """
import hashlib, json, sys
from engine.bot.net import NETWORK
pairs = json.loads(sys.stdin.read())
outputs = [NETWORK.probabilities(tuple(m), tuple(o)) for m, o in pairs]
print(hashlib.sha256(json.dumps(outputs).encode()).hexdigest())
"""


COMMITTED_DIGEST = "b734d172da9b0c188c5dcbc15bc479982614aee069a57ca093befd0d2a1c8b33"
"""SHA-256 of the committed network's outputs on the first 400 positions below, as computed
where it was exported: the same on every machine, or inference is not what it claims. It
changes only with ``engine/bot/equity_net.json`` (export a network, update this)."""


def test_outputs_are_the_same_bytes_on_every_machine() -> None:
    assert NETWORK.made["games"] > 0
    assert digest(network_positions()[:400]) == COMMITTED_DIGEST


def test_outputs_are_the_same_bytes_in_other_processes_whatever_the_hash_seed() -> None:
    pairs = network_positions()[:400]
    expected = digest(pairs)
    for hash_seed in ("0", "1", "4242"):
        result = subprocess.run(
            [sys.executable, "-c", PROGRAM],
            input=json.dumps(pairs),
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            cwd=ROOT,
            check=True,
        )
        assert result.stdout.strip() == expected


def test_outputs_are_probabilities_summing_to_exactly_one() -> None:
    pairs = network_positions()
    assert len(pairs) > 500
    for mover, other in pairs:
        out = NETWORK.probabilities(mover, other)
        assert len(out) == 8 and sum(out) == ONE and min(out) >= 0, (mover, other)


@cache
def race_positions() -> list[tuple[Side, Side]]:
    """Pure races met in seeded random games (until the game ends)."""
    found = []
    for position, _dice in random_positions(seed=9, games=40):
        mover, other = sides_of(position)
        if pure_race(mover, other):
            found.append((mover, other))
    return found


RACE_MEAN_TOLERANCE = 0.05
RACE_P90_TOLERANCE = 0.14
RACE_GAMMON_TOLERANCE = 0.02
"""How far the network's own judgement of pure races may stray from the exact table
(docs/bot.md): its chance of winning within 0.05 of the exact one on average and within
0.14 for nine races in ten; the x2-x4 outcomes, impossible there, under 2 % on average.
(The equity itself takes pure races from the table, exactly.)"""


def test_the_network_agrees_with_the_exact_race_table_on_pure_races() -> None:
    races = race_positions()
    assert len(races) > 200
    errors, gammons = [], []
    for mover, other in races:
        exact = win_chance(mover[19:25], other[19:25])
        net = NETWORK.probabilities(mover, other)
        errors.append(abs(net[0] - exact) / ONE)
        gammons.append((sum(net[1:4]) + sum(net[5:8])) / ONE)
        assert probabilities(mover, other) == (exact, 0, 0, 0, ONE - exact, 0, 0, 0)
    errors.sort()
    assert sum(errors) / len(errors) <= RACE_MEAN_TOLERANCE
    assert errors[len(errors) * 9 // 10] <= RACE_P90_TOLERANCE
    assert sum(gammons) / len(gammons) <= RACE_GAMMON_TOLERANCE


def test_the_race_table_is_the_exact_solution_of_small_bear_offs() -> None:
    for home, within in compute(3).items():
        assert done_within(home) == within, home
    # Being on roll is an edge; two checkers on 24 against the same: I win unless... never.
    assert win_chance((0, 0, 0, 0, 0, 2), (0, 0, 0, 0, 0, 2)) == ONE


def test_a_network_file_whose_sums_could_overflow_a_lane_is_refused() -> None:
    data = json.loads(NET_FILE.read_text())
    data["w1"][3] = 1 << 18  # unit 0, "count beyond three": x12 on the talon, past 2**19
    with pytest.raises(NetworkFormatError, match="hidden unit 0"):
        load_network(json.dumps(data))
    for broken, problem in [("[]", "one JSON object"), ('{"format": 1}', "not a"), ("{", "JSON")]:
        with pytest.raises(NetworkFormatError, match=problem):
            load_network(broken)
