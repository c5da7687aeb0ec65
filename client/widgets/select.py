"""Textual's ``Select``, lighter to build: the lobby's selects.

Closed, Textual's ``Select`` holds a ``SelectCurrent``, three ``Static`` widgets in it (the
value, ▼, and ▲ until it opens) and a hidden ``OptionList`` of every choice, filled as it
mounts: six widgets, each styled, given its message queue and laid out — about 25 ms of
CPU before the lobby's first paint for its three selects. :class:`LightSelect` is the
same select for the user, drawn by three widgets: its line's value and arrow are drawn by
one, and the list of choices is made when the select first opens (tests/client/test_select.py
compares the two, drawn cell by cell and used by keys and clicks).

It is also safe to mount while the app quits: Textual's ``Select`` sets its list up as it
mounts, which Textual does not compose once the app began to quit (``NoMatches``: ``ctrl+q``
as the lobby's Jacquet tab mounts); this one has no list to set up then.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar, TypeVar

from rich.console import RenderableType
from rich.text import Text
from textual import on
from textual.content import Content
from textual.css.query import NoMatches
from textual.strip import Strip
from textual.style import Style
from textual.visual import Visual
from textual.widget import Widget
from textual.widgets import Select
from textual.widgets._select import NoSelection, SelectCurrent, SelectOverlay

from client.lifecycle import closing

T = TypeVar("T")

ARROW_CLOSED, ARROW_OPEN = "▼", "▲"
PLACEHOLDER, ARROW = "select-line--placeholder", "select-line--arrow"


class SelectLineText(Widget):
    """What the three ``Static`` widgets of Textual's ``SelectCurrent`` show, drawn by one:
    the value (or the placeholder), a one-cell gap, the arrow (▲ while the select is open).

    Each part is rendered as Textual renders the widget it stands for, from the same CSS:
    the value in the text's colour, the placeholder and the arrow at half of it, and the
    cells past the value's text and the gap (the arrow widget's padding) with the background
    alone. One line: a value wider than the select is cut where Textual's would wrap onto a
    taller select (the lobby's choices are short words).
    """

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {PLACEHOLDER, ARROW}
    DEFAULT_CSS = """
    SelectLineText {
        width: 1fr;
        height: 1;
        color: $foreground;
        background: transparent;
        & > .select-line--placeholder {
            color: $foreground 50%;
        }
        & > .select-line--arrow {
            color: $foreground 50%;
        }
    }
    """

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base, own = self.background_colors
        background = Style(background=base + own).rich_style
        line = self.parent
        if y or not isinstance(line, SelectLine):
            return Strip.blank(width, background)
        label = line.placeholder if isinstance(line.label, NoSelection) else line.label
        text = Content.from_rich_text(label) if isinstance(label, Text) else Content(str(label))
        text_style = self.get_visual_style(*(() if line.has_value else (PLACEHOLDER,)))
        select = line.parent
        opened = select is not None and select.has_class("-expanded")
        arrow = Content(ARROW_OPEN if opened else ARROW_CLOSED)
        room = max(width - 2, 0)
        value = Visual.to_strips(self, text, room, 1, text_style)[0]
        parts = [
            value.adjust_cell_length(room, background),
            Strip.blank(1, background),
            Visual.to_strips(self, arrow, 1, 1, self.get_visual_style(ARROW))[0],
        ]
        return Strip.join(parts).adjust_cell_length(width, background)


class SelectLine(SelectCurrent):
    """Textual's ``SelectCurrent`` (its CSS, its click) with one child instead of three."""

    def compose(self) -> Iterator[Widget]:
        yield SelectLineText()

    def update(self, label: RenderableType | NoSelection) -> None:
        self.label = label
        self.has_value = not isinstance(label, NoSelection)
        for text in self.query(SelectLineText):
            text.refresh()


class LightSelect(Select[T]):
    """Textual's ``Select`` with a :class:`SelectLine`, and its list of choices made and
    mounted when it first opens (by a key or a click: both go through :meth:`_open`).
    Until then, what Textual does to the list waits for it; safe to mount while quitting."""

    _overlay: SelectOverlay | None = None  # the list of choices, once it first opens

    def compose(self) -> Iterator[Widget]:
        line = SelectLine(self.prompt)
        # With the class its value will give it (Select sets the value as it mounts): styled
        # once as it mounts, not again then.
        line.has_value = not (self._allow_blank and self._value == self.NULL)
        yield line

    async def _open(self) -> None:
        """Make and mount the list of choices, once: Textual's handlers then open it."""
        if self._overlay is None and not closing(self):
            self._overlay = SelectOverlay(type_to_search=self._type_to_search)
            self._overlay.compact = self.compact  # (kept so by _watch_compact)
            await self.mount(self._overlay)
            self._setup_options_renderables()

    @on(SelectCurrent.Toggle)
    async def _open_on_click(self) -> None:
        await self._open()  # before Select's own handler of the click, which opens it

    async def action_show_overlay(self) -> None:  # type: ignore[override]  # (Textual awaits it)
        await self._open()
        if self._overlay is not None:
            super().action_show_overlay()

    def _watch_compact(self, compact: bool) -> None:
        if self._overlay is not None:
            self._overlay.compact = compact

    def _setup_options_renderables(self) -> None:
        if self._overlay is not None:  # (else done when it is made)
            super()._setup_options_renderables()

    def _watch_value(self, value: T | NoSelection) -> None:
        if self._overlay is not None:
            super()._watch_value(value)
            return
        # Textual's watcher, less the list's highlight: opening the list highlights the
        # value (Select._watch_expanded).
        self._value = value
        try:
            line = self.query_one(SelectLine)
        except NoMatches:
            return
        if value == self.NULL:
            line.update(self.NULL)
        else:
            for prompt, option in self._options:
                if option == value:
                    line.update(prompt)
                    break
        self.post_message(self.Changed(self, value))

    def _watch_prompt(self, prompt: str) -> None:
        if self._overlay is not None or not self.is_mounted:
            super()._watch_prompt(prompt)
            return
        # Textual's watcher, less the list's first entry (made from the prompt later).
        line = self.query_one(SelectLine)
        line.placeholder = prompt
        if self._allow_blank and self.value == self.NULL:
            line.update(self.NULL)
