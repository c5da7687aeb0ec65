"""Playing a Goose game: start it, throw, miss turns — the checked public transitions.

>>> from engine.goose import GooseOptions
>>> state = new_game(GooseOptions(players=2), first=0)
>>> outcome = throw(state, (3, 3))
>>> outcome.state.squares, outcome.state.pot, [type(e).__name__ for e in outcome.events]
((12, 0), 9, ['Thrown', 'Moved', 'Bridge', 'Paid'])
>>> throw(outcome.state, (7, 1))
Traceback (most recent call last):
...
engine.errors.IllegalMoveError: a die shows 1 to 6, not 7
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from engine.awaiting import MissTurn, ThrowDice
from engine.clause import N_, Clause
from engine.errors import IllegalMoveError, InvalidOptionsError
from engine.goose import board
from engine.goose.lots import throw_lot
from engine.goose.options import GooseOptions
from engine.goose.state import FREE, GooseState, Outcome
from engine.goose.turns import skip_turn, take_throw

_WHY_MISSED = {
    "inn": "is at the inn (l'hôtellerie) and misses this turn",
    "well": "is held in the well (le puits) until another player's throw ends there",
    "prison": "is held in the prison (la prison) until another player's throw ends there",
}


def new_game(options: GooseOptions, *, first: int | None = None) -> GooseState:
    """Every player puts the ante in the pot and stands on square 0.

    With ``first=None`` the game opens with the lots (every seat throws, in seat order);
    with ``first=k`` seat *k* plays first without lots.
    """
    players = options.players
    if first is not None and not 0 <= first < players:
        raise InvalidOptionsError(Clause.of(N_("the first player must be a seat from 0 to "
                                               "{last}"), last=players - 1))  # fmt: skip
    return GooseState(
        options=options,
        phase="lots" if first is None else "play",
        squares=(board.START,) * players,
        status=(FREE,) * players,
        paid=(options.ante,) * players,
        payouts=(0,) * players,
        pot=options.ante * players,
        to_move=0 if first is None else first,
        turn_number=0,
        contenders=tuple(range(players)) if first is None else (),
        lot_points=(),
        winner=None,
        result=None,
    )


def throw(state: GooseState, dice: Sequence[int]) -> Outcome:
    """``state.to_move`` throws *dice* (two values 1-6): a lot, or a move in play.

    Raises :class:`IllegalMoveError` if the dice are not two faces of 1-6, if the player to
    move must miss his turn instead, or if the game is over.
    """
    checked = _check_dice(dice)
    awaiting = state.awaiting
    if isinstance(awaiting, ThrowDice):
        if state.phase == "lots":
            return throw_lot(state, checked)
        return take_throw(state, checked)
    if isinstance(awaiting, MissTurn):
        raise IllegalMoveError(
            f"seat {awaiting.seat} cannot throw: he {_WHY_MISSED[awaiting.reason]}"
        )
    raise IllegalMoveError(_game_over(state))


def miss_turn(state: GooseState) -> Outcome:
    """``state.to_move`` (at the inn, or held in the well or prison) misses his turn.

    An inn costs exactly one missed turn; the well and prison hold until a release.
    """
    awaiting = state.awaiting
    if isinstance(awaiting, MissTurn):
        return skip_turn(state)
    if isinstance(awaiting, ThrowDice):
        doing = "throw for the lots" if state.phase == "lots" else "throw"
        raise IllegalMoveError(
            f"seat {awaiting.seat} has no turn to miss: he is free and must {doing}"
        )
    raise IllegalMoveError(_game_over(state))


def play_out(state: GooseState, dice: Iterator[tuple[int, int]]) -> GooseState:
    """Play *state* on, taking missed turns and drawing each throw from *dice*, until the
    game ends or *dice* runs out; return the last state. (Simulations and benchmarks.)

    >>> from engine.goose import GooseOptions
    >>> final = play_out(new_game(GooseOptions(players=2), first=0), iter([(6, 3), (5, 4)]))
    >>> final.squares, final.awaiting
    ((26, 53), ThrowDice(seat=0, count=2))
    """
    while True:
        awaiting = state.awaiting
        if isinstance(awaiting, MissTurn):
            state = skip_turn(state).state
        elif isinstance(awaiting, ThrowDice):
            pair = next(dice, None)
            if pair is None:
                return state
            state = throw(state, pair).state
        else:
            return state


def _check_dice(dice: Sequence[int]) -> tuple[int, int]:
    if len(dice) != 2:
        raise IllegalMoveError(f"the Goose is thrown with two dice, not {len(dice)}")
    first, second = dice
    for die in (first, second):
        if type(die) is not int or not 1 <= die <= 6:
            raise IllegalMoveError(f"a die shows 1 to 6, not {die!r}")
    return (first, second)


def _game_over(state: GooseState) -> str:
    if state.result == "win":
        return f"the game is over: seat {state.winner} won the pot"
    return "the game is over: it is blocked, one player in the well and the other in the prison"
