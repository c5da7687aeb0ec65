"""The end of a game: who won and how, the pot or points, where the log is, what next."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Literal

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Label

EndChoice = Literal["again", "lobby", "quit"]
END_CHOICES: dict[str, EndChoice] = {"again": "again", "lobby": "lobby", "quit": "quit"}


@dataclass(frozen=True, slots=True)
class GameSummary:
    """What the end screen shows; built by the game screen from its final state."""

    title: str
    lines: tuple[str, ...]
    log_path: Path | None


class EndScreen(ModalScreen[EndChoice]):
    """Dismissed with the player's choice; the app acts on it (``handle_end_choice``)."""

    AUTO_FOCUS = "#again"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "choose('again')", "Play again"),
        Binding("l", "choose('lobby')", "Lobby"),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def __init__(self, summary: GameSummary) -> None:
        super().__init__()
        self.summary = summary

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.summary.title, id="title", markup=False)
            for line in self.summary.lines:
                yield Label(line, classes="result-line", markup=False)
            if self.summary.log_path is None:
                yield Label("No match log was written.", id="log-path", markup=False)
            else:
                yield Label(
                    f"Match log saved to {self.summary.log_path}", id="log-path", markup=False
                )
            with Horizontal(id="buttons"):
                yield Button("Play again (a)", variant="success", id="again")
                yield Button("Lobby (l)", variant="primary", id="lobby")
                yield Button("Quit (q)", id="quit")
        yield Footer()  # the dialog's own keys, not those of the screen below

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_choose(str(event.button.id))

    def action_choose(self, choice: str) -> None:
        chosen: EndChoice | None = END_CHOICES.get(choice)
        if chosen is not None:
            self.dismiss(chosen)
