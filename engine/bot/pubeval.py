"""A fixed, published linear player: "pubeval" for Jacquet, a yardstick for other programs.

Gerald Tesauro published *pubeval* so that backgammon programs could be compared with one
simple, fixed opponent: a linear function of a raw board encoding scores the position after
each legal play, and the play with the highest score is made. This is the same idea for
Jacquet, and its weights are frozen in ``pubeval.json`` (they will never change: a program
measured against it today can be compared with one measured in ten years).

* **Inputs**: :func:`engine.bot.features.encode` of the position *after* the play, from the
  side that just played (its 99 inputs first, then the other side's).
* **Score**: the dot product with the integer weights, ``contact`` unless both sides are
  home (a pure race), then ``race``; ties go to the first play in
  :func:`engine.jacquet.legal_plays` order.
* **How the weights were made** (``scripts/train_pubeval.py``, once): least squares fit of
  the equity network's judgement of positions after a play, over positions from self-play,
  rounded to integers. They are data now, not a function of the network.

>>> from engine.bot.board import initial_side
>>> isinstance(score(initial_side(), initial_side()), int)
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib.resources import files
from typing import Final

from engine.bot.board import Side
from engine.bot.features import INPUTS, encode
from engine.bot.race import pure_race


def _load() -> tuple[tuple[int, ...], tuple[int, ...]]:
    data = json.loads(files("engine.bot").joinpath("pubeval.json").read_text("ascii"))
    weights = []
    for name in ("contact", "race"):
        values = data[name]
        if len(values) != INPUTS or not all(type(v) is int for v in values):
            raise ValueError(f"pubeval.json: {name!r} must be {INPUTS} integers")
        weights.append(tuple(values))
    return weights[0], weights[1]


CONTACT, RACE = _load()
"""The frozen weights (``engine/bot/pubeval.json``)."""
WEIGHTS: Final = (CONTACT, RACE)


def score(played: Side, other: Side) -> int:
    """The linear score of the position after a play, for the side that made it."""
    weights = RACE if pure_race(played, other) else CONTACT
    return sum(w * x for w, x in zip(weights, encode(played, other), strict=True))


def choose(other: Side, children: Sequence[Side]) -> int:
    """Index of the child (the mover's side after each legal play) with the highest score."""
    scores = [score(child, other) for child in children]
    return scores.index(max(scores))
