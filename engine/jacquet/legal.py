"""Legal plays: the one source of truth for what a throw allows (RULES 2.3-2.6).

The generator works on packed boards (see :mod:`engine.jacquet.position`). The opponent
never moves during my turn and nothing is ever hit, so the closed points are one bit mask
for the whole turn; each intermediate board is one integer, so plays that reach the same
board are merged as soon as they meet. A double's four moves are generated with their
source points in non-decreasing order (once the postillon rule no longer applies): any
legal order of the same moves can be sorted that way and stays legal, so this finds every
resulting position while visiting each set of moves once.

>>> start = Position.initial()
>>> [format_play(play) for play in legal_plays(start, (3, 3))]
['1/4 4/7 7/10']
>>> [format_play(play) for play in legal_plays(start, (6, 5))]
['1/7 7/12']
"""

from __future__ import annotations

from typing import Final

from engine.errors import IllegalMoveError
from engine.jacquet.bearoff import BearOff, check_bearoff
from engine.jacquet.move import MOVE_TABLE, Play
from engine.jacquet.notation import format_play
from engine.jacquet.position import (
    BELOW_HOME_MASK,
    BOARD_MASK,
    CHECKERS,
    HOME_SHIFT,
    OFF_INDEX,
    POINT_BITS,
    UNIT,
    Position,
    closed_mask,
    point_set,
)

_HOME_POINTS: Final = POINT_BITS & ~BELOW_HOME_MASK

# A board reached during generation -> (the first play found to reach it, fewest excess
# bear-offs of any play reaching it).
_Reached = dict[int, tuple[Play, int]]


def successors(board: int, die: int, closed: int) -> list[tuple[int, int]]:
    """Every single-die step ``(k, j)`` (indices: point - 1, 24 = off) *die* allows.

    *closed* is :func:`~engine.jacquet.position.closed_mask` of the opponent's board. This
    is where the rules of one step live - closed points, the postillon rule checked before
    each die, bearing off - for the generator and for checking a given play alike. Steps
    come lowest source first, a bear-off last.
    """
    if not board >> HOME_SHIFT:
        # The postillon rule: only the checker off the talon moves, or one from the
        # talon while all fifteen are on it. Nothing is home, so no step bears off.
        source = 0 if board & 15 == CHECKERS else _second_lowest(board)
        target = source + die
        return [] if closed >> (4 * target) & 1 else [(source, target)]
    points = point_set(board)
    steps = []
    # Shift every occupied point forward by the die at once; keep the open landings.
    landings = (points << (4 * die)) & ~closed & POINT_BITS
    while landings:
        lowest = landings & -landings
        j = (lowest.bit_length() - 1) >> 2
        steps.append((j - die, j))
        landings ^= lowest
    if points and not board & BELOW_HOME_MASK:
        exact = OFF_INDEX - die
        rearmost = ((points & -points).bit_length() - 1) >> 2
        if points >> (4 * exact) & 1:
            steps.append((exact, OFF_INDEX))
        elif rearmost > exact:  # a larger die bears off the rearmost checker
            steps.append((rearmost, OFF_INDEX))
    return steps


def _second_lowest(board: int) -> int:
    """The index of the only checker off the talon (the postillon)."""
    rest = board & BOARD_MASK & ~15
    return ((rest & -rest).bit_length() - 1) >> 2


def _advance(reached: _Reached, die: int, closed: int, into: _Reached) -> _Reached:
    """Every board one *die* step beyond *reached*, merged into *into*."""
    for board, (play, excess) in reached.items():
        for k, j in successors(board, die, closed):
            after = board + UNIT[j] - UNIT[k]
            cost = excess + (k + die > OFF_INDEX)
            known = into.get(after)
            if known is None or cost < known[1]:
                into[after] = ((*play, MOVE_TABLE[k][j]), cost)
    return into


def _advance_double(
    reached: dict[tuple[int, int], tuple[Play, int]], die: int, closed: int
) -> dict[tuple[int, int], tuple[Play, int]]:
    """One more step of a double, keeping each play's sources in non-decreasing order.

    Keys are ``(board, lowest source allowed next)``; under the postillon rule the step is
    forced, and the order starts afresh (from 0) once the rule is lifted.
    """
    into: dict[tuple[int, int], tuple[Play, int]] = {}
    for (board, floor), (play, excess) in reached.items():
        forced = not board >> HOME_SHIFT
        for k, j in successors(board, die, closed):
            if k < floor:
                continue
            after = board + UNIT[j] - UNIT[k]
            key = (after, 0 if forced else k)
            cost = excess + (k + die > OFF_INDEX)
            known = into.get(key)
            if known is None or cost < known[1]:
                into[key] = ((*play, MOVE_TABLE[k][j]), cost)
    return into


