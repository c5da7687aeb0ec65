"""The Jeu de l'oie board: 63 squares in the traditional inward spiral, tokens on them.

One widget draws the whole board from a tuple of squares per seat; moving a token is a
single :meth:`GooseBoard.show` and one repaint, never a remount. Cells grow with the
terminal: at 80x24 a cell holds the number, the square's symbol and the tokens; on a larger
terminal it also spells the square's French name.
"""

from __future__ import annotations

from functools import cache
from textwrap import wrap

from rich.text import Text
from textual.widget import Widget

from client.i18n import N_, _
from client.widgets.tokens import Token
from engine.goose import GEESE, GOAL, SQUARE_NAMES

COLUMNS = 9
ROWS = 7  # 9 x 7 = 63: the spiral fills the grid exactly, ending on 63 in the middle
DICE_SQUARES = (26, 53)

# (symbol, short label for the legend); single-width characters only.
GOOSE_SYMBOL = "»"
HAZARD_SYMBOLS: dict[int, str] = {
    6: "⌒",
    19: "⌂",
    31: "◎",
    42: "@",
    52: "#",
    58: "†",
    26: "⚅",
    53: "⚅",
    GOAL: "✿",
}
SQUARE_STYLES: dict[str, str] = {
    "plain-even": "#d8d0b8 on #3a3428",
    "plain-odd": "#d8d0b8 on #2c2820",
    "goose": "bold #fff6d0 on #2f5d7c",
    "hazard": "bold #fff0f0 on #7a2a2a",
    "dice": "bold #1e1a10 on #c8a040",
    "goal": "bold #10200c on #78b050",
}
LEGEND: tuple[str, ...] = (  # the 1792 names in both languages; translated where shown
    N_("{goose} l'oie: count again"),
    N_("⌒ 6 le pont → 12"),
    N_("⌂ 19 l'hôtellerie: miss a turn"),
    N_("◎ 31 le puits"),
    N_("@ 42 le labyrinthe → 30"),
    N_("# 52 la prison"),
    N_("† 58 la mort → 0"),
    N_("⚅ 26, 53 the dice"),
    N_("✿ 63 le jardin de l'oie"),
)


@cache
def spiral() -> dict[int, tuple[int, int]]:
    """Square number → (column, row): from the bottom-left corner, clockwise, inwards."""
    cells: dict[int, tuple[int, int]] = {}
    left, right, top, bottom = 0, COLUMNS - 1, 0, ROWS - 1
    square = 1
    while square <= GOAL:
        for column in range(left, right + 1):  # along the bottom, rightwards
            cells[square], square = (column, bottom), square + 1
        bottom -= 1
        for row in range(bottom, top - 1, -1):  # up the right side
            cells[square], square = (right, row), square + 1
        right -= 1
        if top <= bottom:
            for column in range(right, left - 1, -1):  # along the top, leftwards
                cells[square], square = (column, top), square + 1
            top += 1
        if left <= right:
            for row in range(top, bottom + 1):  # down the left side
                cells[square], square = (left, row), square + 1
            left += 1
    return {number: cells[number] for number in range(1, GOAL + 1)}


def square_kind(square: int) -> str:
    if square == GOAL:
        return "goal"
    if square in DICE_SQUARES:
        return "dice"
    if square in SQUARE_NAMES:
        return "hazard"
    if square in GEESE:
        return "goose"
    return "plain-even" if square % 2 == 0 else "plain-odd"


def square_symbol(square: int) -> str:
    if square in GEESE:
        return GOOSE_SYMBOL
    return HAZARD_SYMBOLS.get(square, "")


class GooseBoard(Widget):
    """The board; the legend and the players still at the start are drawn below it."""

    def __init__(self, tokens: tuple[Token, ...], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tokens = tokens
        self.squares: tuple[int, ...] = (0,) * len(tokens)
        self.highlight: frozenset[int] = frozenset()

    def show(self, squares: tuple[int, ...], highlight: frozenset[int] = frozenset()) -> None:
        """Place every seat's token; *highlight* marks squares of the move being shown."""
        if (squares, highlight) != (self.squares, self.highlight):
            self.squares, self.highlight = squares, highlight
            self.refresh()

    def render(self) -> Text:
        width, height = self.size
        legend = self._legend_lines(width)
        cell_width = max(4, width // COLUMNS)
        cell_height = max(2, min(6, (height - len(legend) - 1) // ROWS))
        grid = self._grid(cell_width, cell_height)
        text = Text("\n").join([*grid, self._start_line(), *legend])
        text.no_wrap = True
        return text

    def _occupants(self) -> dict[int, list[Token]]:
        occupants: dict[int, list[Token]] = {}
        for token, square in zip(self.tokens, self.squares, strict=True):
            occupants.setdefault(square, []).append(token)
        return occupants

    def _grid(self, cell_width: int, cell_height: int) -> list[Text]:
        layout = spiral()
        at = {cell: square for square, cell in layout.items()}
        occupants = self._occupants()
        lines = [Text() for _ in range(ROWS * cell_height)]
        for row in range(ROWS):
            for column in range(COLUMNS):
                square = at[(column, row)]
                cell = self._cell(square, occupants.get(square, []), cell_width, cell_height)
                for offset, part in enumerate(cell):
                    lines[row * cell_height + offset].append_text(part)
        return lines

    def _cell(self, square: int, tokens: list[Token], width: int, height: int) -> list[Text]:
        """The cell's lines: number and symbol, the French name if it fits, the tokens."""
        style = SQUARE_STYLES[square_kind(square)]
        if square in self.highlight:
            style += " reverse"
        heading = f"{square}{square_symbol(square)}"
        name = SQUARE_NAMES.get(square, "")
        name_lines = wrap(name, width) if name else []
        if len(name_lines) == 1 and len(heading) + 1 + len(name) < width:
            heading, name_lines = f"{heading} {name}", []
        elif len(name_lines) > height - 2:
            name_lines = []
        token_line = self._token_line(tokens, width, style)
        lines = [Text(line.ljust(width), style=style) for line in (heading, *name_lines)]
        lines.append(token_line)
        lines.extend(Text(" " * width, style=style) for _ in range(height - len(lines)))
        return lines

    @staticmethod
    def _token_line(tokens: list[Token], width: int, style: str) -> Text:
        """The tokens on a square: wide blocks when the cell allows, else letters, spaced when
        they fit, with ``+`` when some do not."""
        count = len(tokens)
        block = width >= 9 and 4 * count - 1 <= width
        spaced = 2 * count - 1 <= width
        room = count if count <= width else width - 1
        line = Text(style=style)
        for token in tokens[:room]:
            line.append(f" {token.letter} " if block else token.letter, style=token.style)
            if block or spaced:
                line.append(" ")
        if room < count:
            line.append("+")
        line.truncate(width, pad=True)
        return line

    def _start_line(self) -> Text:
        line = Text(_("Start:") + " ", style="bold")
        waiting = [t for t, square in zip(self.tokens, self.squares, strict=True) if not square]
        for token in waiting:
            line.append(token.letter, style=token.style)
            line.append(" ")
        if not waiting:
            line.append(_("nobody"), style="dim")
        return line

    @staticmethod
    def _legend_lines(width: int) -> list[Text]:
        lines: list[Text] = []
        current = ""
        for entry in (_(entry).format(goose=GOOSE_SYMBOL) for entry in LEGEND):
            candidate = f"{current}  {entry}" if current else entry
            if len(candidate) > width and current:
                lines.append(Text(current, style="dim"))
                candidate = entry
            current = candidate
        lines.append(Text(current, style="dim"))
        return lines
