"""The shipped bear-off table is the exact solution of the rules, not stale data."""

from __future__ import annotations

from engine.bot.bearoff import POSITIONS, compute, expected_turns, index


def test_table_matches_a_fresh_solution_of_small_positions() -> None:
    solved = compute(4)
    assert len(solved) == 210  # distributions of 0-4 checkers over six points
    for home, turns in solved.items():
        assert expected_turns(home) == turns, home


def test_an_extra_checker_never_bears_off_faster() -> None:
    # (Extra pips can: a checker moved back may fill a gap, so no such law is asserted.)
    for home in [(2, 1, 0, 3, 0, 1), (0, 0, 5, 0, 0, 0), (4, 4, 3, 2, 1, 0)]:
        for point in range(6):
            more = tuple(c + (i == point) for i, c in enumerate(home))
            assert expected_turns(more) > expected_turns(home)


def test_index_is_a_bijection_onto_the_table() -> None:
    assert index((0,) * 6) == 0
    assert index((15, 0, 0, 0, 0, 0)) == POSITIONS - 1
    ranks = {index((a, b, 15 - a - b, 0, 0, 0)) for a in range(16) for b in range(16 - a)}
    assert len(ranks) == 136
