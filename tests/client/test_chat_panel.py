"""The chat panel in the side column: a line longer than the column wraps, none is cut."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import RichLog

from client.widgets.chat import ChatPanel
from protocol.events import ChatReceived

LINE = "Bonjour Bob, bonne chance ! Que le meilleur gagne, et pas de postillon bloqué."


class Channel:
    """A chat channel that takes every line (the panel's only partner)."""

    can_speak = True
    chat_history: tuple[ChatReceived, ...] = ()

    def chat(self, text: str) -> None:
        pass


class NarrowChat(App[None]):
    CSS = "ChatPanel { width: 30; height: 12; }"

    def compose(self) -> ComposeResult:
        yield ChatPanel(Channel(), id="chat")


async def test_a_long_chat_line_wraps_inside_a_narrow_side_panel() -> None:
    app = NarrowChat()
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.query_one(ChatPanel)
        panel.add("Ada", LINE, sent_ms=0)
        await pilot.pause()
        log = panel.query_one("#chat-log", RichLog)
        assert log.virtual_size.width <= log.scrollable_content_region.width
        shown = " ".join(" ".join(strip.text.split()) for strip in log.lines)
        assert "Ada: " + LINE in shown  # every word there, on several lines
        assert len(log.lines) > 2