def _best_boards(board: int, dice: tuple[int, int], closed: int) -> _Reached:
    """Final boards of the plays RULES 2.5 allows (most dice, then the higher die)."""
    high, low = max(dice), min(dice)
    start: _Reached = {board: ((), 0)}
    if high == low:
        level: dict[tuple[int, int], tuple[Play, int]] = {(board, 0): ((), 0)}
        deepest = start
        for _ in range(4):
            level = _advance_double(level, high, closed)
            if not level:
                break
            deepest = {}
            for (after, _floor), (play, cost) in level.items():
                known = deepest.get(after)
                if known is None or cost < known[1]:
                    deepest[after] = (play, cost)
        return deepest
    after_high = _advance(start, high, closed, {})
    after_low = _advance(start, low, closed, {})
    both = _advance(after_high, low, closed, {})
    _advance(after_low, high, closed, both)
    return both or after_high or after_low or start


def legal_play_results(
    position: Position, dice: tuple[int, int], bearoff: BearOff = "backgammon"
) -> tuple[tuple[Play, Position], ...]:
    """Each legal play with the position it leads to (turn passed to the opponent).

    One play per distinct resulting position, in a deterministic order; a pass is the
    single play ``()``. The dice must be two values 1-6.
    """
    check_dice(dice)
    check_bearoff(bearoff)
    mover = position.turn
    boards = position.boards
    closed = closed_mask(boards[1 - mover])
    reached = _best_boards(boards[mover], dice, closed)
    if bearoff == "trictrac":
        fewest = min(cost for _play, cost in reached.values())
        reached = {after: entry for after, entry in reached.items() if entry[1] == fewest}
    opponent = boards[1 - mover]
    if mover == 0:
        return tuple((play, Position(1, (after, opponent))) for after, (play, _) in reached.items())
    return tuple((play, Position(0, (opponent, after))) for after, (play, _) in reached.items())


def legal_plays(
    position: Position, dice: tuple[int, int], bearoff: BearOff = "backgammon"
) -> tuple[Play, ...]:
    """The legal plays for *dice*: one per distinct resulting position (pass: ``()``).

    >>> [format_play(p) for p in legal_plays(Position.initial(), (6, 6))]
    ['1/7']
    """
    return tuple(play for play, _after in legal_play_results(position, dice, bearoff))


def must_pass(position: Position, dice: tuple[int, int]) -> bool:
    """True when *dice* allow no move at all: the only legal play is the pass.

    Every play begins with one die's step, so this asks :func:`successors` alone and
    spares the caller the whole generation.
    """
    check_dice(dice)
    board = position.boards[position.turn]
    closed = closed_mask(position.boards[1 - position.turn])
    return not any(successors(board, die, closed) for die in set(dice))


def apply_play(position: Position, play: Play) -> Position:
    """The position after *play*, turn passed on. Legality is not checked (only that each
    move starts from one of the mover's checkers): use plays from :func:`legal_plays`.
    """
    mover = position.turn
    board = position.boards[mover]
    for move in play:
        k = move.from_point - 1
        if not board >> (4 * k) & 15:
            raise IllegalMoveError(f"{format_play((move,))}: you have no checker on {k + 1}")
        board += UNIT[move.to_point - 1] - UNIT[k]
    boards = (board, position.boards[1]) if mover == 0 else (position.boards[0], board)
    return Position(1 - mover, boards)


def blocked_postillon(position: Position) -> bool:
    """True when the player to move is blocked under the postillon rule (RULES 2.4).

    He is still under the rule, and no sequence of single-die steps over open points can
    take his postillon (or, before it left, a talon checker) into 19-24.
    """
    board = position.boards[position.turn]
    if board >> HOME_SHIFT:
        return False
    open_points = ~closed_mask(position.boards[1 - position.turn]) & POINT_BITS
    start = 0 if board & 15 == CHECKERS else _second_lowest(board)
    reach = 1 << (4 * start)
    while True:
        grown = reach
        for die in range(1, 7):
            grown |= (reach << (4 * die)) & open_points
        if grown == reach:
            return not reach & _HOME_POINTS
        reach = grown


def check_dice(dice: tuple[int, int]) -> None:
    """Raise :class:`IllegalMoveError` unless *dice* are two dice showing 1-6."""
    if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise IllegalMoveError(f"a throw is two dice showing 1 to 6, not {dice!r}")
