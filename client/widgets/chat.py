"""The chat panel: signed lines from the players, and a line to type into (``t``)."""

from __future__ import annotations

import time
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, RichLog, Static

from client.game.driver import ChatChannel, seated
from client.game.turn import NotYourTurnError
from client.i18n import N_, _
from client.lifecycle import closing
from protocol.bounds import MAX_CHAT_CHARS

READ_ONLY_NOTE = N_("You are watching: you read the players' chat but cannot write in it.")


class ChatInput(Input):
    """Enter sends; escape hands the keys back to the board."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "screen.focus_board", N_("Back to the board"), show=False),
    ]


class ChatPanel(Vertical):
    """Lines as they come (``add``), and an input when this terminal may speak (a spectator
    reads the players' chat and says nothing: the relay forwards nothing of his)."""

    def __init__(self, channel: ChatChannel, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.channel = channel

    def on_mount(self) -> None:
        if closing(self):
            return
        for line in self.channel.chat_history:
            self.add(seated(line.name, line.seat), line.text, line.time)

    def compose(self) -> ComposeResult:
        # min_width: RichLog renders lines at least 78 wide by default, cut by the side panel
        yield RichLog(wrap=True, markup=False, auto_scroll=True, min_width=20, id="chat-log")
        if self.channel.can_speak:
            yield ChatInput(
                placeholder=_("t to chat, enter to send"),
                max_length=MAX_CHAT_CHARS,
                id="chat-input",
                compact=True,
            )
        else:  # said, rather than an empty panel and a t key that does nothing
            yield Static(_(READ_ONLY_NOTE), id="chat-note", markup=False)

    def add(self, name: str, text: str, sent_ms: int | None = None) -> None:
        moment = time.localtime((sent_ms or time.time() * 1000) / 1000)
        line = Text(f"{moment.tm_hour:02d}:{moment.tm_min:02d} ", style="dim")
        # The name in bold, where the language puts it ("Bob: …", "Bob : …").
        before, _name, after = _("{name}: {text}").partition("{name}")
        line.append(before.format(text=text))
        line.append(name, style="bold")
        line.append(after.format(text=text))
        self.query_one("#chat-log", RichLog).write(line)

    def focus_input(self) -> None:
        for field in self.query(ChatInput):
            field.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text or not self.channel.can_speak:
            return
        try:
            self.channel.chat(text)
        except NotYourTurnError as refusal:
            self.app.notify(str(refusal), title=_("Not sent"), severity="warning")
            return
        event.input.value = ""
