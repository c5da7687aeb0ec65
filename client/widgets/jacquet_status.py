"""The Jacquet side panel: players, pip counts, match score, whose turn, the dice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.widget import Widget

from client.i18n import N_, _
from client.widgets.jacquet_board import BLACK_GLYPH, WHITE_GLYPH

COLOUR_NAMES = (N_("white"), N_("black"))


@dataclass(frozen=True, slots=True)
class SeatLine:
    name: str
    pips: int
    score: int
    borne_off: int


@dataclass(frozen=True, slots=True)
class JacquetStatusView:
    """Everything the panel shows; ``spent[i]`` says whether ``dice[i]`` has been played."""

    seats: tuple[SeatLine, SeatLine]
    match_to: int
    to_move: int | None
    dice: tuple[int, ...] = ()
    spent: tuple[bool, ...] = ()
    game_number: int = 1


class JacquetStatus(Widget):
    """Renders a :class:`JacquetStatusView`; ``show`` swaps it and redraws."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "jacquet-status--to-move",
        "jacquet-status--die",
        "jacquet-status--die-used",
    }

    def __init__(self, view: JacquetStatusView, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._view = view

    def show(self, view: JacquetStatusView) -> None:
        if view != self._view:
            self._view = view
            self.refresh(layout=True)

    def render(self) -> RenderableType:
        view = self._view
        to_move_style = self.get_component_rich_style("jacquet-status--to-move")
        text = Text()
        for seat, line in enumerate(view.seats):
            glyph = WHITE_GLYPH if seat == 0 else BLACK_GLYPH
            marker = "▶ " if seat == view.to_move else "  "
            style = to_move_style if seat == view.to_move else ""
            text.append(f"{marker}{glyph} {line.name}", style)
            text.append(f" ({_(COLOUR_NAMES[seat])})\n")
            text.append("    " + _("pips {pips:3} · off {off}").format(
                pips=line.pips, off=line.borne_off
            ) + "\n")
        white, black = (line.score for line in view.seats)
        if view.match_to == 1:
            text.append(_("One game · score {white}-{black}").format(white=white, black=black))
        else:
            text.append(_("To {points} · game {game} · {white}-{black}").format(
                points=view.match_to, game=view.game_number, white=white, black=black
            ))
        text.append("\n")
        if view.dice:
            die = self.get_component_rich_style("jacquet-status--die")
            used = self.get_component_rich_style("jacquet-status--die-used")
            text.append(_("Dice") + " ")
            for value, spent in zip(view.dice, view.spent, strict=True):
                text.append(f" {value} ", used if spent else die)
                text.append(" ")
        return text
