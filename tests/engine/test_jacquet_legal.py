"""The fast legal-play generator against a brute-force reference, and its invariants.

The reference reads RULES 2.3-2.6 word for word on plain lists: every die order, every
checker, no merging, no packed boards, no canonical orders. It is slow and obviously right.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.jacquet import (
    BEAROFF_RULES,
    OFF,
    BearOff,
    Position,
    apply_play,
    blocked_postillon,
    explain_illegal,
    format_play,
    legal_play_results,
    legal_plays,
    must_pass,
    parse_play,
    position_from_json,
    position_to_json,
)

Board = tuple[int, ...]  # index 0 unused, 1-24 the mover's points, 25 = borne off


@dataclass(frozen=True)
class Node:
    board: Board
    dice_used: tuple[int, ...]
    excess: int


@dataclass(frozen=True)
class Answer:
    most_dice: int
    """How many dice every legal play uses."""
    boards: frozenset[Board]
    """The mover's board after each legal play."""


def reference_answer(
    position: Position, dice: tuple[int, int], bearoff: str = "backgammon"
) -> Answer:
    """The legal plays' dice count and resulting boards, by exhaustive search."""
    me, them = position.turn, 1 - position.turn
    start = (0, *position.points(me), position.borne_off(me))
    theirs = position.points(them)

    def closed(point: int) -> bool:
        their_point = (point - 1 + 12) % 24 + 1
        return theirs[their_point - 1] > 0

    def steps(board: Board, die: int) -> list[tuple[Board, bool]]:
        under_postillon = not any(board[19:26])
        movable = [p for p in range(1, 25) if board[p]]
        if under_postillon and board[1] != 15:
            movable = [p for p in movable if p != 1]  # only the postillon
        if under_postillon and board[1] == 15:
            movable = [1]
        found = []
        for p in movable:
            target = p + die
            after = list(board)
            after[p] -= 1
            if target <= 24:
                if closed(target):
                    continue
                after[target] += 1
                found.append((tuple(after), False))
                continue
            if any(board[q] for q in range(1, 19)):
                continue  # not all home: no bearing off
            if target == 25 or not any(board[q] for q in range(1, p)):
                after[25] += 1
                found.append((tuple(after), target > 25))
        return found

    nodes: list[Node] = []

    def explore(board: Board, left: list[int], used: tuple[int, ...], excess: int) -> None:
        nodes.append(Node(board, used, excess))
        for die in sorted(set(left)):  # equal dice are interchangeable
            rest = list(left)
            rest.remove(die)
            for after, is_excess in steps(board, die):
                explore(after, rest, (*used, die), excess + is_excess)

    explore(start, [dice[0]] * 4 if dice[0] == dice[1] else list(dice), (), 0)
    most = max(len(node.dice_used) for node in nodes)
    best = [node for node in nodes if len(node.dice_used) == most]
    if most == 1 and dice[0] != dice[1]:
        higher = [node for node in best if node.dice_used[0] == max(dice)]
        best = higher or best
    results: dict[Board, int] = {}
    for node in best:
        results[node.board] = min(results.get(node.board, 99), node.excess)
    if bearoff == "trictrac":
        fewest = min(results.values())
        results = {board: cost for board, cost in results.items() if cost == fewest}
    return Answer(most, frozenset(results))


def as_reference_board(position: Position, side: int) -> Board:
    return (0, *position.points(side), position.borne_off(side))


def random_game_positions(seed: int, plies: int) -> list[tuple[Position, tuple[int, int]]]:
    """(position, dice) for each turn of one random game from the start (at most *plies*)."""
    rng = random.Random(seed)
    position = Position.initial(rng.choice((0, 1)))
    seen = []
    for _ in range(plies):
        if blocked_postillon(position) or position.borne_off(1 - position.turn) == 15:
            break
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        seen.append((position, dice))
        position = rng.choice(legal_play_results(position, dice))[1]
    return seen


