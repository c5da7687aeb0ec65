"""The evaluation's weights, and the values the computer player plays with.

Every weight is an int (pips, or milli-points / milli-probabilities), so evaluation and
therefore play are identical on every machine. ``scripts/tune_bot.py`` searches for better
ones by a coordinate search over paired self-play; ``docs/bot.md`` says how :data:`TUNED`
was chosen.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Weights:
    """Weights of :func:`engine.bot.evaluate.evaluate` (see its docstring for the model)."""

    tempo: int = 4
    """Pips the side on roll is worth in the race."""
    race_slope: int = 2800
    """Milli-win per pip of effective lead, times (mean effective pips + ``race_offset``)."""
    race_offset: int = 30
    run_pips: tuple[int, int, int, int, int, int, int] = (0, 1, 2, 4, 7, 12, 30)
    """Pips lost by a checker facing 0-6 consecutive closed points (6: fully primed)."""
    straggle: int = 8
    """Pips per 1024 of the sum of squared distances to off: rear checkers cost more than
    their pips (they are the ones the other side blocks, and they decide x2-x4)."""
    hemmed: int = 2
    """Quarter-pips lost per checker and per closed point within six points ahead of it."""
    entry_waste: int = 7
    """Pips a side not yet bearing off will waste bearing off (the table's mean excess over
    the pip count for 15 checkers just home), so entering the last quarter costs nothing."""
    stack: int = 1
    """Pips lost per checker beyond the third on one point (talon excepted)."""
    deep: int = 1
    """Pips lost bearing off per checker-point beyond 21 (deep checkers waste dice)."""
    postillon: int = 10
    """Pips lost while still under the postillon rule (dice the single checker cannot use)."""
    postillon_far: int = 1
    """Extra pips per point the postillon still has to go to reach 19."""
    gammon_slope: int = 15
    """Milli-points per pip by which a loser's rear band is out of reach (x2-x4 ramp)."""
    block_base: tuple[int, int, int, int, int, int] = (0, 5, 30, 90, 200, 420)
    """Milli-chance my postillon gets blocked, by how many of my 19-24 the other holds (0-5),
    once the other side is free to bring checkers out."""
    block_far: int = 8
    """Extra milli-chance per held point and per 10 points my postillon still has to go."""
    block_while_racing: int = 5
    """Milli-chance per held point while the other side is itself still under the rule."""


TUNED = Weights()
"""The weights every level plays with: the hand-set values above, which the coordinate
search of ``scripts/tune_bot.py`` did not beat on fresh dice (``docs/bot.md`` has the log)."""
