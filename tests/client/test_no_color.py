"""Under NO_COLOR every cue still reads: the board's cursor, picked checker, destinations
and last move, whose turn it is, and the lobby's computer ticks, compared with the colours
taken out of every style (what a monochrome terminal keeps)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.style import Style
from textual.pilot import Pilot

from client.app import TablierApp
from client.screens.jacquet import JacquetScreen
from client.screens.lobby import SeatRow
from client.setup import JacquetSetup
from client.widgets.jacquet_board import (
    LANDING_GLYPH,
    LIFTED_GLYPHS,
    BoardGeometry,
    JacquetBoard,
    visual_place,
)
from client.widgets.jacquet_status import JacquetStatus
from client.widgets.tick_box import TickBox
from tests.client.conftest import seeded_settings
from tests.client.test_jacquet_screen import (
    SEED,
    offered,
    press_when_offered,
    white_plays_1_6_6_12,
)

Cell = tuple[str, Style]


def cells(board: JacquetBoard, y: int) -> list[Cell]:
    """Row *y* of the board, one (character, style without colour) per cell."""
    row: list[Cell] = []
    for segment in board.render_line(y):
        style = (segment.style or Style()).without_color
        row.extend((char, style) for char in segment.text)
    return row


def column(board: JacquetBoard, point: int) -> list[list[Cell]]:
    """The cells of *point*'s column, from its label at the board's edge inwards."""
    geometry = BoardGeometry.fit(board.content_size)
    top, place = visual_place(point)
    left = geometry.column_x(place)
    rows = range(geometry.stack_rows + 1)
    ys = list(rows) if top else [geometry.height - 1 - depth for depth in rows]
    return [cells(board, y)[left : left + geometry.point_width] for y in ys]


def label_style(board: JacquetBoard, point: int) -> Style:
    return column(board, point)[0][0][1]


def glyphs(board: JacquetBoard, point: int) -> str:
    return "".join(char for row in column(board, point)[1:] for char, _style in row)


async def _black_picks_his_talon(pilot: Pilot[None]) -> JacquetScreen:
    """Seed 65: white plays 1/6 6/12 (the last move, seen by black as 13, 18, 24); black
    throws 2-1 and picks his talon, the cursor on its nearest destination."""
    screen = pilot.app.screen
    assert isinstance(screen, JacquetScreen)
    await white_plays_1_6_6_12(pilot)
    await press_when_offered(pilot, "r")
    await offered(pilot, "type_play")
    await press_when_offered(pilot, "enter")
    await pilot.pause()
    return screen


async def test_the_jacquet_cues_differ_without_colour(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = TablierApp(JacquetSetup(), seeded_settings(tmp_path, seed=SEED))
    assert app.no_color
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _black_picks_his_talon(pilot)
        board = screen.board
        marks = board.marks
        assert (marks.selected, marks.cursor, marks.targets) == (1, 2, {2, 3, 4})
        assert marks.recent == {13, 18, 24}
        plain = 8  # an empty point nothing marks

        # The cursor and the last move by text style; nothing else looks like either.
        cursor, recent, other = (label_style(board, p) for p in (marks.cursor, 13, plain))
        assert cursor.reverse and not recent.reverse and not other.reverse
        assert recent.underline and not cursor.underline and not other.underline
        assert len({cursor, recent, other}) == 3
        for target in (3, 4):  # the destinations: a landing dot, on their points only
            assert LANDING_GLYPH in glyphs(board, target)
        assert LANDING_GLYPH not in glyphs(board, plain) + glyphs(board, 13)
        # The picked checker is lifted: its top checker ringed, on its point only.
        lifted = LIFTED_GLYPHS["●"]
        assert lifted in glyphs(board, 1) and lifted not in glyphs(board, 24)

        # Whose turn: a glyph and bold, beside the mover's name in the side panel.
        status = screen.query_one(JacquetStatus).render()
        mover = next(line for line in str(status).splitlines() if "Noir" in line)
        assert mover.startswith("▶")
        await pilot.press("escape")  # put back: the lifted glyph and the dots go
        assert LIFTED_GLYPHS["●"] not in glyphs(board, 1)
        assert all(LANDING_GLYPH not in glyphs(board, p) for p in (2, 3, 4))


async def test_the_goose_setups_computer_ticks_read_without_colour(tmp_path: Path) -> None:
    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        rows = list(app.screen.query(SeatRow))
        assert rows
        ticks = [row.query_one(".computer", TickBox) for row in rows[:2]]
        ticks[1].value = True
        await pilot.pause()
        shown = ["".join(s.text for s in tick.render_line(0)) for tick in ticks]
        assert "✓" not in shown[0] and "✓" in shown[1]
