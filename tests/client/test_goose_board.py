"""The board's geometry and the players' tokens, checked without running the app."""

from __future__ import annotations

from client.setup import DEFAULT_GOOSE_NAMES
from client.widgets.goose_board import COLUMNS, ROWS, spiral
from client.widgets.tokens import seat_tokens


def test_the_spiral_fills_the_grid_from_the_corner_to_the_middle() -> None:
    cells = spiral()
    assert sorted(cells) == list(range(1, 64))
    assert len(set(cells.values())) == COLUMNS * ROWS == 63
    assert cells[1] == (0, ROWS - 1)  # the bottom-left corner
    assert cells[63] == (5, 3)  # the middle row, the spiral's end
    for square in range(1, 63):  # each square touches the next one
        (x1, y1), (x2, y2) = cells[square], cells[square + 1]
        assert abs(x1 - x2) + abs(y1 - y2) == 1


def test_fifteen_tokens_have_distinct_letters_and_colours_even_with_shared_initials() -> None:
    names = ("Anne", "Alain", "Élise", "Émile", "Bob", *DEFAULT_GOOSE_NAMES[5:15])
    tokens = seat_tokens(names)
    assert [token.letter for token in tokens[:5]] == ["A", "L", "É", "M", "B"]
    assert len({token.letter for token in tokens}) == 15
    assert len({token.background for token in tokens}) == 15
