"""The turn a person is entering on the Jacquet screen: what may come next, and why not.

Legality comes from the engine alone. ``legal_play_results`` lists the positions a legal play
may end on; ``successors`` is the engine's rule for one die's step (closed points, the
postillon rule before each die, bearing off); ``explain_illegal`` words a refusal. A partial
turn is allowed exactly when it is made of steps the engine allows and can still end on one
of the legal positions. Matching by the positions reached (not by the engine's listed move
order) accepts every order of a legal play - 1/6 6/12 as well as 1/7 7/12 - while an order
the rules forbid (a talon checker before the postillon is home) is refused with the
engine's reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.i18n import _, ngettext, say
from engine.errors import IllegalMoveError
from engine.jacquet import OFF, Move, Play, Position, explain_illegal
from engine.jacquet.bearoff import BearOff
from engine.jacquet.legal import legal_play_results, successors
from engine.jacquet.notation import Span, format_dice, format_move, format_span
from engine.jacquet.position import UNIT, closed_mask


@dataclass(frozen=True, slots=True)
class Step:
    """One entered move and the die it used (a bear-off may use a larger die)."""

    move: Move
    die: int


def _without(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    rest = list(dice)
    rest.remove(die)
    return tuple(rest)


class TurnEntry:
    """The moves entered so far for one throw, checked step by step against the engine."""

    def __init__(self, position: Position, dice: tuple[int, int], bearoff: BearOff) -> None:
        self.position = position
        self.dice = dice
        self.bearoff = bearoff
        self.mover = position.turn
        results = legal_play_results(position, dice, bearoff)
        self._targets = frozenset(after.boards[self.mover] for _play, after in results)
        self._closed = closed_mask(position.boards[1 - self.mover])
        self.all_dice: tuple[int, ...] = (dice[0],) * 4 if dice[0] == dice[1] else dice
        self.forced_pass = all(not play for play, _after in results)
        self.steps: list[Step] = []
        self._finishable: dict[tuple[int, tuple[int, ...]], bool] = {}

    # -- where the turn stands ------------------------------------------------------------

    @property
    def board(self) -> int:
        board = self.position.boards[self.mover]
        for step in self.steps:
            board += UNIT[step.move.to_point - 1] - UNIT[step.move.from_point - 1]
        return board

    @property
    def current(self) -> Position:
        """The position with the entered moves made, still the mover's turn."""
        boards = list(self.position.boards)
        boards[self.mover] = self.board
        return Position(self.mover, (boards[0], boards[1]))

    @property
    def dice_left(self) -> tuple[int, ...]:
        left = self.all_dice
        for step in self.steps:
            left = _without(left, step.die)
        return left

    @property
    def spent(self) -> tuple[bool, ...]:
        """For each of ``all_dice``, whether an entered move used it."""
        used = [step.die for step in self.steps]
        flags = []
        for die in self.all_dice:
            flags.append(die in used)
            if die in used:
                used.remove(die)
        return tuple(flags)

    @property
    def complete(self) -> bool:
        """The moves entered make a legal play (all a legal play uses, or a forced pass)."""
        return self.board in self._targets

    @property
    def play(self) -> Play:
        return tuple(step.move for step in self.steps)

    # -- what may come next ---------------------------------------------------------------

    def _can_finish(self, board: int, dice_left: tuple[int, ...]) -> bool:
        key = (board, dice_left)
        known = self._finishable.get(key)
        if known is None:
            known = board in self._targets or any(True for _ in self._steps_from(board, dice_left))
            self._finishable[key] = known
        return known

    def _steps_from(self, board: int, dice_left: tuple[int, ...]) -> list[tuple[Step, int]]:
        """Allowed next steps (with the board each leads to), the smallest die first."""
        found: dict[Move, tuple[Step, int]] = {}
        for die in sorted(set(dice_left)):
            rest = _without(dice_left, die)
            for k, j in successors(board, die, self._closed):
                move = Move(k + 1, j + 1)
                after = board + UNIT[j] - UNIT[k]
                if move not in found and self._can_finish(after, rest):
                    found[move] = (Step(move, die), after)
        return list(found.values())

    def next_steps(self) -> list[Step]:
        return [step for step, _after in self._steps_from(self.board, self.dice_left)]

    def sources(self) -> frozenset[int]:
        """Points a checker may move from now."""
        return frozenset(step.move.from_point for step in self.next_steps())

    def destinations(self, source: int) -> dict[int, tuple[Step, ...]]:
        """Where the checker on *source* may go now, by one die or several in a row.

        Each destination maps to the steps that take it there (fewest steps first found).
        """
        paths: dict[int, tuple[Step, ...]] = {}
        frontier: list[tuple[int, tuple[int, ...], int, tuple[Step, ...]]] = [
            (self.board, self.dice_left, source, ())
        ]
        while frontier:
            board, dice_left, at, path = frontier.pop(0)
            for step, after in self._steps_from(board, dice_left):
                if step.move.from_point != at or step.move.to_point in paths:
                    continue
                walked = (*path, step)
                paths[step.move.to_point] = walked
                if step.move.to_point != OFF:
                    frontier.append(
                        (after, _without(dice_left, step.die), step.move.to_point, walked)
                    )
        return paths

    # -- entering and undoing -------------------------------------------------------------

    def enter(self, steps: tuple[Step, ...]) -> None:
        """Add steps obtained from :meth:`destinations` (so already known to be allowed)."""
        self.steps.extend(steps)

    def undo(self) -> Step | None:
        return self.steps.pop() if self.steps else None

    def enter_typed(self, spans: tuple[Span, ...]) -> str | None:
        """Enter a typed play (:func:`~engine.jacquet.notation.parse_spans`: ``1/7 7/12``, or
        ``1/12`` over both dice) as if each checker were picked and dropped on the board;
        ``None``, or the first refusal in the board's own words with nothing of it entered.
        """
        if not spans:
            if self.complete and not self.steps:
                return None
            return _("{play}: {reason}").format(play="-", reason=self._engine_reason(()))
        entered = len(self.steps)
        for span in spans:
            source, target = span
            if self.steps and self.complete and not self.next_steps():
                # Not the board's "press enter to play it, or u to take a move back": in the
                # line, enter and u are the text's; say what to strike out of it.
                refusal = _("{play} is one move too many: the dice {dice} are used by {used}")
                used = describe_steps(tuple(self.steps))
                del self.steps[entered:]
                return refusal.format(play=format_span(span), dice=format_dice(self.dice),
                                      used=used)  # fmt: skip
            paths = self.destinations(source) if source in self.sources() else {}
            if target in paths:
                self.enter(paths[target])
                continue
            reason = (
                self.refuse_destination(source, target) if paths else self.refuse_source(source)
            )
            del self.steps[entered:]
            return _("{play}: {reason}").format(play=format_span(span), reason=reason)
        return None

    def completes(self, spans: tuple[Span, ...]) -> bool:
        """Whether typing *spans* after the moves entered makes the play whole (nothing of
        them is kept: the line is still being typed).

        >>> from engine.jacquet import JacquetOptions, new_match
        >>> from engine.jacquet.notation import parse_spans
        >>> entry = TurnEntry(new_match(JacquetOptions()).position, (5, 6), "backgammon")
        >>> entry.completes(parse_spans("1/6")), entry.completes(parse_spans("1/6 6/12"))
        (False, True)
        >>> entry.steps
        []
        """
        entered = len(self.steps)
        try:
            return self.enter_typed(spans) is None and self.complete
        finally:
            del self.steps[entered:]

    # -- why not --------------------------------------------------------------------------

    def _engine_reason(self, moves: tuple[Move, ...]) -> str:
        why = explain_illegal(self.position, self.dice, (*self.play, *moves), self.bearoff)
        return _("that move is not part of a legal play") if why is None else say(why)

    def refuse_source(self, point: int) -> str:
        """Why the checker on *point* cannot be picked now (call when it is not a source)."""
        if point == OFF:
            return _("pick one of your checkers first, then where it goes")
        current = self.current
        if not current.count(self.mover, point):
            if current.is_closed(self.mover, point):
                held = (_("{point} is held by black: pick one of your white checkers")
                        if self.mover == 0
                        else _("{point} is held by white: pick one of your black checkers"))
                return held.format(point=point)
            return _("you have no checker on {point}").format(point=point)
        if self.complete and not self.next_steps():
            return _("your play is complete: press enter to play it, or u to take a move back")
        reasons = []
        for die in sorted(set(self.dice_left), reverse=True):
            target = point + die if point + die <= 24 else OFF
            try:
                move = Move(point, target)
            except IllegalMoveError as error:
                reasons.append(say(error.reason))
                continue
            reasons.append(self._engine_reason((move,)))
        if not reasons:
            return _("no dice are left")
        return _("no legal move from {point}: {reason}").format(point=point, reason=reasons[0])

    def refuse_destination(self, source: int, target: int) -> str:
        """Why the checker on *source* cannot go to *target* now."""
        if target != OFF and target < source:
            return _("checkers only move forward: {point} toward 24, then off").format(point=source)
        distance = target - source
        dice_left = self.dice_left
        if target == OFF and source < 19:
            return _("checkers bear off only from the last quarter (19-24)")
        if target == OFF or distance in dice_left:
            return self._engine_reason((Move(source, target),))
        for first in sorted(set(dice_left), reverse=True):
            second = distance - first
            if second in _without(dice_left, first) and source + first <= 24:
                middle = source + first
                return self._engine_reason((Move(source, middle), Move(middle, target)))
        left = _(" and ").join(str(die) for die in dice_left) or _("none")
        return ngettext(
            "{source} to {target} is {distance} point; the dice left are {dice}",
            "{source} to {target} is {distance} points; the dice left are {dice}",
            distance,
        ).format(source=source, target=target, distance=distance, dice=left)


def describe_steps(steps: tuple[Step, ...]) -> str:
    return " ".join(format_move(step.move) for step in steps)
