"""Static evaluation of a Jacquet position: expected points for the side to move.

All arithmetic is on ints (micro-points, eighths of a pip) so every machine ranks plays the same
way. The model, in the game's own terms (docs/rules.md §2):

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
from engine.bot.board import (
    CLOSED_AHEAD,
    OFF,
    RUN_AHEAD,
    Side,
    closed_to,
    postillon_blocked,
    postillon_point,
)
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
    """What the evaluation needs to know about one side apart from where the other stands,
    gathered in one pass and kept: a search judges one side against many replies."""

    __slots__ = ("ahead", "eff", "mask", "need", "points", "postillon", "postillon_gap")

    def __init__(self, side: Side, weights: Weights, quick: bool) -> None:
        pips = 0
        stacked = 0
        deep = 0
        straggle = 0
        need7 = need13 = need19 = 0
        mask = 0
        points = []
        for point in range(1, 25):
            count = side[point]
            if not count:
                continue
            mask |= 1 << point
            points.append((point, count))
            pips += (25 - point) * count
            straggle += (25 - point) * (25 - point) * count
            if point <= 18:
                need19 += (19 - point) * count
                if point <= 12:
                    need13 += (13 - point) * count
                    if point <= 6:
                        need7 += (7 - point) * count
            if point > 1 and count > 3:
                stacked += count - 3
            if point >= 22:
                deep += count * (point - 21)
        self.mask = mask
        self.points = tuple(points)
        self.ahead: dict[int, int] = {}
        """:func:`_closed_ahead` by the other side's mask: many replies share one."""
        self.need = (need19, need13, need7)
        self.postillon = side[OFF] == 0 and not any(side[19:25])
        if need19:
            eff = PIP * (pips + weights.entry_waste) + straggle * weights.straggle * PIP // 1024
            if not quick:
                eff += PIP * (stacked * weights.stack + deep * weights.deep)
        else:
            # Bearing off: the exact expected turns, in pips (8.17 pips a turn on average).
            eff = expected_turns(side[19:25]) * 49 * PIP // 6000
        self.postillon_gap = 0
        if self.postillon:
            self.postillon_gap = 19 - postillon_point(side)
            eff += PIP * (weights.postillon + self.postillon_gap * weights.postillon_far)
        self.eff = eff


def _closed_ahead(facts: _SideFacts, other_mask: int, weights: Weights) -> int:
    """Effective pips ``facts``' side loses to the points the other holds ahead of each of
    its checkers: the run of closed points straight ahead (its prison; six, a bouchage) and
    the closed points within a die's reach (dice it cannot use)."""
    known = facts.ahead.get(other_mask)
    if known is not None:
        return known
    closed = closed_to(other_mask)
    run_pips = weights.run_pips
    trapped = hemmed = 0
    for point, count in facts.points:
        ahead = (closed >> (point + 1)) & 63
        trapped += count * run_pips[RUN_AHEAD[ahead]]
        hemmed += count * CLOSED_AHEAD[ahead]
    lost = facts.ahead[other_mask] = PIP * trapped + hemmed * weights.hemmed * PIP // 4
    return lost


_FACTS: dict[int, tuple[Weights, dict[tuple[Side, bool], _SideFacts]]] = {}
_FACTS_KEPT = 1 << 15
"""Sides remembered per weights; past that the memory starts again (it is only a cache)."""


def _facts(side: Side, weights: Weights, quick: bool) -> _SideFacts:
    entry = _FACTS.get(id(weights))
    if entry is None or entry[0] is not weights:
        entry = _FACTS[id(weights)] = (weights, {})
    known = entry[1]
    found = known.get((side, quick))
    if found is None:
        if len(known) >= _FACTS_KEPT:
            known.clear()
        found = known[(side, quick)] = _SideFacts(side, weights, quick)
    return found


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
    # The other side's checkers on his 7-12 close my 19-24.
    held = CLOSED_AHEAD[(other.mask >> 7) & 63]
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
    me = _facts(mover, weights, quick)
    him = _facts(other, weights, quick)
    my_eff, his_eff = me.eff, him.eff
    if not quick:
        my_eff += _closed_ahead(me, him.mask, weights)
        his_eff += _closed_ahead(him, me.mask, weights)
    if postillon_blocked(other, mover):
        # Checked when his turn begins; I move first and will keep the door shut if I can.
        my_block, his_block = 0, 950
    else:
        my_block, his_block = _block_risk(me, him, weights), _block_risk(him, me, weights)
    lead = his_eff - my_eff + PIP * weights.tempo
    # A lead counts for more when little is left to play (the race's variance shrinks).
    scale = max(20 * PIP, (max(0, my_eff) + max(0, his_eff)) // 2 + PIP * weights.race_offset)
    win = min(990 * MILLI, max(10 * MILLI, WIN // 2 + lead * weights.race_slope * MILLI // scale))
    my_gain = WIN + _escape_risk(him.need, my_eff // PIP, weights)
    his_gain = WIN + _escape_risk(me.need, his_eff // PIP, weights)
    equity = (win * my_gain - (WIN - win) * his_gain) // WIN
    at_stake = MILLI - my_block - his_block
    # The lead also counts a hair on its own (one micro-point per eighth of a pip), so a
    # decided game (its win chance clamped) is still played as fast as it can be.
    return (equity * at_stake) // MILLI + 4 * (WIN // MILLI) * (his_block - my_block) + lead
