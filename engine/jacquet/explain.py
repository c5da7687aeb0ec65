"""Why a play is illegal, in words a player understands — or ``None`` when it is legal.

The reason is a :class:`~engine.clause.Clause`: its pattern is in the client's catalogue
(``babel.cfg`` reads this module), so each player reads it in his own language
(``reason.say(words)``); ``str(reason)`` is its English.

A play is legal when each of its moves is a step :func:`~engine.jacquet.legal.successors`
allows for one of the dice still unused, and it ends on a position that
:func:`~engine.jacquet.legal.legal_play_results` lists: the same two rules the generator
applies, so this never disagrees with :func:`~engine.jacquet.legal.legal_plays`.

>>> from engine.jacquet.notation import parse_play
>>> start = Position.initial()
>>> explain_illegal(start, (6, 5), parse_play("1/6 6/12")) is None
True
>>> str(explain_illegal(start, (6, 5), parse_play("1/7 1/6")))
'the postillon must reach the last quarter (19-24) before another checker leaves the talon'
>>> str(explain_illegal(start, (6, 5), parse_play("1/7")))
'you must use both dice'
"""

from __future__ import annotations

from engine.clause import N_, Clause, Value, plural
from engine.jacquet.bearoff import BearOff
from engine.jacquet.legal import legal_play_results, successors
from engine.jacquet.move import Move, Play
from engine.jacquet.notation import format_move
from engine.jacquet.position import (
    BELOW_HOME_MASK,
    CHECKERS,
    OFF_INDEX,
    UNIT,
    Position,
    closed_mask,
    occupied,
    under_postillon_rule,
)


def explain_illegal(
    position: Position, dice: tuple[int, int], play: Play, bearoff: BearOff = "backgammon"
) -> Clause | None:
    """``None`` if *play* is legal for *dice*, else the first reason it is not."""
    mover = position.turn
    results = legal_play_results(position, dice, bearoff)
    legal_boards = {after.boards[mover] for _play, after in results}
    closed = closed_mask(position.boards[1 - mover])
    dice_left = (dice[0],) * 4 if dice[0] == dice[1] else tuple(sorted(dice, reverse=True))
    reasons: list[Clause] = []
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
    reasons: list[Clause],
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


def dice_list(dice: tuple[int, ...]) -> Value:
    """Dice named one after the other: "5", "6 and 5", "4, 4 and 4"."""
    if len(dice) == 1:
        return dice[0]
    some = ", ".join(str(die) for die in dice[:-1])
    return Clause.of(N_("{some} and {last}"), some=some, last=dice[-1])


def _no_die(move: Move, dice_left: tuple[int, ...]) -> Clause:
    say, written = Clause.of, format_move(move)
    if not dice_left:
        return say(N_("{move}: no dice are left to play it"), move=written)
    left = dice_list(dice_left)
    if move.is_bear_off:
        return say(plural("{move}: the die left ({dice}) does not bear off from {point}",
                          "{move}: no die left ({dice}) bears off from {point}"),
                   len(dice_left), move=written, dice=left, point=move.from_point)  # fmt: skip
    return say(plural("{move} needs a {distance}; the die left is {dice}",
                      "{move} needs a {distance}; the dice left are {dice}"),
               len(dice_left), move=written, distance=move.distance, dice=left)  # fmt: skip


def _why_step_illegal(board: int, move: Move, die: int, closed: int, mover: int) -> Clause:
    say = Clause.of
    k, j = move.from_point - 1, move.to_point - 1
    if not board >> (4 * k) & 15:
        return say(N_("you have no checker on {point}"), point=move.from_point)
    if under_postillon_rule(board) and k == 0 and board & 15 < CHECKERS:
        return say(N_("the postillon must reach the last quarter (19-24) before another "
                      "checker leaves the talon"))  # fmt: skip
    if j < OFF_INDEX:  # held by the other side: its name is a word, so one pattern each
        if mover == 0:
            return say(N_("{point} is held by black"), point=move.to_point)
        return say(N_("{point} is held by white"), point=move.to_point)
    if board & BELOW_HOME_MASK:
        return say(N_("you cannot bear off until all your checkers are in the last quarter "
                      "(19-24)"))  # fmt: skip
    rearmost = occupied(board)[0] + 1
    return say(N_("a {die} bears off from {point}; a larger die bears off only your rearmost "
                  "checker ({rearmost})"), die=die, point=25 - die, rearmost=rearmost)  # fmt: skip


def _why_not_best(
    legal_example: Play,
    used: tuple[int, ...],
    dice: tuple[int, int],
    high_playable: bool,
    bearoff: BearOff,
) -> Clause:
    """The play is made of legal steps but is not one RULES 2.5 allows."""
    say = Clause.of
    best = len(legal_example)
    high, low = max(dice), min(dice)
    if high == low and len(used) < best:
        if best > 1:  # no plural pair: "a 4" and "2 of your 4s" do not share their fields
            return say(N_("you must play {count} of your {die}s"), count=best, die=high)
        return say(N_("you must play a {die}"), die=high)
    if len(used) < best:
        if best == 2:
            return say(N_("you must use both dice"))
        return say(N_("you must play the {die}"), die=high if high_playable else low)
    if best == 1 and high != low and high_playable and used == (low,):
        return say(N_("you must play the {die}: when only one die can be played, the higher "
                      "one"), die=high)  # fmt: skip
    if bearoff == "trictrac":
        return say(N_("under the trictrac bear-off, bear off with a die larger than needed as "
                      "few times as you can"))  # fmt: skip
    return say(N_("that play is not one of the legal plays"))
