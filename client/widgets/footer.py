"""The footer of every screen: every key, and the command-palette hint only when it fits;
when even the keys do not, those that do nothing at the moment are left out, then those the
screen can spare, then the last ones before F1's: F1 always shows, and lists them all, as
the palette does. A game screen offers only what its reader can do at the moment: its
footer never shows the keys that do nothing now (F1 still lists them)."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import (  # not exported, but the types of what it yields
    FooterKey,
    FooterLabel,
    KeyGroup,
)

from client.i18n import _

HELP_KEY = "f1"
"""The key the footer keeps in view whatever else it must leave out (client/app.py binds it)."""


MAX_WAITS = 50
"""Refreshes the footer waits for its keys to be laid out before it gives up measuring them
(a key drawn with no width at all would otherwise keep it waiting)."""


class KeysFooter(Footer):
    """Textual's footer, in the language in use, dropping its right-hand "^p palette" hint
    when the keys need the room: on a networked game at 80 columns (chat, claim) the hint
    covered the last keys, F1 Help among them. ctrl+p still opens the palette, and the
    help's key table lists it.

    Key labels and tooltips are declared as catalogue entries (``N_``, in the class bodies
    that are imported once) and translated here, as they are drawn: a language chosen after
    import (the lobby's setting) shows at once."""

    def __init__(self, *, compact: bool = False, usable_only: bool = False) -> None:
        """*usable_only*: leave out the keys that do nothing now (``check_action`` None)
        whatever the room, not only when the keys need it."""
        super().__init__(compact=compact)
        self._usable_only = usable_only

    _width = 0
    _drawn: list[tuple[Binding, bool, str]] | None = None  # the keys it shows
    _crowded = False  # the keys that do nothing now are left out, for room
    _left_out: frozenset[str] = frozenset()  # and these, the last before F1, when still needed
    _waits = 0  # refreshes waited for the keys to be laid out, to measure them

    def compose(self) -> ComposeResult:
        if self._bindings_ready:
            self._drawn = self._keys()
        for widget in super().compose():
            if isinstance(widget, FooterKey) and (
                ((self._crowded or self._usable_only) and widget.has_class("-disabled"))
                or widget.key in self._left_out
            ):
                continue
            yield _as_it_will_be(widget, self.compact)
        self.call_after_refresh(self._fit)

    def bindings_changed(self, screen: Screen[object]) -> None:
        # Textual builds the footer again whenever the screen's bindings may have changed
        # (every focus move, every refresh_bindings), which costs a restyle of every key:
        # most of those times the keys shown are the same.
        if self._drawn is not None and screen is self.screen and self._keys() == self._drawn:
            return
        super().bindings_changed(screen)

    def _keys(self) -> list[tuple[Binding, bool, str]]:
        """The keys the footer shows, as Textual's compose lists them."""
        active = self.screen.active_bindings.values()
        return [(binding, enabled, tip) for _, binding, enabled, tip in active if binding.show]

    def _fit(self) -> None:
        # The hint is docked at the right, over the keys' last columns: the keys must end
        # where it starts, or the last key (F1) is cut under it. Then, if the keys alone are
        # still too wide (a French networked game: Écrire, Réclamer…), the keys that do
        # nothing now (drawn dimmed) go, then the last before F1: F1 stays in view, and
        # every key is in F1's list and the palette.
        if any(not child.outer_size.width for child in self.children):
            if self._waits < MAX_WAITS:  # not laid out yet: measured after the next refresh
                self._waits += 1
                self.call_after_refresh(self._fit)
            return
        self._waits = 0
        palette = list(self.query(".-command-palette"))  # (one being taken away: not shown)
        hint = palette if self.show_command_palette else []
        keys = [child for child in self.children if child not in palette]
        # Where the keys end, read from the keys themselves: the virtual size may still be
        # the one of the keys drawn before (wider, with keys since left out).
        end = max((key.region.right for key in keys), default=self.region.x)
        if end <= min((key.region.x for key in hint), default=self.region.right):
            return
        if self.show_command_palette:
            self.show_command_palette = False
            self.call_after_refresh(self.recompose)
        elif not self._crowded:
            self._crowded = True
            self.call_after_refresh(self.recompose)
        else:  # still too wide: the last keys before F1 go, as many as it takes
            left_out = self._left_out | self._overflowing()
            if left_out != self._left_out:
                self._left_out = left_out
                self.call_after_refresh(self.recompose)

    def _overflowing(self) -> frozenset[str]:
        """The keys, in the footer's order, that do not fit beside F1 (which always does)."""
        shown = list(self.query_children(FooterKey))  # (a key group's keys stay: they lead)
        helps = [key for key in shown if key.key == HELP_KEY]
        right = self.region.right - sum(key.outer_size.width + 1 for key in helps)  # +gutter
        return frozenset(
            key.key for key in shown
            if key.key != HELP_KEY and not key.has_class("-command-palette")
            and key.region.right > right
        )  # fmt: skip

    def on_resize(self, event: events.Resize) -> None:
        wider = event.size.width > self._width
        self._width = event.size.width
        if wider and (self._crowded or not self.show_command_palette):  # room again: try
            self._crowded = False
            self._left_out = frozenset()
            self.show_command_palette = True
            self.call_after_refresh(self.recompose)

    def watch_virtual_size(self) -> None:
        """The keys are laid out (their width is known only then): they may not fit."""
        self.call_after_refresh(self._fit)


def _as_it_will_be(widget: Widget, compact: bool) -> Widget:
    """A key translated, and made compact or not before it is mounted. Textual's keys start
    compact and are set as their footer is by a binding once mounted: a restyle or two of
    every key each time the footer is built again (after every focus move), a tenth of a
    screen's start. The palette's key is not bound to its footer: it stays compact, as
    Textual draws it."""
    _translate(widget)
    if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
        widget.set_reactive(FooterKey.compact, compact)
        widget.set_class(compact, "-compact", update=False)
    return widget


def _translate(widget: Widget) -> None:
    """A key's label and tooltip, a key group's label, in the language in use."""
    if isinstance(widget, FooterKey):
        widget.description = _(widget.description) if widget.description else ""
        if isinstance(widget.tooltip, str) and widget.tooltip:
            widget.tooltip = _(widget.tooltip)
    elif isinstance(widget, FooterLabel):
        widget.update(_(str(widget.content)))
    elif isinstance(widget, KeyGroup):  # its keys, composed into it, not yet mounted
        for key in widget._pending_children:
            _translate(key)
