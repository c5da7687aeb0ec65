"""scripts/train_net.py: seeded and resumable (a paused run makes the very same network), and
its export is a network the engine loads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from engine.bot.board import initial_side
from engine.bot.net import ONE, load_network
from engine.bot.prng import SplitMix64
from engine.bot.race import pure_race

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


def test_an_exploring_side_plays_at_random_and_its_moves_are_cut_from_the_trace() -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    import train_net

    net = train_net.Net(5, np.random.default_rng(3))
    explored = [seed for seed in range(40) if train_net.explorer(seed, 0.5) is not None]
    assert 10 < len(explored) < 30  # about half the games, drawn apart from the dice
    seed = explored[0]
    plain = train_net.play_game(net, seed, race_plies=4)
    game = train_net.play_game(net, seed, race_plies=4, explore=1.0)
    assert plain is not None and game is not None
    assert all(pure_race(plain[0][t], plain[1][t]) for t in plain[3])
    movers, others, _outcome, fixed = game
    assert movers[:2] == plain[0][:2] and movers != plain[0]  # same dice, one side random
    cut = [t for t in fixed if not pure_race(movers[t], others[t])]
    seat = train_net.explorer(seed, 1.0)
    assert len(cut) > 5 and all(t % 2 == seat for t in cut)  # the random side's moves only
    for t in cut:  # each fixed to the outcome the network's own play would have left
        assert abs(fixed[t].sum() - 1.0) < 1e-9 and fixed[t].min() >= 0


def test_a_greedy_side_plays_the_lowest_pip_count_and_its_moves_are_cut_from_the_trace() -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    import train_net

    from engine.bot.board import successors

    net = train_net.Net(5, np.random.default_rng(3))
    chosen = [seed for seed in range(40) if train_net.greedy_explorer(seed, 0.5) is not None]
    assert 10 < len(chosen) < 30
    assert chosen != [s for s in range(40) if train_net.explorer(s, 0.5) is not None]
    seed = chosen[0]
    plain = train_net.play_game(net, seed, race_plies=4)
    game = train_net.play_game(net, seed, race_plies=4, explore_greedy=1.0)
    assert plain is not None and game is not None
    movers, others, _outcome, fixed = game
    assert movers[:2] == plain[0][:2] and movers != plain[0]  # same dice, one side greedy
    seat = train_net.greedy_explorer(seed, 1.0)
    cut = [t for t in fixed if not pure_race(movers[t], others[t])]
    assert cut and all(t % 2 == seat for t in cut)
    rng = SplitMix64(seed)  # the game's dice, drawn as play_game draws them
    dice = [(rng.below(6) + 1, rng.below(6) + 1) for _ in range(len(movers))]
    for t in range(seat, len(movers) - 1, 2):  # every move of the greedy side
        if pure_race(movers[t], others[t]):
            break
        # The next position's "other" is what the greedy side left: the lowest pip count.
        children = successors(movers[t], others[t], dice[t])
        assert train_net.pips(others[t + 1]) == min(train_net.pips(c) for c in children)


def test_a_run_adopts_an_exported_network_when_its_checkpoint_is_gone(tmp_path: Path) -> None:
    # The checkpoint of the committed network's run was lost; training goes on from the
    # exported integers, which the adoption must read back exactly.
    train(tmp_path / "first.npz", "--export", str(tmp_path / "first.json"))
    out = train(
        tmp_path / "again.npz",
        "--games", "6", "--adopt", str(tmp_path / "first.json"),
        "--export", str(tmp_path / "again.json"),
    )  # fmt: skip
    assert "adopted" in out and '"games": 3' not in out  # nothing left to train: same games
    first = load_network((tmp_path / "first.json").read_text())
    again = load_network((tmp_path / "again.json").read_text())
    assert again.made["adopted"][0]["at"] == 6 and again.made["games"] == 6
    exported = [json.loads((tmp_path / name).read_text()) for name in ("first.json", "again.json")]
    for key in ("w1", "b1", "w2", "b2"):
        assert exported[0][key] == exported[1][key], key
    assert again.probabilities(initial_side(), initial_side()) == first.probabilities(
        initial_side(), initial_side()
    )
    more = train(
        tmp_path / "more.npz",
        "--games", "8", "--replan", "--adopt", str(tmp_path / "first.json"),
        "--export", str(tmp_path / "more.json"),
    )  # fmt: skip
    assert "adopted" in more
    grown = load_network((tmp_path / "more.json").read_text())
    assert grown.made["games"] == 8 and grown.made["replanned"][-1] == {"at": 6, "games": 8}


def test_the_training_computes_the_same_interactions_as_the_engine() -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    import train_net

    from engine.bot import sides_of
    from engine.bot.board import successors
    from engine.bot.features import cross, encode_net
    from tests.bot.positions import random_positions

    boards = []
    for position, dice in random_positions(seed=11, games=4):
        mover, other = sides_of(position)
        boards.append((mover, other))
        boards.extend((other, child) for child in successors(mover, other, dice))
    assert len(boards) > 1000
    # A bouchage (random play seldom makes one): my 14-19 hold his 2-7, his fifteen behind.
    prime = tuple(3 if p in (14, 18, 19) else 2 if 15 <= p <= 17 else 0 for p in range(26))
    boards += [(prime, initial_side()), (initial_side(), prime)]
    movers = np.array([m for m, _ in boards])
    others = np.array([o for _, o in boards])
    batch = train_net.cross_batch(movers, others)
    assert [tuple(int(v) for v in row) for row in batch] == [cross(m, o) for m, o in boards]
    assert batch.any(axis=0).all()  # every interaction occurs in real play
    whole = train_net.encode_batch(movers[:50], others[:50])
    expected = [encode_net(m, o) for m, o in boards[:50]]
    assert [tuple(int(v) for v in row) for row in whole] == expected
