"""The match flow: opening throws, turns, the end of each game and of the match.

Dice are inputs. Every transition returns an :class:`Outcome`: the new immutable
:class:`JacquetState` and the events that say what happened, in order. The state's
``awaiting`` says what it needs next (:mod:`engine.awaiting`).

>>> from engine.jacquet.notation import parse_play
>>> state = new_match(JacquetOptions())
>>> state.awaiting
ThrowDice(seat=0, count=2)
>>> state = throw(state, (2, 5)).state          # opening: white 2, black 5 — black starts
>>> state = throw(state, (6, 5)).state          # black's first turn
>>> state.awaiting
ChoosePlay(seat=1, dice=(6, 5))
>>> outcome = play(state, parse_play("1/6 6/12"))
>>> [type(event).__name__ for event in outcome.events]
['Moved', 'Moved']
>>> play(state, parse_play("1/7 1/6"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.IllegalMoveError: the postillon must reach the last quarter (19-24) ...
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, TypeAlias

from engine.awaiting import Awaiting, ChoosePlay, Finished, ThrowDice
from engine.canonical import Canonical
from engine.clause import N_, Clause
from engine.errors import IllegalMoveError, InvalidOptionsError
from engine.jacquet.bearoff import BearOff, check_bearoff
from engine.jacquet.events import (
    GameWon,
    JacquetEvent,
    MatchWon,
    Moved,
    OpeningThrown,
    Passed,
    PostillonBlocked,
    Rolled,
)
from engine.jacquet.explain import explain_illegal
from engine.jacquet.legal import (
    apply_play,
    blocked_postillon,
    check_dice,
    legal_play_results,
    legal_plays,
    must_pass,
)
from engine.jacquet.move import Play
from engine.jacquet.notation import format_dice
from engine.jacquet.position import BLACK, CHECKERS, SIDE_NAMES, WHITE, Position

Phase: TypeAlias = Literal["opening", "play", "over"]

BLOCKED_POSTILLON_POINTS = 4
MAX_MATCH_TO = 99
"""The longest match (in points): championship matches are played to 25 at most, and the
score is written in two digits. Bounded so that no score or game count outgrows the 64-bit
integers of the state hash (the arithmetic is in :mod:`protocol.bounds`)."""


@dataclass(frozen=True, slots=True)
class JacquetOptions:
    """A match's recorded settings: its length in points and the bear-off rule."""

    match_to: int = 1
    bearoff: BearOff = "backgammon"

    def __post_init__(self) -> None:
        if isinstance(self.match_to, bool) or not isinstance(self.match_to, int):
            raise InvalidOptionsError(Clause.of(N_("match_to is a whole number, not {value}"),
                                                value=repr(self.match_to)))  # fmt: skip
        if not 1 <= self.match_to <= MAX_MATCH_TO:
            raise InvalidOptionsError(Clause.of(N_("a match is played to 1 to {most} points, not "
                                                   "{points}"), most=MAX_MATCH_TO,
                                                points=self.match_to))  # fmt: skip
        check_bearoff(self.bearoff)

    def canonical(self) -> Canonical:
        return ("jacquet-options", self.match_to, self.bearoff)


