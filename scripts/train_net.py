#!/usr/bin/env python3
"""Train the Jacquet equity network by TD(lambda) self-play, in the manner of TD-Gammon.

The network (``engine/bot/features.py`` inputs, one sigmoid hidden layer, a softmax over the
eight outcomes win/lose x1-x4 of ``engine.bot.net.OUTCOMES``) plays both sides against
itself: each turn it rolls, lists the successors with the bot's generator, and makes the
play that leaves the opponent the lowest equity (pure races: the play the exact bear-off
table likes best, which the network's own race judgement would approximate). After each
game every position met is moved towards its lambda-return — the forward view of TD(lambda):
``G_t = flip((1 - lambda) V(s_t+1) + lambda G_t+1)``, the game's real outcome at the end —
by one step of gradient ascent on the log-likelihood of that target (for a softmax output,
the error signal is simply ``G - P``), the step ``alpha`` per position.

Seeded and resumable: game ``g``'s dice come from ``mix64(seed * 1_000_003 + g)`` and the
checkpoint holds the weights and the game count, so a run stopped and resumed makes the same
network as one that never stopped. Every ``--report`` games it prints a progress line; every
``--check-every`` games the network (the committed integer form of it, at one ply) plays
``--check-games`` games against level 3 with paired dice.

    nice -n 19 .venv/bin/python scripts/train_net.py --games 100000 \\
        --checkpoint /tmp/net.npz --export engine/bot/equity_net.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# One core: the small matrix products gain nothing from BLAS threads on a shared machine.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bot.bearoff import expected_turns  # noqa: E402
from engine.bot.board import (  # noqa: E402
    CLOSED_AHEAD,
    OFF,
    OPPOSITE,
    RUN_AHEAD,
    Side,
    initial_side,
    postillon_blocked,
    successors,
)
from engine.bot.evaluate import multiplier  # noqa: E402
from engine.bot.features import (  # noqa: E402
    CROSS_INPUTS,
    CROSS_SIDE_INPUTS,
    HOME_INPUT,
    INPUTS,
    NET_INPUTS,
    OFF_INPUT,
    POINT_INPUTS,
    POINT_UNITS,
    POSTILLON_INPUT,
    RUNS,
    SIDE_INPUTS,
)
from engine.bot.prng import SplitMix64, mix64  # noqa: E402
from engine.bot.race import ONE as RACE_ONE  # noqa: E402
from engine.bot.race import pure_race, win_chance  # noqa: E402

OUTCOMES = 8
"""win x1..x4, then lose x1..x4, for the side to move (``engine.bot.net.OUTCOMES``)."""
POINTS = np.array([1, 2, 3, 4, -1, -2, -3, -4], dtype=np.float64)
FLIP = np.array([4, 5, 6, 7, 0, 1, 2, 3])
"""Index map turning an outcome vector of one side into the other side's."""
MAX_PLIES = 600
"""A game not over by then (two primes facing each other forever) is dropped."""

_UNITS = np.array(POINT_UNITS, dtype=np.float64)


def input_scale() -> np.ndarray:
    """What each raw input is multiplied by while training: the count beyond three by 1/6,
    the checkers off by 1/15 (so each input stays within about [0, 2], as TD-Gammon's).

    Raw, those two inputs reach 12 and 15; with them the first network's hidden units sat
    saturated (|input| above 5 for half the positions of level-2 games, 57 % of activations
    below 0.01 or above 0.99) and learned little. The integer network still reads the raw
    integers: the export multiplies the first layer's weights by this scale, which is exact
    algebra (``w . (s x) = (w s) . x``).
    """
    scale = np.ones(NET_INPUTS)
    for base in (0, SIDE_INPUTS):
        scale[base + 3 : base + OFF_INPUT : POINT_INPUTS] = 1.0 / 6.0
        scale[base + OFF_INPUT] = 1.0 / 15.0
    # The interactions (engine.bot.features.cross): checkers facing a run (0-15), closed
    # points faced (0-90, a few tens at most in play), dead die faces (0-6).
    for base in (INPUTS, INPUTS + CROSS_SIDE_INPUTS):
        scale[base : base + len(RUNS)] = 1.0 / 8.0
        scale[base + len(RUNS)] = 1.0 / 30.0
        scale[base + len(RUNS) + 1] = 1.0 / 6.0
    return scale