def random_home_position(seed: int) -> Position:
    """The mover has everything in 19-24 or off; the opponent somewhere legal behind."""
    rng = random.Random(seed)
    on_board = rng.randint(1, 15)
    mover = {}
    for _ in range(on_board):
        point = rng.randint(19, 24)
        mover[point] = mover.get(point, 0) + 1
    # The opponent keeps one checker home (so the postillon rule is behind him) and the
    # rest on his talon or 13-24: the mover's 13 and 1-12, never the mover's 19-24.
    other = {rng.randint(19, 24): 1}
    for _ in range(rng.randint(0, 14)):
        point = rng.choice((1, *range(13, 25)))
        other[point] = other.get(point, 0) + 1
    turn = rng.choice((0, 1))
    white, black = (mover, other) if turn == 0 else (other, mover)
    return Position.from_points(turn, white, black)


ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def fast_boards(position: Position, dice: tuple[int, int], bearoff: BearOff) -> set[object]:
    results = legal_play_results(position, dice, bearoff)
    return {as_reference_board(after, position.turn) for _play, after in results}


def sample_cases() -> list[tuple[Position, tuple[int, int]]]:
    cases = []
    for seed in range(40):
        cases += random_game_positions(seed, 300)[::9]
    rng = random.Random(7)
    cases += [
        (random_home_position(seed), (rng.randint(1, 6), rng.randint(1, 6))) for seed in range(80)
    ]
    return cases


def test_fast_generator_matches_brute_force_reference() -> None:
    cases = sample_cases()
    assert len(cases) >= 300
    for position, dice in cases:
        for bearoff in BEAROFF_RULES:
            expected = reference_answer(position, dice, bearoff).boards
            assert fast_boards(position, dice, bearoff) == expected, (
                position_to_json(position),
                dice,
                bearoff,
            )


def test_every_roll_matches_brute_force_reference() -> None:
    games = [random_game_positions(seed, 200) for seed in range(8)]
    positions = [game[len(game) // 2][0] for game in games]
    positions += [random_home_position(seed) for seed in range(8)]
    for position in positions:
        for dice in ALL_ROLLS:
            expected = reference_answer(position, dice).boards
            assert fast_boards(position, dice, "backgammon") == expected, (
                position_to_json(position),
                dice,
            )


reachable_positions = st.one_of(
    st.builds(
        lambda seed, plies: random_game_positions(seed, plies)[-1][0],
        st.integers(0, 2**32),
        st.integers(1, 160),
    ),
    st.builds(random_home_position, st.integers(0, 2**32)),
)
rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))
rules = st.sampled_from(BEAROFF_RULES)


@settings(max_examples=150, deadline=None)
@given(reachable_positions, rolls, rules)
def test_listed_plays_are_legal_distinct_and_lead_to_their_position(
    position: Position, dice: tuple[int, int], bearoff: BearOff
) -> None:
    results = legal_play_results(position, dice, bearoff)
    mover = position.turn
    afters = [after for _play, after in results]
    assert len(set(afters)) == len(afters)
    assert len({len(play) for play, _after in results}) == 1
    assert len(results[0][0]) == reference_answer(position, dice, bearoff).most_dice
    assert must_pass(position, dice) == (results == (((), apply_play(position, ())),))
    for play, after in results:
        assert apply_play(position, play) == after
        assert after.turn == 1 - mover
        assert after.boards[1 - mover] == position.boards[1 - mover]
        for side in (0, 1):
            assert sum(after.points(side)) + after.borne_off(side) == 15
        assert explain_illegal(position, dice, play, bearoff) is None
        assert parse_play(format_play(play)) == play
        for move in play:
            if move.to_point != OFF:
                assert not position.is_closed(mover, move.to_point), format_play(play)


@settings(max_examples=150, deadline=None)
@given(reachable_positions, rolls, rolls)
def test_explain_illegal_accepts_only_plays_ending_on_a_legal_position(
    position: Position, dice: tuple[int, int], other_dice: tuple[int, int]
) -> None:
    legal_afters = {after for _play, after in legal_play_results(position, dice)}
    for play in legal_plays(position, other_dice):
        reason = explain_illegal(position, dice, play)
        if reason is None:
            assert apply_play(position, play) in legal_afters
        else:
            assert str(reason) and "\n" not in str(reason)


@settings(max_examples=100, deadline=None)
@given(reachable_positions)
def test_json_round_trip(position: Position) -> None:
    assert position_from_json(position_to_json(position)) == position