@dataclass(frozen=True, slots=True)
class JacquetState:
    """A match in progress.

    ``phase`` is ``"opening"`` while the game's first player is being thrown for,
    ``"play"`` during the game, ``"over"`` once the match is won. ``dice`` is the throw
    waiting to be played (``None`` when the player to move must throw). ``game`` counts
    games from 1; ``score`` is (white, black); ``winner`` is the match winner.
    """

    options: JacquetOptions
    phase: Phase
    position: Position
    dice: tuple[int, int] | None
    score: tuple[int, int]
    game: int
    winner: int | None = None

    @property
    def awaiting(self) -> Awaiting:
        """What the match needs next. In the opening, ``ThrowDice(WHITE, 2)`` asks for
        the pair (white's die, black's die)."""
        if self.phase == "over":
            return Finished()
        if self.phase == "opening":
            return ThrowDice(WHITE, 2)
        if self.dice is None:
            return ThrowDice(self.position.turn, 2)
        return ChoosePlay(self.position.turn, self.dice)

    def legal_plays(self) -> tuple[Play, ...]:
        """The plays open to the player to move (empty unless a throw awaits a play)."""
        if self.phase != "play" or self.dice is None:
            return ()
        return legal_plays(self.position, self.dice, self.options.bearoff)

    def canonical(self) -> Canonical:
        return (
            "jacquet-state",
            self.options.canonical(),
            self.phase,
            self.game,
            self.score,
            self.position.canonical(),
            self.dice,
            self.winner,
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    """A transition's result: the new state and what happened, in order."""

    state: JacquetState
    events: tuple[JacquetEvent, ...]


def new_match(options: JacquetOptions) -> JacquetState:
    """A match about to begin with the first game's opening throw."""
    return JacquetState(options, "opening", Position.initial(), None, (0, 0), 1)


def win_multiplier(position: Position, loser: int) -> int:
    """1-4 by where the loser's rearmost checker stands on his own track (RULES 2.7)."""
    rearmost = position.rearmost(loser)
    if rearmost is None or rearmost >= 19:
        return 1
    return 4 - (rearmost - 1) // 6


def throw(state: JacquetState, dice: tuple[int, int]) -> Outcome:
    """Feed a throw: the opening pair (white's die, black's die) or a turn's two dice.

    A turn that cannot play anything passes at once (:class:`Passed`).
    """
    check_dice(dice)
    if state.phase == "over":
        raise IllegalMoveError("the match is over")
    if state.phase == "opening":
        white_die, black_die = dice
        if white_die == black_die:
            return Outcome(state, (OpeningThrown(state.game, white_die, black_die, None),))
        starter = WHITE if white_die > black_die else BLACK
        opened = replace(state, phase="play", position=Position.initial(starter))
        return Outcome(opened, (OpeningThrown(state.game, white_die, black_die, starter),))
    seat = state.position.turn
    if state.dice is not None:
        raise IllegalMoveError(
            f"{SIDE_NAMES[seat]} must first play the {format_dice(state.dice)} already thrown"
        )
    rolled = Rolled(seat, dice)
    if must_pass(state.position, dice):
        passed = apply_play(state.position, ())
        return _begin_turn(replace(state, position=passed), (rolled, Passed(seat, dice)))
    return Outcome(replace(state, dice=dice), (rolled,))


def play(state: JacquetState, chosen: Play) -> Outcome:
    """Play *chosen* for the throw waiting; :class:`IllegalMoveError` says why not."""
    if state.phase != "play" or state.dice is None:
        raise IllegalMoveError("no throw is waiting to be played")
    position, dice, bearoff = state.position, state.dice, state.options.bearoff
    listed = dict(legal_play_results(position, dice, bearoff))
    if chosen in listed:
        after = listed[chosen]
    else:  # another order of a listed play, or illegal: explain_illegal decides
        reason = explain_illegal(position, dice, chosen, bearoff)
        if reason is not None:
            raise IllegalMoveError(reason)
        after = apply_play(position, chosen)
    seat = position.turn
    events: tuple[JacquetEvent, ...] = tuple(Moved(seat, move, move.is_bear_off) for move in chosen)
    moved = replace(state, position=after, dice=None)
    if after.borne_off(seat) == CHECKERS:
        multiplier = win_multiplier(after, 1 - seat)
        return _end_game(moved, seat, multiplier, events, blocked=False)
    return _begin_turn(moved, events)


def _begin_turn(state: JacquetState, events: tuple[JacquetEvent, ...]) -> Outcome:
    """A turn is about to begin: end the game if the player to move is blocked."""
    if blocked_postillon(state.position):
        winner = 1 - state.position.turn
        return _end_game(state, winner, BLOCKED_POSTILLON_POINTS, events, blocked=True)
    return Outcome(state, events)


def _end_game(
    state: JacquetState,
    winner: int,
    points: int,
    events: tuple[JacquetEvent, ...],
    *,
    blocked: bool,
) -> Outcome:
    score = (
        (state.score[0] + points, state.score[1])
        if winner == WHITE
        else (state.score[0], state.score[1] + points)
    )
    ended: JacquetEvent = (
        PostillonBlocked(1 - winner, winner, points, score)
        if blocked
        else GameWon(winner, points, points, score)
    )
    events = (*events, ended)
    if score[winner] >= state.options.match_to:
        over = replace(state, phase="over", dice=None, score=score, winner=winner)
        return Outcome(over, (*events, MatchWon(winner, score)))
    next_game = JacquetState(
        state.options, "opening", Position.initial(), None, score, state.game + 1
    )
    return Outcome(next_game, events)