INPUT_SCALE = input_scale()


def encode_batch(
    movers: np.ndarray, others: np.ndarray, scale: np.ndarray | None = None
) -> np.ndarray:
    """``engine.bot.features.encode`` for N boards at once (N x 26 ints each -> N x 198),
    each input multiplied by ``scale`` (the network's, :data:`INPUT_SCALE` for a new run)."""
    n = movers.shape[0]
    out = np.empty((n, NET_INPUTS), dtype=np.float64)
    for base, sides in ((0, movers), (SIDE_INPUTS, others)):
        out[:, base : base + OFF_INPUT] = _UNITS[sides[:, 1:25]].reshape(n, OFF_INPUT)
        out[:, base + OFF_INPUT] = sides[:, OFF]
        home_or_off = sides[:, 19:26].sum(axis=1)
        out[:, base + POSTILLON_INPUT] = home_or_off == 0
        out[:, base + HOME_INPUT] = sides[:, 1:19].sum(axis=1) == 0
    out[:, INPUTS:] = cross_batch(movers, others)
    return out if scale is None else out * scale


_THEIRS = np.array(OPPOSITE[1:25])
"""For my points 1-24, the other side's number for the same point."""
_BITS = np.array([1 << p for p in range(1, 25)], dtype=np.int64)
_TRACK = int(_BITS.sum())
_AHEAD_SHIFT = np.arange(2, 20, dtype=np.int64)
"""Shifting a mask by p + 1 brings the six points ahead of point p (1-18) to bits 0-5."""
_RUN_OF = np.array(RUN_AHEAD)
_CLOSED_OF = np.array(CLOSED_AHEAD)


def cross_batch(movers: np.ndarray, others: np.ndarray) -> np.ndarray:
    """``engine.bot.features.cross`` for N boards at once (N x 14), on the same bit masks."""
    n = movers.shape[0]
    out = np.empty((n, CROSS_INPUTS), dtype=np.float64)
    for base, side, opponent in ((0, movers, others), (CROSS_SIDE_INPUTS, others, movers)):
        closed = (opponent[:, _THEIRS] > 0) @ _BITS  # my points the other holds, as bits
        ahead = (closed[:, None] >> _AHEAD_SHIFT[None, :]) & 63
        run, hemmed = _RUN_OF[ahead], _CLOSED_OF[ahead]
        counts = side[:, 1:19]
        for index, length in enumerate(RUNS):
            out[:, base + index] = (counts * (run >= length)).sum(axis=1)
        out[:, base + len(RUNS)] = (counts * hemmed).sum(axis=1)
        mine = (side[:, 1:25] > 0) @ _BITS
        free = _TRACK & ~closed
        out[:, base + len(RUNS) + 1] = sum(((mine << face) & free) == 0 for face in range(1, 7))
    return out


