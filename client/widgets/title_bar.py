"""The line at the top of every screen: the icon, the app's title and the screen's subtitle.

It replaces Textual's ``Header``, which updates its title from *asynchronous* watchers: each
title change queues a coroutine on the header, and a header removed before the queue runs
(a screen closed mid-mount, the app quitting while a turn arrives) either never awaits it
("coroutine ... was never awaited") or runs it after its children are gone (``NoMatches``).
This bar has no children and its watchers only ask for a repaint, so it has nothing left
behind to run when it goes.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.widget import Widget

ICON_WIDTH = 8  # as Textual's header: the icon in a box of its own at the left


class TitleBar(Widget):
    """``app.title — screen.sub_title`` (the screen's own title when it sets one), centred;
    a click on the icon opens the command palette, as on Textual's header. When the line is
    too long for the terminal the app's title goes (the icon is there), then the end of the
    subtitle: a screen puts first what must be read (a session's score)."""

    DEFAULT_CSS = """
    TitleBar {
        dock: top;
        width: 100%;
        height: 1;
        background: $panel;
        color: $foreground;
    }
    """

    def __init__(self, icon: str = "⚅", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.icon = icon

    def on_mount(self) -> None:
        for node, attribute in (
            (self.app, "title"),
            (self.app, "sub_title"),
            (self.screen, "title"),
            (self.screen, "sub_title"),
        ):
            self.watch(node, attribute, self._retitle, init=False)

    def _retitle(self) -> None:
        self.refresh()

    @property
    def title_text(self) -> str:
        """What the bar says, as plain text (tests and the help read it)."""
        title, sub_title = self._titles()
        return f"{title} — {sub_title}" if sub_title else title

    def _titles(self) -> tuple[str, str]:
        screen = self.screen
        title = screen.title if screen.title is not None else self.app.title
        sub_title = screen.sub_title if screen.sub_title is not None else self.app.sub_title
        return title, sub_title

    def render(self) -> Text:
        title, sub_title = self._titles()
        width = self.size.width
        heading = Text(title)
        if sub_title:
            heading.append(" — ", "dim")
            heading.append(sub_title, "dim")
            if cell_len(heading.plain) > width - ICON_WIDTH:  # the icon says which app it is
                heading = Text(sub_title, "dim")
        icon = Text(f" {self.icon}".ljust(ICON_WIDTH), style="bold")
        start = max(ICON_WIDTH, (width - cell_len(heading.plain)) // 2)
        line = Text.assemble(icon, " " * (start - ICON_WIDTH), heading)
        line.truncate(width, overflow="ellipsis")
        return line

    def on_click(self, event: events.Click) -> None:
        if event.x < ICON_WIDTH:
            self.app.action_command_palette()
