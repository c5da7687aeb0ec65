"""The Jacquet board: 24 points in the tables layout, drawn line by line.

Everything is in the *viewer's* numbering (his own track, 1-24): his talon (1) is the top
right corner, the checkers travel right to left along the top and left to right along the
bottom, so his last quarter (19-24) is in front of him, bottom right, and he bears off to
the right. The opponent's talon is the viewer's 13 (bottom left) and the opponent bears off
past the viewer's 12 (top left). The widget only draws and reports which point was chosen;
the screen decides what a choice means.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from client.i18n import N_

OFF = 25
"""The viewer's bear-off tray, used as a point number (the engine's ``to_point`` for off)."""

WHITE_GLYPH = "○"
BLACK_GLYPH = "●"
# Cues drawn as glyphs, so they read without colour (NO_COLOR) as well as with it: the picked
# checker is lifted (its top checker ringed), and each legal destination shows a dot where
# the checker would land. The cursor and the last move are told by text style under NO_COLOR
# (jacquet.tcss), as the point's colour tells them otherwise.
LIFTED_GLYPHS = {WHITE_GLYPH: "◎", BLACK_GLYPH: "◉"}
LANDING_GLYPH = "·"
TRAY_WIDTH = 4
MAX_STACK_ROWS = 15  # a whole side on one point, so a big terminal never needs a count
_MOVE_CURSOR = Binding.Group(N_("Cursor"), compact=True)

_STYLE_NAMES = (  # the component classes, in the order _draw_line unpacks them
    "jacquet-board--frame",
    "jacquet-board--label",
    "jacquet-board--point-dark",
    "jacquet-board--point-light",
    "jacquet-board--white",
    "jacquet-board--black",
    "jacquet-board--cursor",
    "jacquet-board--selected",
    "jacquet-board--target",
    "jacquet-board--recent",
    "jacquet-board--tray",
    "jacquet-board--talon",
)
TALONS = (1, 13)
"""The viewer's talon (his 1) and the opponent's (the viewer's 13): labelled apart."""


@dataclass(frozen=True, slots=True)
class BoardView:
    """The checkers, seen from ``viewer``'s side (0 white, 1 black).

    ``mine[p - 1]`` and ``theirs[p - 1]`` count the viewer's and the opponent's checkers on
    the viewer's point ``p``; ``off`` is (viewer's, opponent's) borne-off checkers.
    """

    viewer: int
    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    off: tuple[int, int]


@dataclass(frozen=True, slots=True)
class BoardMarks:
    """What to highlight, all in the viewer's numbering (``OFF`` is the viewer's tray)."""

    cursor: int | None = None
    selected: int | None = None
    targets: frozenset[int] = field(default_factory=frozenset)
    recent: frozenset[int] = field(default_factory=frozenset)


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    """Where each point sits for a given widget size; pure, so clicks and drawing agree.

    The board is centred across the widget (``left`` columns of margin) and as tall as the
    stacks need: ``stack_rows`` per half, a label row at each edge and one row between.
    """

    point_width: int
    bar_width: int
    stack_rows: int
    left: int

    @staticmethod
    def fit(size: Size) -> BoardGeometry:
        frame = 2 * TRAY_WIDTH + 2
        point_width = max(3, min(7, (size.width - frame - 3) // 12))
        bar_width = max(3, min(5, size.width - frame - 12 * point_width))
        stack_rows = max(3, min(MAX_STACK_ROWS, (size.height - 3) // 2))
        width = frame + 12 * point_width + bar_width
        return BoardGeometry(point_width, bar_width, stack_rows, max(0, (size.width - width) // 2))

    @property
    def width(self) -> int:
        """Columns drawn, margin excluded."""
        return 2 * TRAY_WIDTH + 2 + 12 * self.point_width + self.bar_width

    @property
    def height(self) -> int:
        return 3 + 2 * self.stack_rows

    def column_x(self, column: int) -> int:
        """Left edge of visual column 0-11 (the bar sits between columns 5 and 6)."""
        x = self.left + TRAY_WIDTH + 1 + column * self.point_width
        return x + self.bar_width if column >= 6 else x

    def point_at(self, x: int, y: int) -> int | None:
        """The viewer's point (or ``OFF``) drawn at content offset (x, y), if any."""
        if not 0 <= y < self.height or y == self.stack_rows + 1:
            return None
        top = y <= self.stack_rows
        right = self.left + self.width
        if not top and right - TRAY_WIDTH <= x < right:
            return OFF
        for column in range(12):
            left = self.column_x(column)
            if left <= x < left + self.point_width:
                return 12 - column if top else 13 + column
        return None


def visual_place(point: int) -> tuple[bool, int]:
    """(is on the top row, visual column 0-12) of a viewer's point; ``OFF`` is column 12."""
    if point == OFF:
        return False, 12
    if point <= 12:
        return True, 12 - point
    return False, point - 13


def point_at_place(top: bool, column: int) -> int:
    if top:
        return 12 - min(column, 11)
    return OFF if column >= 12 else 13 + column


def step_cursor(point: int, direction: str) -> int:
    """Move a cursor one place left, right, up or down on the drawn board."""
    top, column = visual_place(point)
    if direction == "left":
        column = max(0, column - 1)
    elif direction == "right":
        column = min(11 if top else 12, column + 1)
    else:
        top = direction == "up"
    return point_at_place(top, column)


class JacquetBoard(Widget, can_focus=True):
    """Draws a :class:`BoardView` with :class:`BoardMarks`; reports chosen points."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "cursor('left')", N_("left"), key_display="←", group=_MOVE_CURSOR),
        Binding("right,l", "cursor('right')", N_("right"), key_display="→", group=_MOVE_CURSOR),
        Binding("up,k", "cursor('up')", N_("up"), key_display="↑", group=_MOVE_CURSOR),
        Binding("down,j", "cursor('down')", N_("down"), key_display="↓", group=_MOVE_CURSOR),
        # Here, not on the screen: the focused board's keys come before the screen's own
        # escape (Lobby) and backspace (Undo), which they stand in for while a checker is
        # picked; the screen says when that is (its check_action hides it otherwise).
        Binding("escape,backspace", "screen.put_back", N_("Put back"), key_display="esc",
                tooltip=N_("Put the picked checker back and pick another")),
    ]  # fmt: skip

    COMPONENT_CLASSES: ClassVar[set[str]] = set(_STYLE_NAMES)

    class PointChosen(Message):
        """The player clicked ``point`` (viewer's numbering, ``OFF`` = the tray).

        The keys that pick the point under the cursor belong to the screen, which reads
        :attr:`JacquetBoard.marks` at once rather than through a message.
        """

        def __init__(self, point: int) -> None:
            super().__init__()
            self.point = point

    def __init__(self, view: BoardView, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._view = view
        self._marks = BoardMarks(cursor=1)

    @property
    def view(self) -> BoardView:
        return self._view

    @property
    def marks(self) -> BoardMarks:
        return self._marks

    def show(self, view: BoardView | None = None, marks: BoardMarks | None = None) -> None:
        """Redraw with a new position and/or highlights (nothing is remounted)."""
        if view is not None:
            self._view = view
        if marks is not None:
            self._marks = marks
        self.refresh()

    def action_cursor(self, direction: str) -> None:
        cursor = self._marks.cursor or 1
        self.show(marks=_with_cursor(self._marks, step_cursor(cursor, direction)))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not self.can_focus:  # nobody plays from here: nothing to pick
            return
        point = BoardGeometry.fit(self.content_size).point_at(offset.x, offset.y)
        if point is not None:
            self.focus()
            self.show(marks=_with_cursor(self._marks, point))
            self.post_message(self.PointChosen(point))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return BoardGeometry.fit(Size(width, container.height)).height

    def render_line(self, y: int) -> Strip:
        # Checker and highlight styles are partial so they layer over the point's colour.
        styles = tuple(
            self.get_component_rich_style(name, partial=name not in _FULL_STYLES)
            for name in _STYLE_NAMES
        )
        return _draw_line(y, self._view, self._marks, self.content_size, styles)


def _with_cursor(marks: BoardMarks, cursor: int) -> BoardMarks:
    return BoardMarks(cursor, marks.selected, marks.targets, marks.recent)


_FULL_STYLES = {
    "jacquet-board--frame",
    "jacquet-board--label",
    "jacquet-board--point-dark",
    "jacquet-board--point-light",
    "jacquet-board--tray",
}


@lru_cache(maxsize=256)
def _draw_line(
    y: int, view: BoardView, marks: BoardMarks, size: Size, styles: tuple[Style, ...]
) -> Strip:
    """One drawn line; cached, so only lines whose inputs changed are rebuilt."""
    frame, label, dark, light, white, black, cursor, selected, target, recent, tray, talon = styles
    geometry = BoardGeometry.fit(size)
    height = geometry.height
    if y >= height:
        return Strip.blank(size.width)
    top = y <= geometry.stack_rows
    # Row inside the half, counted from the board's edge toward the middle.
    depth = y if top else height - 1 - y
    margin = Segment(" " * geometry.left, label)
    if depth > geometry.stack_rows:
        between = Segment(" " * geometry.width, frame)
        return Strip([margin, between]).extend_cell_length(size.width, label)
    segments: list[Segment] = [margin]

    def point_style(point: int, base: Style) -> Style:
        if point == marks.cursor:
            return base + cursor
        if point == marks.selected:
            return base + selected
        if point in marks.targets:
            return base + target
        if point in marks.recent:
            return base + recent
        return base

    def checker_cell(point: int, count: int, glyph: str, width: int) -> str:
        rows = geometry.stack_rows
        if count > rows and depth == rows:
            return str(count).center(width)
        top_checker = count if count <= rows else rows - 1  # (the count is on the last row)
        if depth == top_checker and point == marks.selected:
            return LIFTED_GLYPHS[glyph].center(width)
        if depth <= count:
            return glyph.center(width)
        if depth == count + 1 and point in marks.targets:
            return LANDING_GLYPH.center(width)
        return " " * width

    viewer_is_white = view.viewer == 0
    mine_style, theirs_style = (white, black) if viewer_is_white else (black, white)
    mine_glyph, theirs_glyph = (
        (WHITE_GLYPH, BLACK_GLYPH) if viewer_is_white else (BLACK_GLYPH, WHITE_GLYPH)
    )

    # Left tray: the opponent bears off past the viewer's 12 (top left).
    segments.append(_tray_cell(depth, top, view.off[1], theirs_glyph, tray + theirs_style))
    segments.append(Segment("│", frame))
    for column in range(12):
        if column == 6:
            segments.append(Segment(" " * geometry.bar_width, frame))
        point = 12 - column if top else 13 + column
        width = geometry.point_width
        if depth == 0:
            style = label + talon if point in TALONS else label
            segments.append(Segment(str(point).center(width), point_style(point, style)))
            continue
        base = dark if column % 2 == (0 if top else 1) else light
        mine = view.mine[point - 1]
        if mine or not view.theirs[point - 1]:
            text = checker_cell(point, mine, mine_glyph, width)
            style = base + mine_style
        else:
            text = checker_cell(point, view.theirs[point - 1], theirs_glyph, width)
            style = base + theirs_style
        segments.append(Segment(text, point_style(point, style)))
    segments.append(Segment("│", frame))
    segments.append(
        _tray_cell(
            depth, not top, view.off[0], mine_glyph, point_style(OFF, tray + mine_style),
            landing=OFF in marks.targets,
        )
    )
    strip = Strip(segments)
    return strip.extend_cell_length(size.width, label)


def _tray_cell(
    depth: int, visible: bool, count: int, glyph: str, style: Style, *, landing: bool = False
) -> Segment:
    """A tray is drawn only in its owner's half: a label at the edge, then the count; a dot
    before the label when bearing off is a legal destination."""
    if not visible:
        return Segment(" " * TRAY_WIDTH, style)
    label = f"{LANDING_GLYPH}off" if landing else "off"
    text = label if depth == 0 else f"{glyph}{count}" if depth == 1 and count else ""
    return Segment(text.center(TRAY_WIDTH), style)
