"""Static evaluation of a Jacquet position: expected points for the side to move.

All arithmetic is on ints (micro-points, eighths of a pip) so every machine ranks plays the same
way. The model, in the game's own terms (RULES.md §2):

* **Race.** Each side's *effective pip count* is its pip count plus the pips it will lose
  to the position: checkers facing a run of closed points (a six-point *bouchage* traps
  them) or closed points within a die's reach, stragglers, tall stacks, a side still under
  the postillon rule (one checker moves, dice are lost). Once all its checkers are home, a
  side's count is the exact expected length of its bear-off (:mod:`engine.bot.bearoff`).
  The difference, with the tempo of being on roll, gives a win chance (a clamped linear
  fit, like race formulas in tables games).
* **x1-x4.** If the leader wins, the loser's rearmost checker sets the multiplier; each band
  the loser cannot leave in the pips he has left before the leader finishes adds a point
  (RULES 2.7) — so a losing side that leaves checkers back is penalised, and a winning side
  likes to keep the other's stragglers back.
* **Blocked postillon.** A side still under the postillon rule risks losing x4 (RULES 2.4);
  the risk grows with the points of its last quarter the other side holds and with the
  distance its postillon still has to go. An actual block is a lost game.

>>> from engine.bot.board import initial_side
>>> evaluate(initial_side(), initial_side()) > 0  # the tempo of being on roll
True
"""

from __future__ import annotations

from engine.bot.bearoff import expected_turns
from engine.bot.board import OFF, OPPOSITE, Side, postillon_blocked, postillon_point
from engine.bot.weights import TUNED, Weights

WIN = 1_000_000
"""Micro-points of a single (x1) win: the evaluation's unit."""

PIP = 8
"""Effective pip counts are kept in eighths of a pip, so sub-pip differences still rank."""

MILLI = 1000
"""Weights give chances in thousandths; the evaluation works in millionths."""


def multiplier(loser: Side) -> int:
    """RULES 2.7: 1-4 points by the loser's rearmost checker on his own track.

    >>> from engine.bot.board import initial_side
    >>> multiplier(initial_side())
    4
    """
    for point in range(1, 19):
        if loser[point]:
            return 4 - (point - 1) // 6
    return 1


class _SideFacts:
    """What the evaluation needs to know about one side, gathered in one pass."""

    __slots__ = ("eff", "home_held", "need", "postillon", "postillon_gap")

    def __init__(self, side: Side, other: Side, weights: Weights, quick: bool) -> None:
        pips = 0
        trapped = 0
        stacked = 0
        deep = 0
        hemmed = 0
        straggle = 0
        need7 = need13 = need19 = 0
        run_pips = weights.run_pips
        for point in range(1, 25):
            count = side[point]
            if not count:
                continue
            pips += (25 - point) * count
            straggle += (25 - point) * (25 - point) * count
            if point <= 18:
                need19 += (19 - point) * count
                if point <= 12:
                    need13 += (13 - point) * count
                    if point <= 6:
                        need7 += (7 - point) * count
            if quick:
                continue
            # Closed points within a die's reach: dice this checker cannot use, and the
            # consecutive run straight ahead, the checker's prison (six: a bouchage).
            run = closed = 0
            for target in range(point + 1, min(point + 6, 24) + 1):
                if other[OPPOSITE[target]]:
                    closed += 1
                    if run == target - point - 1:
                        run += 1
            trapped += count * run_pips[run]
            hemmed += count * closed
            if point > 1 and count > 3:
                stacked += count - 3
            if point >= 22:
                deep += count * (point - 21)
        self.need = (need19, need13, need7)
        self.postillon = side[OFF] == 0 and not any(side[19:25])
        # The other side's checkers on his 7-12 close my 19-24.
        self.home_held = sum(1 for q in range(7, 13) if other[q])
        if need19:
            eff = PIP * (pips + weights.entry_waste) + straggle * weights.straggle * PIP // 1024
            if not quick:
                eff += PIP * (stacked * weights.stack + deep * weights.deep)
        else:
            # Bearing off: the exact expected turns, in pips (8.17 pips a turn on average).
            eff = expected_turns(side[19:25]) * 49 * PIP // 6000
        if not quick:
            eff += PIP * trapped + hemmed * weights.hemmed * PIP // 4
        self.postillon_gap = 0
        if self.postillon:
            self.postillon_gap = 19 - postillon_point(side)
            eff += PIP * (weights.postillon + self.postillon_gap * weights.postillon_far)
        self.eff = eff


def _escape_risk(need: tuple[int, int, int], available: int, weights: Weights) -> int:
    """Micro-points a loser adds to a loss for the bands he likely cannot leave in time
    (``available``: the pips he will roll before the winner is off)."""
    extra = 0
    for pips_needed in need:
        if pips_needed:
            ramp = MILLI // 2 + (pips_needed - available) * weights.gammon_slope
            extra += min(MILLI, max(0, ramp)) * (WIN // MILLI)
    return extra


def _block_risk(me: _SideFacts, other: _SideFacts, weights: Weights) -> int:
    """Milli-chance that ``me``'s postillon ends up blocked (a x4 loss)."""
    if not me.postillon:
        return 0
    held = me.home_held
    if other.postillon:
        # His checkers are all on his talon but one: at most his postillon sits in my home.
        return held * weights.block_while_racing
    base = weights.block_base[held] if held < 6 else 900
    return min(900, base + held * me.postillon_gap * weights.block_far // 10)


def evaluate(mover: Side, other: Side, weights: Weights = TUNED, *, quick: bool = False) -> int:
    """Expected micro-points (:data:`WIN` a single game) for ``mover``, to play next.

    ``quick`` skips the structural terms (closed points ahead, stacks, deep checkers):
    the level-1 player.

    >>> from engine.bot.board import initial_side
    >>> other = initial_side()
    >>> won = (0, *([0] * 24), 15)
    >>> evaluate(other, won) == -4 * WIN  # the other has borne off all 15: a quadruple loss
    True
    """
    if other[OFF] == 15:
        return -WIN * multiplier(mover)
    if postillon_blocked(mover, other):
        return -4 * WIN
    me = _SideFacts(mover, other, weights, quick)
    him = _SideFacts(other, mover, weights, quick)
    if postillon_blocked(other, mover):
        # Checked when his turn begins; I move first and will keep the door shut if I can.
        my_block, his_block = 0, 950
    else:
        my_block, his_block = _block_risk(me, him, weights), _block_risk(him, me, weights)
    lead = him.eff - me.eff + PIP * weights.tempo
    # A lead counts for more when little is left to play (the race's variance shrinks).
    scale = max(20 * PIP, (max(0, me.eff) + max(0, him.eff)) // 2 + PIP * weights.race_offset)
    win = min(990 * MILLI, max(10 * MILLI, WIN // 2 + lead * weights.race_slope * MILLI // scale))
    my_gain = WIN + _escape_risk(him.need, me.eff // PIP, weights)
    his_gain = WIN + _escape_risk(me.need, him.eff // PIP, weights)
    equity = (win * my_gain - (WIN - win) * his_gain) // WIN
    at_stake = MILLI - my_block - his_block
    # The lead also counts a hair on its own (one micro-point per eighth of a pip), so a
    # decided game (its win chance clamped) is still played as fast as it can be.
    return (equity * at_stake) // MILLI + 4 * (WIN // MILLI) * (his_block - my_block) + lead