class Net:
    """The float network being trained."""

    def __init__(self, hidden: int, rng: np.random.Generator) -> None:
        self.scale = INPUT_SCALE.copy()
        """The inputs' training scale (all ones in a checkpoint of a run made before it)."""
        self.w1 = rng.normal(0.0, 0.1, (hidden, NET_INPUTS))
        self.b1 = np.zeros(hidden)
        self.w2 = rng.normal(0.0, 0.1, (OUTCOMES, hidden))
        self.b2 = np.zeros(OUTCOMES)

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Hidden activations and outcome probabilities for a batch of inputs."""
        h = 1.0 / (1.0 + np.exp(-(x @ self.w1.T + self.b1)))
        z = h @ self.w2.T + self.b2
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return h, e / e.sum(axis=1, keepdims=True)

    def equity(self, x: np.ndarray) -> np.ndarray:
        return self.forward(x)[1] @ POINTS

    def arrays(self) -> dict[str, np.ndarray]:
        return {"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2}

    def encode(self, movers: Sequence[Side], others: Sequence[Side]) -> np.ndarray:
        return encode_batch(np.array(movers), np.array(others), self.scale)


def choose(net: Net, mover: Side, other: Side, dice: tuple[int, int]) -> tuple[Side, float]:
    """The child the network prefers and its value for ``mover`` (``nan`` if unknown)."""
    children = successors(mover, other, dice)
    if len(children) == 1:
        return children[0], float("nan")
    for child in children:
        if child[OFF] == 15:
            return child, float(multiplier(other))
    for child in children:
        if postillon_blocked(other, child):
            return child, 4.0
    if pure_race(mover, other):
        return min(children, key=lambda c: expected_turns(c[19:25])), float("nan")
    x = net.encode([other] * len(children), children)
    values = -net.equity(x)
    best = int(np.argmax(values))
    return children[best], float(values[best])


Game = tuple[list[Side], list[Side], np.ndarray, dict[int, np.ndarray]]
"""A played game: pre-roll positions (movers, others), the outcome in the frame of the last
position's mover, and the fixed target of some positions, by index: a pure race's exact
value, or, before an exploring move, the value of the play the network preferred."""


def race_value(mover: Side, other: Side) -> np.ndarray:
    """The exact outcome distribution of a pure race for the side to move."""
    win = win_chance(mover[19:25], other[19:25]) / RACE_ONE
    value = np.zeros(OUTCOMES)
    value[0], value[4] = win, 1.0 - win
    return value


def explorer(dice_seed: int, explore: float) -> int | None:
    """The seat (0: the side opening the game) that plays at random in this game, if any:
    a fraction ``explore`` of the games, drawn from a stream apart from the dice."""
    draw = SplitMix64(mix64(dice_seed ^ 0x5EED_E8B1_0EE5))
    if draw.below(1 << 30) >= explore * (1 << 30):
        return None
    return draw.below(2)


def greedy_explorer(dice_seed: int, explore_greedy: float) -> int | None:
    """The seat that plays greedily in this game, if any: a fraction ``explore_greedy`` of
    the games, drawn from a stream apart from the dice and from :func:`explorer`'s."""
    draw = SplitMix64(mix64(dice_seed ^ 0x6EED_1E55_0B0E))
    if draw.below(1 << 30) >= explore_greedy * (1 << 30):
        return None
    return draw.below(2)


def pips(side: Side) -> int:
    """The points ``side``'s checkers still have to travel to bear off."""
    return sum((25 - point) * side[point] for point in range(1, 25))


def play_game(
    net: Net,
    dice_seed: int,
    race_plies: int | None = None,
    explore: float = 0.0,
    explore_greedy: float = 0.0,
) -> Game | None:
    """One self-play game (``None`` if stalled). With ``race_plies``, pure-race positions
    take their exact value and the game stops that many plies after the race begins.

    In a fraction ``explore`` of the games one side (:func:`explorer`) plays uniformly
    random legal plays, and in a fraction ``explore_greedy`` of the others one side
    (:func:`greedy_explorer`) plays greedily (the play leaving the lowest pip count, as
    ``engine.bot.players``' greedy does), so that the network also meets the positions weak
    players make (the analysis judges them, and level 4 must beat them by a wide margin).
    Those moves are not the policy being learned: the position before each is given the
    value of the play the network would have made with that roll (the trace is cut there,
    as in Watkins's Q(lambda)); the other side's positions learn as usual.
    """
    rng = SplitMix64(dice_seed)
    weak_seat = explorer(dice_seed, explore) if explore > 0 else None
    greedy = weak_seat is None and explore_greedy > 0
    if greedy:
        weak_seat = greedy_explorer(dice_seed, explore_greedy)
    chance = SplitMix64(mix64(dice_seed + 0x0DD5))
    mover, other = initial_side(), initial_side()
    movers: list[Side] = []
    others: list[Side] = []
    exact: dict[int, np.ndarray] = {}
    race = 0
    for ply in range(MAX_PLIES):
        movers.append(mover)
        others.append(other)
        if race_plies is not None and pure_race(mover, other):
            exact[ply] = race_value(mover, other)
            race += 1
            if race > race_plies:
                return movers, others, exact[ply], exact
        dice = (rng.below(6) + 1, rng.below(6) + 1)
        child, _value = choose(net, mover, other, dice)
        if ply % 2 == weak_seat and not pure_race(mover, other):
            children = successors(mover, other, dice)
            random_pick = children[chance.below(len(children))]
            explored = min(children, key=pips) if greedy else random_pick
            if explored != child:
                exact[ply] = settled(net, other, child)
                child = explored
        outcome = np.zeros(OUTCOMES)
        if child[OFF] == 15:
            outcome[multiplier(other) - 1] = 1.0
            return movers, others, outcome, exact
        if postillon_blocked(other, child):
            outcome[3] = 1.0
            return movers, others, outcome, exact
        mover, other = other, child
    return None


