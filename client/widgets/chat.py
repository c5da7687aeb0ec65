"""The chat panel: signed lines from the other players, and a line to type into (``t``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, RichLog

from client.lifecycle import closing

MAX_CHAT_CHARS = 500


class ChatInput(Input):
    """Enter sends; escape hands the keys back to the board."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "screen.focus_board", "Back to the board", show=False),
    ]


class ChatPanel(Vertical):
    """Lines as they come (``add``), and an input when this terminal may speak."""

    def __init__(
        self,
        send: Callable[[str], str | None] | None,
        *,
        said: Sequence[tuple[str, str, int]] = (),
        id: str | None = None,
    ) -> None:
        """``said``: (name, text, ms) lines from before this panel existed, shown first."""
        super().__init__(id=id)
        self._send = send
        self._said = said

    def on_mount(self) -> None:
        if closing(self):
            return
        for name, text, sent_ms in self._said:
            self.add(name, text, sent_ms)

    def compose(self) -> ComposeResult:
        # min_width: RichLog renders lines at least 78 wide by default, cut by the side panel
        yield RichLog(wrap=True, markup=False, auto_scroll=True, min_width=20, id="chat-log")
        if self._send is not None:
            yield ChatInput(
                placeholder="t to chat, enter to send",
                max_length=MAX_CHAT_CHARS,
                id="chat-input",
                compact=True,
            )

    def add(self, name: str, text: str, sent_ms: int | None = None) -> None:
        moment = time.localtime((sent_ms or time.time() * 1000) / 1000)
        line = Text(f"{moment.tm_hour:02d}:{moment.tm_min:02d} ", style="dim")
        line.append(name, style="bold")
        line.append(f": {text}")
        self.query_one("#chat-log", RichLog).write(line)

    def focus_input(self) -> None:
        if self._send is not None:
            self.query_one(ChatInput).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text or self._send is None:
            return
        problem = self._send(text)
        if problem:
            self.app.notify(problem, title="Not sent", severity="warning")
            return
        event.input.value = ""
