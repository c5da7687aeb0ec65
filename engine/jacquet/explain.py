"""Why a play is illegal, in words a player understands — or ``None`` when it is legal.

A play is legal when each of its moves is a step :func:`~engine.jacquet.legal.successors`
allows for one of the dice still unused, and it ends on a position that
:func:`~engine.jacquet.legal.legal_play_results` lists: the same two rules the generator
applies, so this never disagrees with :func:`~engine.jacquet.legal.legal_plays`.

>>> from engine.jacquet.notation import parse_play
>>> start = Position.initial()
>>> explain_illegal(start, (6, 5), parse_play("1/6 6/12")) is None
True
>>> explain_illegal(start, (6, 5), parse_play("1/7 1/6"))
'the postillon must reach the last quarter (19-24) before another checker leaves the talon'
>>> explain_illegal(start, (6, 5), parse_play("1/7"))
'you must use both dice'
"""

from __future__ import annotations

from engine.jacquet.bearoff import BearOff
from engine.jacquet.legal import legal_play_results, successors
from engine.jacquet.move import Move, Play
from engine.jacquet.notation import format_move
from engine.jacquet.position import (
    BELOW_HOME_MASK,
    CHECKERS,
    OFF_INDEX,
    SIDE_NAMES,
    UNIT,
    Position,
    closed_mask,
    occupied,
    under_postillon_rule,
)


def explain_illegal(
    position: Position, dice: tuple[int, int], play: Play, bearoff: BearOff = "backgammon"
) -> str | None:
    """``None`` if *play* is legal for *dice*, else the first reason it is not."""
    mover = position.turn
    results = legal_play_results(position, dice, bearoff)
    legal_boards = {after.boards[mover] for _play, after in results}
    closed = closed_mask(position.boards[1 - mover])
    dice_left = (dice[0],) * 4 if dice[0] == dice[1] else tuple(sorted(dice, reverse=True))
    reasons: list[str] = []
    finals = _follow(position.boards[mover], dice_left, play, closed, mover, reasons)
    if any(board in legal_boards for board, _used in finals):
        return None
    if not finals:
        return reasons[0]
    high_playable = bool(successors(position.boards[mover], max(dice), closed))
    return _why_not_best(results[0][0], finals[0][1], dice, high_playable, bearoff)


def _follow(
    board: int,
    dice_left: tuple[int, ...],
    play: Play,
    closed: int,
    mover: int,
    reasons: list[str],
) -> list[tuple[int, tuple[int, ...]]]:
    """Each final board *play* can reach, one die per move, with the dice it used."""
    if not play:
        return [(board, ())]
    move, rest = play[0], play[1:]
    k, j = move.from_point - 1, move.to_point - 1
    if j == OFF_INDEX:
        candidates = sorted({d for d in dice_left if k + d >= OFF_INDEX})
    else:
        candidates = [j - k] if j - k in dice_left else []
    if not candidates:
        reasons.append(_no_die(move, dice_left))
    finals = []
    for die in candidates:
        if (k, j) not in successors(board, die, closed):
            reasons.append(_why_step_illegal(board, move, die, closed, mover))
            continue
        unused = list(dice_left)
        unused.remove(die)
        after = board + UNIT[j] - UNIT[k]
        for final, used in _follow(after, tuple(unused), rest, closed, mover, reasons):
            finals.append((final, (die, *used)))
    return finals


def _no_die(move: Move, dice_left: tuple[int, ...]) -> str:
    if not dice_left:
        return f"{format_move(move)}: no dice are left to play it"
    left = " and ".join(str(d) for d in dice_left)
    if move.is_bear_off:
        return f"{format_move(move)}: no die left ({left}) bears off from {move.from_point}"
    return f"{format_move(move)} needs a {move.distance}; the dice left are {left}"


def _why_step_illegal(board: int, move: Move, die: int, closed: int, mover: int) -> str:
    k, j = move.from_point - 1, move.to_point - 1
    if not board >> (4 * k) & 15:
        return f"you have no checker on {move.from_point}"
    if under_postillon_rule(board) and k == 0 and board & 15 < CHECKERS:
        return (
            "the postillon must reach the last quarter (19-24) before another checker "
            "leaves the talon"
        )
    if j < OFF_INDEX:
        return f"{move.to_point} is held by {SIDE_NAMES[1 - mover]}"
    if board & BELOW_HOME_MASK:
        return "you cannot bear off until all your checkers are in the last quarter (19-24)"
    rearmost = occupied(board)[0] + 1
    return (
        f"a {die} bears off from {25 - die}; a larger die bears off only your rearmost "
        f"checker ({rearmost})"
    )


def _why_not_best(
    legal_example: Play,
    used: tuple[int, ...],
    dice: tuple[int, int],
    high_playable: bool,
    bearoff: BearOff,
) -> str:
    """The play is made of legal steps but is not one RULES 2.5 allows."""
    best = len(legal_example)
    high, low = max(dice), min(dice)
    if high == low and len(used) < best:
        return f"you must play {best} of your {high}s" if best > 1 else f"you must play a {high}"
    if len(used) < best:
        if best == 2:
            return "you must use both dice"
        return f"you must play the {high if high_playable else low}"
    if best == 1 and high != low and high_playable and used == (low,):
        return f"you must play the {high}: when only one die can be played, the higher one"
    if bearoff == "trictrac":
        return (
            "under the trictrac bear-off, bear off with a die larger than needed as few "
            "times as you can"
        )
    return "that play is not one of the legal plays"
