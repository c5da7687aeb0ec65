"""Named players for matches between programs: the levels, and three simple baselines.

``random`` (a uniformly random legal play, from a seeded SplitMix64), ``greedy`` (the legal
play leaving the lowest pip count; ties by :func:`engine.jacquet.legal_play_results` order,
which moves the rearmost checkers first), ``pubeval`` (the frozen linear baseline of
:mod:`engine.bot.pubeval`) and the levels ``1`` to ``4`` of :func:`engine.bot.choose_play`.
``tablier selfplay --levels`` and ``scripts/bench_bot.py`` both take their players here.

>>> from engine.jacquet import Position, format_play
>>> format_play(make_player("greedy", seed=0)(Position.initial(), (6, 5)))
'1/7 7/12'
>>> make_player("5", seed=0)
Traceback (most recent call last):
...
ValueError: unknown player '5'; choose one of random, greedy, pubeval, 1, 2, 3, 4
"""

from __future__ import annotations

from collections.abc import Callable

from engine.bot import LEVELS, choose_play, pubeval, sides_of
from engine.bot.prng import SplitMix64
from engine.jacquet import BearOff, Play, Position, legal_play_results

PLAYERS = ("random", "greedy", "pubeval", *(str(level) for level in LEVELS))

Player = Callable[[Position, tuple[int, int]], Play]
"""``player(position, dice) -> play``: one of the legal plays for the side to move."""


def pips(position: Position, side: int) -> int:
    """``side``'s pip count: the points its checkers still have to travel to bear off."""
    return sum((25 - point) * count for point, count in enumerate(position.points(side), 1))


def make_player(name: str, seed: int, bearoff: BearOff = "backgammon") -> Player:
    """The player called ``name`` (one of :data:`PLAYERS`); ``seed`` drives the random
    player's draws and breaks the levels' exact ties."""
    if name == "random":
        rng = SplitMix64(seed)

        def random_play(position: Position, dice: tuple[int, int]) -> Play:
            results = legal_play_results(position, dice, bearoff)
            return results[rng.below(len(results))][0]

        return random_play
    if name == "greedy":

        def greedy_play(position: Position, dice: tuple[int, int]) -> Play:
            mover = position.turn
            results = legal_play_results(position, dice, bearoff)
            return min(results, key=lambda result: pips(result[1], mover))[0]

        return greedy_play
    if name == "pubeval":

        def pubeval_play(position: Position, dice: tuple[int, int]) -> Play:
            results = legal_play_results(position, dice, bearoff)
            other = sides_of(position)[1]
            return results[pubeval.choose(other, [sides_of(after)[1] for _, after in results])][0]

        return pubeval_play
    if name in PLAYERS:
        level = int(name)

        def bot_play(position: Position, dice: tuple[int, int]) -> Play:
            return choose_play(position, dice, level=level, seed=seed, bearoff=bearoff)

        return bot_play
    raise ValueError(f"unknown player {name!r}; choose one of {', '.join(PLAYERS)}")
