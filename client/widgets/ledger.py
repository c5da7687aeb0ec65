"""The Goose ledger: the pot, and for every seat its square, its balance and its plight."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from client.widgets.tokens import Token
from engine.goose import GooseState

# Short enough for the 30-column side panel; the help screen explains them. The hazard comes
# first: when a long name leaves no room, "prison: h…" still says where, not "held: pr…".
PLIGHTS: dict[str, str] = {
    "inn": "inn: skips",
    "well": "well: held",
    "prison": "prison: held",
}


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
        name_width = max(len(name) for name in self.names)
        text.append(f"   {'player':<{name_width}}  sq  bal\n", style="dim")
        to_move = None if state.phase == "over" else state.to_move
        for seat, (name, token) in enumerate(zip(self.names, self.tokens, strict=True)):
            text.append("▶" if seat == to_move else " ", style="bold")
            text.append(token.letter, style=token.style)
            text.append(f" {name:<{name_width}} ", style="bold" if seat == to_move else "")
            text.append(f"{self.squares[seat]:>3} ")
            balance = state.payouts[seat] - state.paid[seat]
            text.append(f"{balance:+4d}", style="green" if balance > 0 else "red")
            plight = PLIGHTS.get(state.status[seat])
            if plight:
                text.append(f" {plight}", style="italic yellow")
            text.append("\n")
        text.rstrip()
        return text
