#!/usr/bin/env python3
"""Write a trained equity network as ``engine/bot/equity_net.json``: integers only.

Reads a checkpoint of ``scripts/train_net.py`` (float weights), rounds the weights to the
fixed-point units of :mod:`engine.bot.net`, tabulates the sigmoid and the softmax's
exponential once (the only floating point in the network's life after training, done here
and committed, so inference never computes a float), and records how the network was made.

    .venv/bin/python scripts/export_net.py /tmp/net.npz engine/bot/equity_net.json
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bot.net import (
    EXP_BITS,
    EXP_STEP_BITS,
    FORMAT,
    HIDDEN_BITS,
    OUTPUT_BITS,
    SIGMOID_RANGE,
    SIGMOID_STEP_BITS,
    WEIGHT_BITS,
    Network,
)


def tables() -> tuple[list[int], list[int]]:
    """The sigmoid (at each step's midpoint) and exp(-x) tables, as integers."""
    steps = 1 << SIGMOID_STEP_BITS
    sigmoid = [
        round((1 << HIDDEN_BITS) / (1 + math.exp(-(c - SIGMOID_RANGE * steps + 0.5) / steps)))
        for c in range(2 * SIGMOID_RANGE * steps)
    ]
    exp_steps = 1 << EXP_STEP_BITS
    exp = [round((1 << EXP_BITS) * math.exp(-(i + 0.5) / exp_steps)) for i in range(32 * exp_steps)]
    return sigmoid, exp


FRACTION_BITS = {"w1": WEIGHT_BITS, "b1": WEIGHT_BITS, "w2": OUTPUT_BITS,
                 "b2": HIDDEN_BITS + OUTPUT_BITS}  # fmt: skip
"""Each array's fixed-point unit, 2**-bits (``scripts/train_net.py --adopt`` undoes it)."""


def quantise(arrays: Mapping[str, Any]) -> dict[str, list[int]]:
    return {
        name: [round(float(v) * (1 << bits)) for v in arrays[name].reshape(-1)]
        for name, bits in FRACTION_BITS.items()
    }


def export(
    arrays: Mapping[str, Any], meta: Mapping[str, Any], games: int, out: Path, scale: Any = None
) -> None:
    """Write the integer network; check it loads (every bound holds) before replacing.

    ``scale`` (the inputs' training scale, ``scripts/train_net.py``) is folded into the first
    layer, so the integer network reads the raw inputs of :mod:`engine.bot.features`."""
    if scale is not None:
        arrays = {**arrays, "w1": arrays["w1"] * scale}
    sigmoid, exp = tables()
    made = {
        "method": "TD(lambda) self-play, forward view (lambda-returns) after each game; "
        "softmax over 8 outcomes, log-likelihood ascent",
        "script": "scripts/train_net.py",
        "games": games,
        "positions": meta.get("positions"),
        "lambda": meta.get("lambda"),
        "alpha": [meta.get("alpha"), meta.get("alpha_end")],
        "hidden": int(arrays["w1"].shape[0]),
        "seed": meta.get("seed"),
        "wall_hours": round(float(meta.get("wall_seconds", 0.0)) / 3600, 2),
        "strength_checks": meta.get("checks", []),
        "replanned": meta.get("replanned", []),
        "race_plies": meta.get("race_plies"),
        "race_plies_from": meta.get("race_plies_from", []),
        "explore": meta.get("explore", 0.0),
        "explore_from": meta.get("explore_from", []),
        "explore_greedy": meta.get("explore_greedy", 0.0),
        "explore_greedy_from": meta.get("explore_greedy_from", []),
        "interactions_from": meta.get("interactions_from", []),
        "adopted": meta.get("adopted", []),
    }
    data: dict[str, Any] = {"format": FORMAT, "hidden": made["hidden"], "made": made,
                            **quantise(arrays), "sigmoid": sigmoid, "exp": exp}  # fmt: skip
    Network.from_json(data)
    lines = ["{"]
    items = list(data.items())
    for index, (key, value) in enumerate(items):
        comma = "," if index < len(items) - 1 else ""
        text = json.dumps(value, indent=1) if key == "made" else json.dumps(value)
        lines.append(f" {json.dumps(key)}: {text}{comma}")
    lines.append("}")
    out.write_text("\n".join(lines) + "\n", encoding="ascii")


def main(argv: Sequence[str] | None = None) -> int:
    import numpy as np

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkpoint", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    data = np.load(args.checkpoint)
    arrays = {name: data[name] for name in ("w1", "b1", "w2", "b2")}
    scale = data.get("scale")
    export(arrays, json.loads(str(data["meta"])), int(data["games"]), args.out, scale)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
