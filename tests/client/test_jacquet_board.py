"""The Jacquet board's geometry: where each point is drawn is where a click finds it."""

from __future__ import annotations

import pytest
from rich.style import Style
from textual.geometry import Size

from client.widgets.jacquet_board import (
    OFF,
    BoardGeometry,
    BoardMarks,
    BoardView,
    _draw_line,
    step_cursor,
    visual_place,
)

PLAIN = tuple(Style() for _ in range(12))


@pytest.mark.parametrize("size", [Size(49, 21), Size(112, 48)], ids=["80x24", "160x50"])
def test_every_point_is_found_where_it_is_drawn(size: Size) -> None:
    geometry = BoardGeometry.fit(size)
    for point in range(1, 25):
        top, column = visual_place(point)
        x = geometry.column_x(column)
        y = 1 if top else geometry.height - 2
        assert geometry.point_at(x, y) == point
        assert geometry.point_at(x + geometry.point_width - 1, y) == point
    tray_x = geometry.left + geometry.width - 1
    assert geometry.point_at(tray_x, geometry.height - 1) == OFF
    assert geometry.point_at(tray_x, 0) is None  # the opponent's tray is not a target
    assert geometry.point_at(geometry.column_x(0), geometry.stack_rows + 1) is None


def test_a_stack_taller_than_the_room_shows_its_count() -> None:
    mine = (15,) + (0,) * 23
    view = BoardView(viewer=0, mine=mine, theirs=(0,) * 24, off=(0, 0))
    size = Size(49, 21)
    geometry = BoardGeometry.fit(size)
    assert geometry.stack_rows < 15
    column = slice(geometry.column_x(11), geometry.column_x(11) + geometry.point_width)

    def cell(y: int) -> str:
        return _draw_line(y, view, BoardMarks(), size, PLAIN).text[column].strip()

    assert cell(0) == "1"  # the label row, at the top edge
    assert [cell(y) for y in range(1, geometry.stack_rows)] == ["○"] * (geometry.stack_rows - 1)
    assert cell(geometry.stack_rows) == "15"


def test_the_cursor_walks_the_board_as_drawn() -> None:
    assert step_cursor(1, "left") == 2  # the top row runs 12 ... 1 from left to right
    assert step_cursor(12, "left") == 12
    assert step_cursor(12, "down") == 13
    assert step_cursor(24, "right") == OFF  # the viewer's tray is right of his 24
    assert step_cursor(OFF, "up") == 1
