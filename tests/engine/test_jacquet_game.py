"""The Jacquet match flow: opening, turns, passes, game ends, scoring, match to N, hashes."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.awaiting import ChoosePlay, Finished, ThrowDice
from engine.canonical import state_hash
from engine.errors import IllegalMoveError, InvalidOptionsError
from engine.jacquet import (
    BLACK,
    OFF,
    WHITE,
    GameWon,
    JacquetOptions,
    JacquetState,
    MatchWon,
    Move,
    Moved,
    OpeningThrown,
    Passed,
    Position,
    PostillonBlocked,
    Rolled,
    new_match,
    parse_play,
    play,
    throw,
)

ROOT = Path(__file__).resolve().parents[2]


def playing(position: Position, dice: tuple[int, int] | None, match_to: int = 1) -> JacquetState:
    """A state in the middle of a game of a fresh match."""
    return JacquetState(JacquetOptions(match_to=match_to), "play", position, dice, (0, 0), 1)


def test_opening_tie_throws_again() -> None:
    state = new_match(JacquetOptions())
    outcome = throw(state, (4, 4))
    assert outcome.events == (OpeningThrown(1, 4, 4, None),)
    assert outcome.state == state
    assert outcome.state.awaiting == ThrowDice(WHITE, 2)


def test_opening_winner_throws_both_dice_for_his_first_turn() -> None:
    outcome = throw(new_match(JacquetOptions()), (2, 5))
    assert outcome.events == (OpeningThrown(1, 2, 5, BLACK),)
    assert outcome.state.awaiting == ThrowDice(BLACK, 2)
    rolled = throw(outcome.state, (6, 5))
    assert rolled.events == (Rolled(BLACK, (6, 5)),)
    assert rolled.state.awaiting == ChoosePlay(BLACK, (6, 5))
    assert rolled.state.legal_plays() == (parse_play("1/7 7/12"),)


def test_a_roll_with_nothing_to_play_passes_and_the_dice_are_lost() -> None:
    # Black holds his 14 and 19: white's 2 and 7. White's postillon cannot move with 1-1.
    position = Position.from_points(WHITE, {1: 15}, {14: 1, 19: 1, 1: 13})
    outcome = throw(playing(position, None), (1, 1))
    assert outcome.events == (Rolled(WHITE, (1, 1)), Passed(WHITE, (1, 1)))
    assert outcome.state.position == Position(BLACK, position.boards)
    assert outcome.state.awaiting == ThrowDice(BLACK, 2)


def test_illegal_play_is_refused_with_a_reason_and_changes_nothing() -> None:
    state = throw(throw(new_match(JacquetOptions()), (5, 2)).state, (4, 4)).state
    with pytest.raises(IllegalMoveError, match="13 is held by black"):
        play(state, parse_play("1/5 5/9 9/13"))
    assert state.awaiting == ChoosePlay(WHITE, (4, 4))


def test_each_checker_move_is_an_event_with_its_bear_off_flag() -> None:
    position = Position.from_points(WHITE, {20: 1, 24: 2}, {1: 15})
    outcome = play(playing(position, (5, 1)), parse_play("20/off 24/off"))
    assert outcome.events[:2] == (
        Moved(WHITE, Move(20, OFF), True),
        Moved(WHITE, Move(24, OFF), True),
    )


@pytest.mark.parametrize(
    ("black", "multiplier"),
    [
        ({20: 15}, 1),
        ({24: 3}, 1),  # twelve already borne off
        ({15: 1, 20: 14}, 2),
        ({9: 1, 20: 14}, 3),
        ({3: 1, 20: 14}, 4),
    ],
)
def test_win_scores_by_the_losers_rearmost_checker(black: dict[int, int], multiplier: int) -> None:
    position = Position.from_points(WHITE, {24: 1}, black)
    outcome = play(playing(position, (6, 5), match_to=5), parse_play("24/off"))
    assert outcome.events[-1] == GameWon(WHITE, multiplier, multiplier, (multiplier, 0))
    next_game = outcome.state
    assert (next_game.phase, next_game.game, next_game.score) == ("opening", 2, (multiplier, 0))
    assert next_game.position == Position.initial()


def test_completing_the_block_of_a_postillon_wins_quadruple() -> None:
    # White holds his 14-18 (black's 2-6); 12/18 18/19 closes black's 7 too.
    white = {1: 8, 12: 1, 14: 1, 15: 1, 16: 1, 17: 1, 18: 1, 24: 1}
    position = Position.from_points(WHITE, white, {1: 15})
    outcome = play(playing(position, (6, 1)), parse_play("12/18 18/19"))
    assert outcome.events[-2:] == (
        PostillonBlocked(BLACK, WHITE, 4, (4, 0)),
        MatchWon(WHITE, (4, 0)),
    )
    assert outcome.state.awaiting == Finished()
    assert outcome.state.winner == WHITE


def random_match(seed: int, match_to: int) -> list[tuple[JacquetState, tuple[object, ...]]]:
    """Every (state, events) of a match played with seeded dice and random legal plays."""
    rng = random.Random(seed)
    state = new_match(JacquetOptions(match_to=match_to))
    history: list[tuple[JacquetState, tuple[object, ...]]] = []
    while not isinstance(state.awaiting, Finished):
        if isinstance(state.awaiting, ChoosePlay):
            outcome = play(state, rng.choice(state.legal_plays()))
        else:
            outcome = throw(state, (rng.randint(1, 6), rng.randint(1, 6)))
        state = outcome.state
        history.append((state, outcome.events))
    return history


def test_match_to_n_points_plays_games_each_with_an_opening() -> None:
    history = random_match(seed=3, match_to=5)
    events = [event for _state, batch in history for event in batch]
    game_ends = [e for e in events if isinstance(e, GameWon | PostillonBlocked)]
    starts = [e.game for e in events if isinstance(e, OpeningThrown) and e.starter is not None]
    assert starts == list(range(1, len(game_ends) + 1))
    assert len(game_ends) >= 2
    score = [0, 0]
    for end in game_ends:
        score[end.winner] += end.points
        assert tuple(score) == end.score
    final = history[-1][0]
    assert isinstance(events[-1], MatchWon)
    assert events[-1] == MatchWon(final.winner, tuple(score))
    assert max(score) >= 5 > max(game_ends[-2].score)
    with pytest.raises(IllegalMoveError, match="over"):
        throw(final, (3, 4))


def test_throws_and_plays_out_of_turn_are_refused() -> None:
    state = throw(throw(new_match(JacquetOptions()), (6, 1)).state, (3, 1)).state
    with pytest.raises(IllegalMoveError, match="must first play the 3-1"):
        throw(state, (2, 2))
    with pytest.raises(IllegalMoveError, match="no throw is waiting"):
        play(new_match(JacquetOptions()), ())
    with pytest.raises(IllegalMoveError, match="two dice showing 1 to 6"):
        throw(new_match(JacquetOptions()), (7, 1))


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"match_to": 0}, "1 to 99 points, not 0"),
        ({"match_to": 2**63}, "1 to 99 points"),
        ({"bearoff": "cube"}, "unknown bear-off rule"),
    ],
)
def test_invalid_options_are_refused(options: dict[str, object], problem: str) -> None:
    with pytest.raises(InvalidOptionsError, match=problem):
        JacquetOptions(**options)  # type: ignore[arg-type]


def played_state() -> JacquetState:
    """A state well into a seeded match (shared with the subprocesses below)."""
    return random_match(seed=11, match_to=3)[60][0]


def test_state_hash_is_identical_across_processes_and_hash_seeds() -> None:
    code = (
        "from engine.canonical import state_hash\n"
        "from tests.engine.test_jacquet_game import played_state\n"
        "print(state_hash(played_state()).hex())\n"
    )
    hashes = {state_hash(played_state()).hex()}
    for seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert result.returncode == 0, result.stderr
        hashes.add(result.stdout.strip())
    assert len(hashes) == 1
    assert state_hash(played_state()) != state_hash(random_match(seed=11, match_to=3)[61][0])
