"""The Goose rules of docs/rules.md §1, one test per rule, and every Goose worked example of §3."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.awaiting import Finished, MissTurn, ThrowDice
from engine.errors import IllegalMoveError, InvalidOptionsError
from engine.goose import (
    Blocked,
    Bounced,
    Bridge,
    Death,
    GooseOptions,
    GooseRepeat,
    GooseState,
    Held,
    Inn,
    Labyrinth,
    LotThrown,
    LotTied,
    Met,
    MissedTurn,
    Moved,
    OpeningNine,
    OrderDecided,
    Paid,
    Prison,
    Released,
    SeatStatus,
    Thrown,
    Well,
    Won,
    miss_turn,
    new_game,
    throw,
)


def arrange(
    squares: tuple[int, ...],
    *,
    rules: str = "daumont",
    to_move: int = 0,
    status: tuple[SeatStatus, ...] | None = None,
    fee: int = 1,
    paid: tuple[int, ...] | None = None,
) -> GooseState:
    """A game in play with the seats on *squares* (the way a test sets up a position)."""
    players = len(squares)
    state = new_game(GooseOptions(players, rules, fee=fee), first=to_move)  # type: ignore[arg-type]
    paid = paid or state.paid
    return replace(
        state,
        squares=squares,
        status=status or ("free",) * players,
        paid=paid,
        pot=sum(paid),
    )


def ends(state: GooseState, dice: tuple[int, int]) -> tuple[int, ...]:
    return throw(state, dice).state.squares


# --- RULES §3, the worked examples -------------------------------------------------------


def test_goose_repeats_while_it_ends_on_geese_10_plus_4_to_22() -> None:
    outcome = throw(arrange((10, 0)), (2, 2))
    assert outcome.state.squares == (22, 0)
    assert outcome.events == (
        Thrown(0, (2, 2), 4),
        Moved(0, 10, 14, 4, (11, 12, 13, 14)),
        GooseRepeat(0, 14, 4, True),
        Moved(0, 14, 18, 4, (15, 16, 17, 18)),
        GooseRepeat(0, 18, 4, True),
        Moved(0, 18, 22, 4, (19, 20, 21, 22)),
    )
    assert outcome.state.pot == 8


def test_exact_finish_counts_back_from_63_57_plus_9_to_60() -> None:
    outcome = throw(arrange((57, 0)), (5, 4))
    assert outcome.state.squares == (60, 0)
    assert outcome.events[1:] == (
        Moved(0, 57, 60, 9, (58, 59, 60, 61, 62, 63, 62, 61, 60)),
        Bounced(0, 3, 60),
    )


def test_goose_after_bounce_counts_backward_60_plus_7_to_prison() -> None:
    outcome = throw(arrange((60, 0)), (4, 3))
    assert outcome.state.squares == (52, 0)
    assert outcome.events[1:] == (
        Moved(0, 60, 59, 7, (61, 62, 63, 62, 61, 60, 59)),
        Bounced(0, 4, 59),
        GooseRepeat(0, 59, 7, False),
        Moved(0, 59, 52, 7, (58, 57, 56, 55, 54, 53, 52)),
        Prison(0),
        Paid(0, 1, "prison"),
        Held(0, "prison", 52),
    )
    assert outcome.state.paid == (5, 4)
    assert outcome.state.pot == 9
    assert outcome.state.status == ("prison", "free")


@pytest.mark.parametrize(
    ("dice", "square"), [((6, 3), 26), ((3, 6), 26), ((5, 4), 53), ((4, 5), 53)]
)
def test_opening_nine_from_square_0_goes_to_the_dice_square(
    dice: tuple[int, int], square: int
) -> None:
    outcome = throw(arrange((0, 0)), dice)
    assert outcome.state.squares == (square, 0)
    assert outcome.events == (Thrown(0, dice, 9), OpeningNine(0, dice, square))


def test_opening_3_3_lands_on_the_bridge_pays_and_crosses_to_12() -> None:
    outcome = throw(arrange((0, 0)), (3, 3))
    assert outcome.state.squares == (12, 0)
    assert outcome.events[2:] == (Bridge(0), Paid(0, 1, "bridge"))
    assert (Bridge.SQUARE, Bridge.NAME, Bridge(0).to_square) == (6, "le pont", 12)
    assert outcome.state.paid == (5, 4)


def test_inn_with_two_players_the_other_throws_twice_before_the_next_throw() -> None:
    state = arrange((12, 30))
    outcome = throw(state, (4, 3))
    assert outcome.state.squares == (19, 30)
    assert outcome.events[2:] == (Inn(0), Paid(0, 1, "inn"))
    state = outcome.state
    assert state.awaiting == ThrowDice(1, 2)
    state = throw(state, (1, 2)).state
    assert state.awaiting == MissTurn(0, "inn")
    outcome = miss_turn(state)
    assert outcome.events == (MissedTurn(0, "inn"),)
    state = outcome.state
    assert state.awaiting == ThrowDice(1, 2)
    state = throw(state, (1, 1)).state
    assert state.awaiting == ThrowDice(0, 2)
    assert state.squares == (19, 35)


def test_on_57_throw_3_3_reaches_63_and_wins_the_pot() -> None:
    outcome = throw(arrange((57, 20), paid=(6, 5)), (3, 3))
    state = outcome.state
    assert outcome.events[-1] == Won(0, 11)
    assert (state.result, state.winner, state.squares) == ("win", 0, (63, 20))
    assert state.payouts == (11, 0)
    assert state.balances == (5, -5)
    assert state.awaiting == Finished()


# --- 1.4 the throw ---------------------------------------------------------------------------


def test_repeated_forward_goose_count_that_passes_63_bounces_and_continues_backward() -> None:
    outcome = throw(arrange((51, 0)), (5, 3))
    assert outcome.state.squares == (51, 0)
    assert outcome.events[1:] == (
        Moved(0, 51, 59, 8, (52, 53, 54, 55, 56, 57, 58, 59)),
        GooseRepeat(0, 59, 8, True),
        Moved(0, 59, 59, 8, (60, 61, 62, 63, 62, 61, 60, 59)),
        Bounced(0, 4, 59),
        GooseRepeat(0, 59, 8, False),
        Moved(0, 59, 51, 8, (58, 57, 56, 55, 54, 53, 52, 51)),
    )


def test_a_goose_chain_reaching_63_exactly_wins() -> None:
    outcome = throw(arrange((45, 0)), (5, 4))
    assert outcome.state.winner == 0
    assert [type(event) for event in outcome.events] == [
        Thrown,
        Moved,
        GooseRepeat,
        Moved,
        Won,
    ]


def test_opening_nine_holds_for_every_throw_from_square_0_even_after_death() -> None:
    state = throw(arrange((51, 0)), (4, 3)).state
    assert state.squares == (0, 0)
    state = throw(state, (2, 1)).state
    assert ends(state, (6, 3)) == (26, 3)


def test_a_nine_away_from_square_0_is_an_ordinary_count() -> None:
    assert ends(arrange((1, 0)), (6, 3)) == (10, 0)


def test_a_transfer_does_not_chain_into_another_hazard() -> None:
    # Bridge to 12, labyrinth to 30, death to 0: each rests where the transfer puts it.
    assert ends(arrange((38, 0)), (2, 2)) == (30, 0)
    outcome = throw(arrange((38, 0)), (2, 2))
    assert outcome.events[-2:] == (Labyrinth(0), Paid(0, 1, "labyrinth"))


def test_a_hazard_with_a_fee_of_zero_costs_nothing_and_reports_no_payment() -> None:
    outcome = throw(arrange((0, 0), fee=0), (3, 3))
    assert outcome.state.squares == (12, 0)
    assert outcome.state.pot == 8
    assert not any(isinstance(event, Paid) for event in outcome.events)


# --- 1.5 hazards -----------------------------------------------------------------------------


def test_death_sends_back_to_square_0_and_pays() -> None:
    outcome = throw(arrange((51, 0)), (4, 3))
    assert outcome.events[2:] == (Death(0), Paid(0, 1, "death"))
    assert outcome.state.squares == (0, 0)
    assert (Death.NAME, Labyrinth.NAME, Inn.NAME) == ("la mort", "le labyrinthe", "l'hôtellerie")


def test_well_holds_until_another_throw_ends_there_and_frees_to_its_start_square() -> None:
    state = throw(arrange((27, 20, 40)), (2, 2)).state
    assert state.status == ("well", "free", "free")
    for held_turn in range(3):
        state = throw(state, (1, 1)).state  # seat 1
        state = throw(state, (1, 2)).state  # seat 2
        assert state.awaiting == MissTurn(0, "well"), held_turn
        outcome = miss_turn(state)
        assert outcome.events == (MissedTurn(0, "well"),)
        assert outcome.state.squares[0] == 31
        state = outcome.state
    assert state.squares == (31, 26, 49)
    outcome = throw(state, (3, 2))  # seat 1: 26 + 5 = 31
    assert outcome.events[2:] == (
        Well(1),
        Paid(1, 1, "well"),
        Released(0, "well", 1, 26),
        Held(1, "well", 31),
    )
    assert outcome.state.squares == (26, 31, 49)
    assert outcome.state.status == ("free", "well", "free")
    assert outcome.state.paid == (5, 5, 4)


def test_prison_frees_its_occupant_exactly_as_the_well() -> None:
    state = arrange((52, 47, 0), status=("prison", "free", "free"), to_move=1)
    outcome = throw(state, (3, 2))
    assert outcome.events[2:] == (
        Prison(1),
        Paid(1, 1, "prison"),
        Released(0, "prison", 1, 47),
        Held(1, "prison", 52),
    )
    assert outcome.state.squares == (47, 52, 0)
    assert outcome.state.awaiting == ThrowDice(2, 2)


def test_a_freed_player_is_placed_his_new_square_has_no_effect() -> None:
    # Seat 1 leaves the inn by a goose chain to the well (19 → 23 → 27 → 31): seat 0, freed,
    # is placed on the inn square but does not stop there, pays nothing, and is met by no one.
    state = arrange((31, 19), status=("well", "free"), to_move=1)
    outcome = throw(state, (2, 2))
    assert outcome.state.squares == (19, 31)
    assert outcome.state.status == ("free", "well")
    assert outcome.state.paid == (4, 5)
    assert outcome.state.awaiting == ThrowDice(0, 2)


def test_inn_with_three_players_each_other_plays_twice_then_the_innkeeper_throws() -> None:
    state = throw(arrange((12, 1, 2)), (4, 3)).state
    throwers = []
    while not isinstance(state.awaiting, ThrowDice) or state.awaiting.seat != 0:
        awaiting = state.awaiting
        if isinstance(awaiting, MissTurn):
            state = miss_turn(state).state
        else:
            assert isinstance(awaiting, ThrowDice)
            throwers.append(awaiting.seat)
            state = throw(state, (1, 2)).state
    assert throwers == [1, 2, 1, 2]
    assert state.status == ("free", "free", "free")


# --- 1.6 meetings ---------------------------------------------------------------------------


def test_daumont_meeting_the_occupant_pays_and_takes_the_arrivers_start_square() -> None:
    outcome = throw(arrange((10, 17)), (4, 3))
    assert outcome.events[2:] == (Met(0, 1, 17, 10, False), Paid(1, 1, "met"))
    assert outcome.state.squares == (17, 10)
    assert outcome.state.paid == (4, 5)


def test_1792_meeting_shares_the_square_and_costs_nothing() -> None:
    outcome = throw(arrange((10, 17), rules="1792"), (4, 3))
    assert outcome.state.squares == (17, 17)
    assert outcome.state.paid == (4, 4)
    assert len(outcome.events) == 2


def test_daumont_meeting_is_checked_after_the_bridge_transfer() -> None:
    outcome = throw(arrange((0, 12)), (3, 3))
    assert outcome.events[2:] == (
        Bridge(0),
        Paid(0, 1, "bridge"),
        Met(0, 1, 12, 0, False),
        Paid(1, 1, "met"),
    )
    assert outcome.state.squares == (12, 0)


def test_daumont_no_meeting_on_square_0() -> None:
    outcome = throw(arrange((51, 0)), (4, 3))
    assert outcome.state.squares == (0, 0)
    assert not any(isinstance(event, Met) for event in outcome.events)
    assert outcome.state.paid == (5, 4)


def test_daumont_player_met_at_the_inn_no_longer_misses_his_turn() -> None:
    state = arrange((12, 19, 3), status=("free", "inn", "free"))
    outcome = throw(state, (4, 3))
    assert outcome.events[2:] == (
        Inn(0),
        Paid(0, 1, "inn"),
        Met(0, 1, 19, 12, True),
        Paid(1, 1, "met"),
    )
    assert outcome.state.status == ("inn", "free", "free")
    assert outcome.state.awaiting == ThrowDice(1, 2)


def test_1792_two_players_at_the_inn_both_miss_a_turn() -> None:
    state = arrange((12, 19, 3), status=("free", "inn", "free"), rules="1792")
    state = throw(state, (4, 3)).state
    assert state.status == ("inn", "inn", "free")
    assert state.awaiting == MissTurn(1, "inn")


@pytest.mark.parametrize("rules", ["daumont", "1792"])
def test_well_keeps_its_own_rule_instead_of_a_meeting(rules: str) -> None:
    state = arrange((31, 27), status=("well", "free"), to_move=1, rules=rules)
    outcome = throw(state, (2, 2))
    assert not any(isinstance(event, Met) for event in outcome.events)
    assert outcome.state.squares == (27, 31)
    assert outcome.state.paid == (4, 5)


# --- 1.3 lots -------------------------------------------------------------------------------


def test_lots_highest_point_plays_first_then_round_the_seats() -> None:
    state = new_game(GooseOptions(players=3))
    assert state.phase == "lots"
    assert state.awaiting == ThrowDice(0, 2)
    state = throw(state, (2, 3)).state
    state = throw(state, (6, 4)).state
    outcome = throw(state, (1, 1))
    assert outcome.events == (LotThrown(2, (1, 1), 2), OrderDecided(1))
    state = outcome.state
    assert (state.phase, state.squares, state.pot, state.turn_number) == ("play", (0, 0, 0), 12, 0)
    seats = []
    for _ in range(4):
        awaiting = state.awaiting
        assert isinstance(awaiting, ThrowDice)
        seats.append(awaiting.seat)
        state = throw(state, (1, 2)).state
    assert seats == [1, 2, 0, 1]


def test_lots_ties_throw_again_among_the_tied_only() -> None:
    state = new_game(GooseOptions(players=4))
    for dice in ((6, 6), (3, 2), (5, 1), (6, 6)):
        outcome = throw(state, dice)
        state = outcome.state
    assert outcome.events[-1] == LotTied((0, 3), 12)
    assert state.awaiting == ThrowDice(0, 2)
    state = throw(state, (4, 4)).state
    assert state.awaiting == ThrowDice(3, 2)
    outcome = throw(state, (4, 4))
    assert outcome.events[-1] == LotTied((0, 3), 8)
    state = throw(throw(outcome.state, (1, 1)).state, (2, 1)).state
    assert (state.phase, state.to_move, state.squares) == ("play", 3, (0, 0, 0, 0))


def test_miss_turn_during_the_lots_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="free and must throw for the lots"):
        miss_turn(new_game(GooseOptions(players=2)))


# --- 1.7 the blocked game -------------------------------------------------------------------


def test_blocked_two_player_game_shares_the_pot_and_leaves_the_remainder() -> None:
    state = arrange((47, 31), status=("free", "well"), paid=(5, 5))
    outcome = throw(state, (3, 2))
    assert outcome.events[-2:] == (Held(0, "prison", 52), Blocked((5, 5), 1))
    state = outcome.state
    assert (state.result, state.winner, state.phase) == ("blocked", None, "over")
    assert (state.pot, state.payouts, state.squares) == (11, (5, 5), (52, 31))
    assert state.awaiting == Finished()
    with pytest.raises(IllegalMoveError, match="blocked"):
        throw(state, (1, 1))
    with pytest.raises(IllegalMoveError, match="blocked"):
        miss_turn(state)


def test_three_players_with_both_traps_held_play_on() -> None:
    state = arrange((47, 31, 3), status=("free", "well", "free"))
    state = throw(state, (3, 2)).state
    assert state.result is None
    assert state.awaiting == MissTurn(1, "well")
    assert miss_turn(state).state.awaiting == ThrowDice(2, 2)


# --- invalid input --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ((0, 3), "a die shows 1 to 6, not 0"),
        ((7, 1), "a die shows 1 to 6, not 7"),
        ((1, 2, 3), "two dice, not 3"),
    ],
)
def test_dice_outside_1_to_6_are_refused(dice: tuple[int, ...], message: str) -> None:
    state = arrange((0, 0))
    with pytest.raises(IllegalMoveError, match=message):
        throw(state, dice)


def test_throwing_for_a_held_player_is_refused_with_the_reason() -> None:
    state = arrange((31, 0), status=("well", "free"))
    with pytest.raises(IllegalMoveError, match="seat 0 cannot throw: he is held in the well"):
        throw(state, (1, 1))


def test_throwing_after_a_win_is_refused() -> None:
    state = throw(arrange((57, 0)), (3, 3)).state
    with pytest.raises(IllegalMoveError, match="the game is over: seat 0 won the pot"):
        throw(state, (1, 1))


def test_missing_the_turn_of_a_free_player_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="seat 0 has no turn to miss"):
        miss_turn(arrange((0, 0)))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 1}, "2 to 15 players, not 1"),
        ({"players": 16}, "2 to 15 players, not 16"),
        ({"players": 2, "rules": "1793"}, "unknown rule set '1793'"),
        ({"players": 2, "ante": -1}, "ante cannot be negative"),
        ({"players": 2, "fee": -1}, "fee cannot be negative"),
        ({"players": 2.0}, "players must be a whole number"),
    ],
)
def test_invalid_options_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptionsError, match=message):
        GooseOptions(**kwargs)  # type: ignore[arg-type]


def test_first_player_must_be_a_seat() -> None:
    with pytest.raises(InvalidOptionsError, match="seat from 0 to 2"):
        new_game(GooseOptions(players=3), first=3)


def test_engine_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        throw(arrange((0, 0)), (9, 9))
