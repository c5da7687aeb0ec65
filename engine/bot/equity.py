"""What a Jacquet position is worth to the side to move: outcome probabilities and equity.

One function decides which oracle answers, from the most exact down:

1. the game is over (the other side has borne off all 15, or my postillon is blocked,
   RULES 2.4 and 2.7): the outcome is certain;
2. a pure race (both sides home): the exact one-sided bear-off distributions of
   :mod:`engine.bot.race`;
3. anything else: the equity network (:mod:`engine.bot.net`).

Probabilities are in millionths (:data:`ONE`) over :data:`~engine.bot.net.OUTCOMES`, summing to
exactly :data:`ONE`; equity is in micro-points (a single game is :data:`ONE`).

>>> from engine.bot.board import initial_side
>>> won = (0, *([0] * 24), 15)
>>> probabilities(initial_side(), won)  # he is off; my checkers are on my talon: x4
(0, 0, 0, 0, 0, 0, 0, 1000000)
>>> equity(initial_side(), won) == -4 * ONE
True
"""

from __future__ import annotations

from enum import Enum

from engine.bot.board import OFF, Side, postillon_blocked
from engine.bot.evaluate import multiplier
from engine.bot.net import NETWORK, ONE, POINTS, Network, outcome_equity
from engine.bot.race import pure_race, win_chance

__all__ = ["ONE", "Oracle", "equity", "oracle", "probabilities"]


class Oracle(Enum):
    """Which judge a position's value came from."""

    OVER = "over"
    RACE = "race"
    NETWORK = "network"


def _certain(outcome: int) -> tuple[int, ...]:
    return tuple(ONE if k == outcome else 0 for k in range(len(POINTS)))


def oracle(mover: Side, other: Side) -> Oracle:
    """The judge :func:`probabilities` asks for this position."""
    if other[OFF] == 15 or postillon_blocked(mover, other):
        return Oracle.OVER
    if pure_race(mover, other):
        return Oracle.RACE
    return Oracle.NETWORK


def probabilities(mover: Side, other: Side, network: Network = NETWORK) -> tuple[int, ...]:
    """The eight outcome probabilities for ``mover``, to play next against ``other``."""
    if other[OFF] == 15:
        return _certain(4 + multiplier(mover) - 1)
    if postillon_blocked(mover, other):
        return _certain(7)
    if pure_race(mover, other):
        win = win_chance(mover[19:25], other[19:25])
        return (win, 0, 0, 0, ONE - win, 0, 0, 0)
    return network.probabilities(mover, other)


def equity(mover: Side, other: Side, network: Network = NETWORK) -> int:
    """Expected points for ``mover``, to play next, in micro-points."""
    return outcome_equity(probabilities(mover, other, network))
