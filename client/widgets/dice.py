"""The last throw's dice, drawn as die faces with their sum."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

FACES = "⚀⚁⚂⚃⚄⚅"


class DiceDisplay(Widget):
    """Shows ``⚅ ⚂  6+3 = 9`` for the last throw, or nothing before the first."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.dice: tuple[int, ...] = ()

    def show(self, dice: tuple[int, ...]) -> None:
        self.dice = dice
        self.refresh()

    def render(self) -> Text:
        if not self.dice:
            return Text("")
        faces = " ".join(FACES[die - 1] for die in self.dice)
        sums = "+".join(str(die) for die in self.dice)
        return Text.assemble((faces, "bold"), f"  {sums} = {sum(self.dice)}")
