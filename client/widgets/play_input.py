"""The line a Jacquet play is typed into (``1/7 7/12``), beside the board's cursor entry."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Input

from client.i18n import N_, _
from protocol.bounds import MAX_PLAY_CHARS


class PlayInput(Input):
    """Hidden until opened; enter submits (the screen enters the play), escape closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", N_("Back to the board"), tooltip=N_("Close the typed entry")),
    ]

    class Closed(Message):
        """The person closed the line without entering anything."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            placeholder=_("e.g. 1/7 7/12, then enter"),  # whole in the 28-column panel
            max_length=MAX_PLAY_CHARS,
            id=id,
            compact=True,
            select_on_focus=False,  # a digit typed on the board opens it: type on after it
        )
        self.display = False

    def open(self, text: str = "") -> None:
        self.value = text
        self.cursor_position = len(text)
        self.display = True
        self.focus()

    def close(self) -> None:
        self.value = ""
        self.display = False

    def action_close(self) -> None:
        self.close()
        self.post_message(self.Closed())
