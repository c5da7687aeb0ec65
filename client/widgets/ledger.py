"""The Goose ledger: the pot, and for every seat its square, its balance and its plight."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from client.i18n import N_, _
from client.widgets.tokens import Token
from engine.goose import GooseState

# Why a seat is not throwing, longest first: the ledger shows the longest that fits whole,
# down to the hazard's symbol on the board (never a word cut mid-way: "prison: he…"). The
# help screen explains them.
PLIGHTS: dict[str, tuple[str, ...]] = {
    "inn": (N_("inn: skips"), N_("inn"), "⌂"),
    "well": (N_("well: held"), N_("well"), "◎"),
    "prison": (N_("prison: held"), N_("prison"), "#"),
}
_ROW_FIXED = 12  # "▶A " before the name, " sq  bal" after it: "▶A name  52  -3"
_SHORTEST_NAME = 4


def fitted_plight(status: str, room: int) -> str:
    """The longest form of *status*'s plight that fits in *room* columns ("" if none).

    >>> fitted_plight("prison", 20), fitted_plight("prison", 8), fitted_plight("prison", 3)
    ('prison: held', 'prison', '#')
    """
    forms = (_(form) for form in PLIGHTS.get(status, ()))
    return next((form for form in forms if len(form) <= room), "")


class GooseLedger(Widget):
    """Who is where, who paid what, who waits and why; ``▶`` marks whose turn it is.

    The pot is shown by the screen's status bar, next to the dice."""

    def __init__(
        self, names: tuple[str, ...], tokens: tuple[Token, ...], *, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.names = names
        self.tokens = tokens
        self.state: GooseState | None = None
        self.squares: tuple[int, ...] = ()

    def show(self, state: GooseState, squares: tuple[int, ...] | None = None) -> None:
        """Show *state*'s ledger, with tokens on *squares* while a move is being animated."""
        self.state = state
        self.squares = state.squares if squares is None else squares
        self.refresh()

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self.names) + 1

    def render(self) -> Text:
        state = self.state
        text = Text(no_wrap=True, overflow="ellipsis")
        if state is None:
            return text
        width = self.size.width or 80
        name_width = max(len(name) for name in self.names)
        # Names give way first (cut, "…"), down to a few letters, so a plight's symbol fits.
        name_width = max(_SHORTEST_NAME, min(name_width, width - _ROW_FIXED - 2))
        player, square, money = _("player"), _("sq"), _("bal")
        heading = f"   {player:<{name_width}}  {square:>2}  {money:>3}\n"
        text.append(heading, style="dim")
        to_move = None if state.phase == "over" else state.to_move
        for seat, (name, token) in enumerate(zip(self.names, self.tokens, strict=True)):
            text.append("▶" if seat == to_move else " ", style="bold")
            text.append(token.letter, style=token.style)
            shown = name if len(name) <= name_width else name[: name_width - 1] + "…"
            text.append(f" {shown:<{name_width}} ", style="bold" if seat == to_move else "")
            text.append(f"{self.squares[seat]:>3} ")
            balance = state.payouts[seat] - state.paid[seat]
            text.append(f"{balance:+4d}", style="green" if balance > 0 else "red")
            plight = fitted_plight(state.status[seat], width - _ROW_FIXED - name_width - 1)
            if plight:
                text.append(f" {plight}", style="italic yellow")
            text.append("\n")
        text.rstrip()
        return text
