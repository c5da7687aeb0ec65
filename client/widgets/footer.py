"""The footer of every screen: every key, and the command-palette hint only when it fits;
when even the keys do not, those that do nothing at the moment are left out, then those the
screen can spare (:data:`SPARE`), then the last ones before F1's: F1 always shows, and
lists them all, as the palette does. A game screen offers only what its reader can do at
the moment: its footer never shows the keys that do nothing now (F1 still lists them)."""

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


SPARE = "FOOTER_SPARE"
"""The class attribute (a set of binding actions) by which a screen or widget names its keys
the footer leaves out first when the keys do not fit: the replay's speed and throw number,
so that its coach keys (b, n) stay in view at 80 columns, in French too."""


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
    _spared = False  # then those the screen can spare (SPARE)
    _left_out: frozenset[str] = frozenset()  # and these, the last before F1, when still needed
    _waits = 0  # refreshes waited for the keys to be laid out, to measure them
    _recomposing = False  # composed again soon: the keys drawn are not the ones to measure

    def compose(self) -> ComposeResult:
        self._recomposing = False
        if self._bindings_ready:
            self._drawn = self._keys()
        spare = self._spare_actions() if self._spared else frozenset()
        # A key group's keys come first (composed into their group, which does not pass
        # here), then its label: the label goes when all its keys did (the group left
        # empty is not drawn: _fit).
        group_kept: bool | None = None  # a group's keys passed: whether any was kept
        for widget in super().compose():
            if isinstance(widget, FooterLabel):
                kept, group_kept = group_kept, None
                if kept is False:
                    continue
            elif isinstance(widget, FooterKey) and widget.has_class("-grouped"):
                spared = widget.action in spare
                group_kept = bool(group_kept) or not spared
                if spared:
                    continue
            elif isinstance(widget, FooterKey) and (
                ((self._crowded or self._usable_only) and widget.has_class("-disabled"))
                or widget.key in self._left_out
                or widget.action in spare
            ):
                continue
            yield _as_it_will_be(widget, self.compact)
        self.call_after_refresh(self._fit)

    def _spare_actions(self) -> frozenset[str]:
        """The actions of the keys the screen (or the widget with the focus) can spare: in
        view when there is room, the first to go when there is not (:data:`SPARE`)."""
        return frozenset(
            action
            for active in self.screen.active_bindings.values()
            for action in getattr(active.node, SPARE, ())
            if action == active.binding.action
        )

    def bindings_changed(self, screen: Screen[object]) -> None:
        # Textual builds the footer again whenever the screen's bindings may have changed
        # (every focus move, every refresh_bindings), which costs a restyle of every key:
        # most of those times the keys shown are the same.
        if self._drawn is not None and screen is self.screen and self._keys() == self._drawn:
            return
        # Other keys: what had to be left out for the last ones may fit now (a key that
        # came and went, the replay's coach keys once its analysis is done): fitted anew.
        self._crowded = self._spared = False
        self._left_out = frozenset()
        self.show_command_palette = True
        super().bindings_changed(screen)

    def _keys(self) -> list[tuple[Binding, bool, str]]:
        """The keys the footer shows, as Textual's compose lists them."""
        active = self.screen.active_bindings.values()
        return [(binding, enabled, tip) for _, binding, enabled, tip in active if binding.show]

    def _fit(self) -> None:
        # The hint is docked at the right, over the keys' last columns: the keys must end
        # where it starts, or the last key (F1) is cut under it. Then, if the keys alone are
        # still too wide (a French networked game: Écrire, Réclamer…), the keys that do
        # nothing now (drawn dimmed) go, then those the screen can spare (SPARE), then the
        # last before F1: F1 stays in view, and
        # every key is in F1's list and the palette.
        if self._recomposing:
            return  # measured once composed again (compose calls it after)
        for group in self.query_children(KeyGroup):
            if not group.children:  # its keys all spared (compose): nothing to draw
                group.display = False
        if any(not child.outer_size.width for child in self.children if child.display):
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
            self._refit()
        elif not self._crowded:
            self._crowded = True
            self._refit()
        elif not self._spared and self._spare_actions():
            self._spared = True
            self._refit()
        else:  # still too wide: the last keys before F1 go, as many as it takes
            left_out = self._left_out | self._overflowing()
            if left_out != self._left_out:
                self._left_out = left_out
                self._refit()

    def _refit(self) -> None:
        """Compose the keys again, as the fitting left them; until then, nothing is measured
        (a measure of the keys still drawn would leave out keys that fit once it is done)."""
        self._recomposing = True
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
            self._crowded = self._spared = False
            self._left_out = frozenset()
            self.show_command_palette = True
            self._refit()

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