def settled(net: Net, other: Side, child: Side) -> np.ndarray:
    """The outcome distribution, for the side that just played, after a play leaving it
    ``child`` and ``other`` to roll: certain if the game is over, else the network's."""
    value = np.zeros(OUTCOMES)
    if child[OFF] == 15:
        value[multiplier(other) - 1] = 1.0
    elif postillon_blocked(other, child):
        value[3] = 1.0
    else:
        value = net.forward(net.encode([other], [child]))[1][0][FLIP]
    return value


def train_game(net: Net, game: Game, lam: float, alpha: float) -> int:
    """Move every position of a game towards its lambda-return (a pure race's towards its
    exact value); returns its length."""
    movers, others, outcome, exact = game
    x = net.encode(movers, others)
    h, p = net.forward(x)
    steps = len(movers)
    targets = np.empty_like(p)
    target = exact.get(steps - 1, outcome)
    targets[steps - 1] = target
    for t in range(steps - 2, -1, -1):
        target = exact[t] if t in exact else ((1.0 - lam) * p[t + 1] + lam * target)[FLIP]
        targets[t] = target
    dz = targets - p
    dh = (dz @ net.w2) * h * (1.0 - h)
    net.w2 += alpha * dz.T @ h
    net.b2 += alpha * dz.sum(axis=0)
    net.w1 += alpha * dh.T @ x
    net.b1 += alpha * dh.sum(axis=0)
    return steps


