"""Properties of every Goose game, over random options and dice sequences (hypothesis)."""

from __future__ import annotations

import random
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.awaiting import Finished, MissTurn, ThrowDice
from engine.canonical import state_hash
from engine.goose import (
    GOAL,
    START,
    GooseOptions,
    GooseState,
    Met,
    MissedTurn,
    Moved,
    Paid,
    Thrown,
    Won,
    miss_turn,
    new_game,
    play_out,
    throw,
)
from engine.goose.board import INN, PRISON, WELL

die = st.integers(min_value=1, max_value=6)


@st.composite
def long_throws(draw: st.DrawFn) -> list[tuple[int, int]]:
    """Enough seeded random throws to finish most games (hypothesis alone draws short lists)."""
    rng = random.Random(draw(st.integers(min_value=0, max_value=2**32 - 1)))
    length = draw(st.integers(min_value=0, max_value=1500))
    return [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(length)]


throws = st.one_of(st.lists(st.tuples(die, die), max_size=100), long_throws())
options = st.builds(
    GooseOptions,
    players=st.integers(min_value=2, max_value=15),
    rules=st.sampled_from(["daumont", "1792"]),
    ante=st.integers(min_value=0, max_value=6),
    fee=st.integers(min_value=0, max_value=3),
)
TRAP_SQUARES = {"well": WELL, "prison": PRISON}


def check_invariants(state: GooseState) -> None:
    options = state.options
    assert state.pot == sum(state.paid)
    assert all(START <= square <= GOAL for square in state.squares)
    assert all(paid >= options.ante for paid in state.paid)
    for trap, square in TRAP_SQUARES.items():
        held = [seat for seat, status in enumerate(state.status) if status == trap]
        assert len(held) <= 1, f"two seats held in the {trap}"
        on_square = [seat for seat, at in enumerate(state.squares) if at == square]
        assert held == on_square, f"only a held seat stands on the {trap}"
    for seat, status in enumerate(state.status):
        if status == "inn":
            assert state.squares[seat] == INN
    if options.rules == "daumont":
        on_board = [square for square in state.squares if START < square < GOAL]
        assert len(on_board) == len(set(on_board)), "Daumont: a square holds one player"
    if state.result == "win":
        assert state.winner is not None
        assert state.squares[state.winner] == GOAL
        assert sum(state.payouts) == state.pot == state.payouts[state.winner]
    elif state.result == "blocked":
        assert options.players == 2
        assert set(state.status) == {"well", "prison"}
        assert len(set(state.payouts)) == 1
        assert 0 <= state.pot - sum(state.payouts) < options.players
    else:
        assert state.payouts == (0,) * options.players
        assert GOAL not in state.squares


def play(options: GooseOptions, dice: list[tuple[int, int]], first: int | None) -> GooseState:
    """Play the dice through the checked API, checking every state and its events."""
    state = new_game(options, first=first)
    check_invariants(state)
    pending = iter(dice)
    while True:
        awaiting = state.awaiting
        if isinstance(awaiting, Finished):
            return state
        if isinstance(awaiting, MissTurn):
            outcome = miss_turn(state)
        else:
            assert isinstance(awaiting, ThrowDice)
            pair = next(pending, None)
            if pair is None:
                return state
            outcome = throw(state, pair)
        check_events(state, outcome.state, outcome.events)
        check_invariants(outcome.state)
        state = outcome.state


def check_events(before: GooseState, after: GooseState, events: tuple[object, ...]) -> None:
    """The events tell the whole story: payments add up, counts are walked square by square."""
    paid = [0] * before.options.players
    for event in events:
        if isinstance(event, Paid):
            paid[event.seat] += event.amount
        elif isinstance(event, Moved):
            steps = (event.start, *event.path)
            assert len(event.path) == event.point
            assert all(abs(b - a) == 1 for a, b in pairwise(steps))
            assert all(START <= square <= GOAL for square in steps)
            assert event.path[-1] == event.end
        elif isinstance(event, Won):
            assert event.pot == after.pot
        elif isinstance(event, Met):
            assert before.options.rules == "daumont"
    assert [b - a for a, b in zip(before.paid, after.paid, strict=True)] == paid
    movers = {event.seat for event in events if isinstance(event, Thrown)}
    assert len(movers) <= 1


@settings(max_examples=150, deadline=None)
@given(options=options, dice=throws, lots=st.booleans())
def test_every_game_keeps_the_invariants(
    options: GooseOptions, dice: list[tuple[int, int]], lots: bool
) -> None:
    play(options, dice, None if lots else 0)


@settings(max_examples=100, deadline=None)
@given(options=options, dice=throws)
def test_missed_turns_consume_no_dice(options: GooseOptions, dice: list[tuple[int, int]]) -> None:
    state = new_game(options, first=0)
    pending = iter(dice)
    used = missed = 0
    while isinstance(state.awaiting, MissTurn | ThrowDice):
        if isinstance(state.awaiting, MissTurn):
            outcome = miss_turn(state)
            assert [type(event) for event in outcome.events] == [MissedTurn]
            assert outcome.state.squares == state.squares
            missed += 1
        else:
            pair = next(pending, None)
            if pair is None:
                break
            used += 1
            outcome = throw(state, pair)
        state = outcome.state
    assert state.turn_number == used + missed
    if state.result is None:
        assert used == len(dice)


@settings(max_examples=100, deadline=None)
@given(options=options, dice=throws)
def test_same_dice_give_the_same_state_hash(
    options: GooseOptions, dice: list[tuple[int, int]]
) -> None:
    first = play_out(new_game(options, first=0), iter(dice))
    again = play_out(new_game(options, first=0), iter(list(dice)))
    assert first == again
    assert state_hash(first) == state_hash(again)


@settings(max_examples=60, deadline=None)
@given(options=options, dice=throws)
def test_play_out_agrees_with_throw_by_throw(
    options: GooseOptions, dice: list[tuple[int, int]]
) -> None:
    assert play_out(new_game(options), iter(dice)) == play(options, dice, None)