def save(path: Path, net: Net, games: int, meta: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp.npz")
    arrays = {**net.arrays(), "scale": net.scale}
    np.savez(tmp, games=games, meta=json.dumps(meta), **arrays)
    os.replace(tmp, path)


def grown(w1: np.ndarray) -> np.ndarray:
    """A first layer of a network made before the interaction inputs, given zero weights for
    them: the network computes exactly what it did, and training teaches it to use them."""
    extra = NET_INPUTS - w1.shape[1]
    return np.concatenate([w1, np.zeros((w1.shape[0], extra))], axis=1) if extra else w1


def load(path: Path, net: Net) -> tuple[int, dict[str, Any]]:
    data = np.load(path)
    for name, array in net.arrays().items():
        array[...] = grown(data[name]) if name == "w1" else data[name]
    saved = data["scale"] if "scale" in data else np.ones(INPUTS)  # a run made before it
    net.scale = INPUT_SCALE.copy()
    net.scale[: len(saved)] = saved
    games, meta = int(data["games"]), json.loads(str(data["meta"]))
    if data["w1"].shape[1] < NET_INPUTS:
        meta.setdefault("interactions_from", []).append(games)
    return games, meta


def adopt(path: Path, net: Net) -> tuple[int, dict[str, Any]]:
    """Start from a committed integer network (``engine/bot/equity_net.json``) when its
    checkpoint is gone: the inverse of ``scripts/export_net.py``'s rounding (each weight
    within half a fixed-point unit of the float it was), the input scale unfolded from the
    first layer, and the run's record (games, seed, steps, replans) taken from ``made``."""
    from export_net import FRACTION_BITS

    data = json.loads(path.read_text(encoding="ascii"))
    made = data["made"]
    hidden = int(data["hidden"])
    if net.w1.shape[0] != hidden:
        raise SystemExit(f"{path} has {hidden} hidden units, not --hidden {net.w1.shape[0]}")
    interactions_from = list(made.get("interactions_from", []))
    for name, array in net.arrays().items():
        values = np.array(data[name], dtype=np.float64) / (1 << FRACTION_BITS[name])
        if name == "w1":
            if values.size < array.size:  # a network of format 1: no interaction inputs yet
                interactions_from.append(int(made["games"]))
            array[...] = grown(values.reshape(hidden, -1))
        else:
            array[...] = values.reshape(array.shape)
    net.scale = INPUT_SCALE.copy()
    net.w1 /= net.scale  # the export folded the scale into the first layer
    alpha, alpha_end = made["alpha"]
    planned = made["replanned"][-1]["games"] if made.get("replanned") else made["games"]
    meta: dict[str, Any] = {
        "seed": made["seed"], "hidden": hidden, "lambda": made["lambda"], "alpha": alpha,
        "alpha_end": alpha_end, "planned_games": planned,
        "wall_seconds": float(made["wall_hours"]) * 3600, "positions": made["positions"],
        "checks": list(made.get("strength_checks", [])),
        "replanned": list(made.get("replanned", [])),
        "race_plies_from": list(made.get("race_plies_from", [])),
        "explore_from": list(made.get("explore_from", [])),
        "explore_greedy_from": list(made.get("explore_greedy_from", [])),
        "interactions_from": interactions_from,
        "adopted": [{"at": int(made["games"]), "from": str(path)}],
    }  # fmt: skip
    for key in ("race_plies", "explore", "explore_greedy"):
        if made.get(key) is not None:
            meta[key] = made[key]
    return int(made["games"]), meta


def strength(net: Net, games: int, seed: int) -> tuple[float, int, int]:
    """The network at one ply against level 3, paired dice: (share of points, pts, pts)."""
    from bench_bot import make_player
    from bench_bot import play_game as bench_game

    from engine.bot import sides_of

    def net_play(position: Any, dice: tuple[int, int]) -> Any:
        from engine.bot.board import apply_moves
        from engine.jacquet import legal_plays

        mover, other = sides_of(position)
        child, _ = choose(net, mover, other, dice)
        for play in legal_plays(position, dice):
            if apply_moves(mover, [(m.from_point, m.to_point) for m in play]) == child:
                return play
        raise AssertionError("the chosen child is no legal play")

    level3 = make_player("3", 0)
    mine = theirs = 0
    for pair in range(games // 2):
        dice_seed = mix64(seed * 7919 + pair)
        for seat in (0, 1):
            white, black = (net_play, level3) if seat == 0 else (level3, net_play)
            points = bench_game(white, black, dice_seed).points
            mine += points[seat]
            theirs += points[1 - seat]
    return mine / max(1, mine + theirs), mine, theirs


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="train up to this many games")
    parser.add_argument("--hidden", type=int, default=64, help="hidden units (new runs)")
    parser.add_argument("--lam", type=float, default=0.7, help="lambda of TD(lambda)")
    parser.add_argument("--alpha", type=float, default=0.02, help="step per position")
    parser.add_argument(
        "--alpha-end", type=float, default=0.005, help="step at --games (linear decay from --alpha)"
    )
    parser.add_argument("--seed", type=int, default=1, help="weights' and dice's seed")
    parser.add_argument("--checkpoint", type=Path, required=True, help="resumed if it exists")
    parser.add_argument("--save-every", type=int, default=1000)
    parser.add_argument("--report", type=int, default=500, help="progress line every N games")
    parser.add_argument("--check-every", type=int, default=10_000)
    parser.add_argument("--check-games", type=int, default=100)
    parser.add_argument("--export", type=Path, help="write the integer network here at the end")
    parser.add_argument("--pause-at", type=int, help="save and stop after this many games")
    parser.add_argument(
        "--race-plies",
        type=int,
        help="label pure races by the exact table and stop a game this many plies into its "
        "race (recorded with the run, from the game it starts)",
    )
    parser.add_argument(
        "--explore",
        type=float,
        help="in this fraction of the games one side plays at random, its moves cut from "
        "the trace (recorded with the run, from the game it starts)",
    )
    parser.add_argument(
        "--explore-greedy",
        type=float,
        help="in this fraction of the other games one side plays greedily (lowest pip "
        "count), its moves cut from the trace (recorded with the run, from the game it starts)",
    )
    parser.add_argument(
        "--adopt",
        type=Path,
        help="with no checkpoint yet, start from this exported network (its record kept)",
    )
    parser.add_argument(
        "--replan",
        action="store_true",
        help="on resuming, let alpha's decay end at --games instead",
    )
    args = parser.parse_args(argv)

    net = Net(args.hidden, np.random.default_rng(args.seed))
    meta: dict[str, Any] = {
        "seed": args.seed, "hidden": args.hidden, "lambda": args.lam, "alpha": args.alpha,
        "alpha_end": args.alpha_end, "planned_games": args.games, "wall_seconds": 0.0,
        "positions": 0, "checks": [],
    }  # fmt: skip
    done = 0
    if args.checkpoint.exists():
        done, meta = load(args.checkpoint, net)
        print(f"resumed {args.checkpoint} at game {done}", flush=True)
    elif args.adopt is not None:
        done, meta = adopt(args.adopt, net)
        print(f"adopted {args.adopt} at game {done}", flush=True)
    if done and args.replan:
        # The step's linear decay now ends at --games (recorded with the run).
        meta.setdefault("replanned", []).append({"at": done, "games": args.games})
        meta["planned_games"] = args.games
    if args.race_plies is not None and meta.get("race_plies") != args.race_plies:
        meta["race_plies"] = args.race_plies
        meta.setdefault("race_plies_from", []).append(done)
    if args.explore is not None and meta.get("explore", 0.0) != args.explore:
        meta["explore"] = args.explore
        meta.setdefault("explore_from", []).append(done)
    if args.explore_greedy is not None and meta.get("explore_greedy", 0.0) != args.explore_greedy:
        meta["explore_greedy"] = args.explore_greedy
        meta.setdefault("explore_greedy_from", []).append(done)
    began = time.perf_counter()
    wall_before = meta["wall_seconds"]
    window_start, window_plies = time.perf_counter(), 0
    stop = min(args.games, args.pause_at) if args.pause_at else args.games
    while done < stop:
        fraction = done / max(1, meta["planned_games"])
        alpha = meta["alpha"] + (meta["alpha_end"] - meta["alpha"]) * min(1.0, fraction)
        dice_seed = mix64(meta["seed"] * 1_000_003 + done)
        game = play_game(
            net,
            dice_seed,
            meta.get("race_plies"),
            meta.get("explore", 0.0),
            meta.get("explore_greedy", 0.0),
        )
        done += 1
        if game is not None:
            plies = train_game(net, game, meta["lambda"], alpha)
            meta["positions"] += plies
            window_plies += plies
        meta["wall_seconds"] = wall_before + time.perf_counter() - began
        if done % args.report == 0:
            spent = time.perf_counter() - window_start
            print(json.dumps({
                "games": done, "games_per_hour": round(3600 * args.report / spent),
                "plies_per_game": round(window_plies / args.report, 1),
                "alpha": round(alpha, 5), "wall_hours": round(meta["wall_seconds"] / 3600, 3),
            }), flush=True)  # fmt: skip
            window_start, window_plies = time.perf_counter(), 0
        if done % args.save_every == 0 or done == stop:
            save(args.checkpoint, net, done, meta)
        if args.check_every and done % args.check_every == 0:
            share, mine, theirs = strength(net, args.check_games, done)
            check = {"games": done, "vs_level3_share": round(share, 4), "points": [mine, theirs]}
            meta["checks"].append(check)
            print(json.dumps(check), flush=True)
            save(args.checkpoint, net, done, meta)
    if args.export and done == args.games:
        from export_net import export

        export(net.arrays(), meta, done, args.export, net.scale)
        print(f"wrote {args.export}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
