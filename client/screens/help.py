"""The help screen: a rules summary for the current game, every key it answers to, then the
game's rules in full."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, Markdown

from client import help_topics
from client.i18n import N_, _
from client.widgets.footer import KeysFooter
from client.widgets.too_small import minimum_size


class _HelpBody(VerticalScroll):
    """The rules and keys, longer than a small terminal: the footer says it scrolls."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "scroll_down", N_("Scroll"), key_display="↓↑"),
        Binding("up", "scroll_up", N_("Scroll up"), show=False),
    ]


class HelpScreen(ModalScreen[None]):
    """Opened with F1 from any screen; the screen tells which rules to show (``HELP_TEXT``,
    and after the keys a game's rules in full, ``FULL_RULES``)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f1,q", "dismiss", N_("Close help"))]

    def __init__(self, rules: str, keys: list[tuple[str, str]], full_rules: str = "") -> None:
        super().__init__()
        self.rules = rules
        self.keys = keys
        self.full_rules = full_rules

    @classmethod
    def for_screen(cls, screen: Screen[object]) -> HelpScreen:
        """Help for *screen*: its ``HELP_TEXT`` and the keys it and the app answer to now."""
        rules = getattr(screen, "HELP_TEXT", _(help_topics.LOBBY))
        # In a defined order: the screen's keys as it declares them, then those of the
        # widget with the focus (the board's cursor), then the app's (help, quit), then the
        # palette. Textual's active bindings put the app's first.
        keys: dict[str, str] = {}
        app_keys: dict[str, str] = {}
        widget_groups: dict[str, str] = {}  # a focused widget's key group: its keys, one row
        for active in screen.active_bindings.values():
            binding = active.binding
            if active.node not in (screen, screen.app):
                if not binding.show:
                    continue
                if binding.group is not None:  # the board's cursor keys, shown in the footer
                    key = screen.app.get_key_display(binding)
                    description = _(binding.group.description)
                    group_keys = widget_groups.get(description, "")
                    if key not in group_keys:  # left and h: one binding, one key shown
                        widget_groups[description] = group_keys + key
                continue  # focus moves, copying, a widget's scrolling: not the game's keys
            if not binding.show and (not binding.description or not _ours(active.node, binding)):
                # A key's shortcut (a digit starting a typed play), or Textual's own hidden
                # keys (focus moves, the palette: listed below): not a key of this screen's.
                # Tablier's keys kept off a full footer (hints, resign) are listed here.
                continue
            table = keys if active.node is screen else app_keys
            described = (*keys.values(), *app_keys.values())
            description = _(binding.description) if binding.description else ""
            if description and description not in described:
                table[screen.app.get_key_display(binding)] = description
        for description, group_keys in widget_groups.items():
            keys.setdefault(group_keys, description)
        for key, description in app_keys.items():
            keys.setdefault(key, description)
        keys.setdefault(screen.app.get_key_display(Binding("ctrl+p", "")), _("Command palette"))
        full_rules = getattr(screen, "FULL_RULES", "")
        return cls(rules, list(keys.items()), _(full_rules) if full_rules else "")

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            with _HelpBody(id="help-body"):
                yield Markdown(self.rules + "\n" + self._keys_markdown(), id="rules")
            yield Label(_("Press Esc or F1 to go back"), id="close-hint", markup=False)
        yield KeysFooter()  # the dialog's own keys, not those of the screen below

    def on_mount(self) -> None:
        # The rules in full (a long page, with tables) double the time the help takes to
        # open: they are laid out once the summary and the keys are on the screen.
        if self.full_rules:
            self.call_after_refresh(self._show_full_rules)

    def _show_full_rules(self) -> None:
        self.query_one(_HelpBody).mount(Markdown(self.full_rules, id="full-rules"))

    def _keys_markdown(self) -> str:
        rows = "\n".join(f"| `{key}` | {description} |" for key, description in self.keys)
        table = _("## Keys\n\n| key | does |\n|---|---|\n{rows}\n").format(rows=rows)
        size = _("Tablier needs a terminal of at least {minimum} (columns by rows); a smaller "
                 "one shows a sentence saying so until it is made bigger, and the screen "
                 "comes back as it was.").format(minimum=minimum_size())  # fmt: skip
        return f"{table}\n{size}\n"


def _ours(node: object, binding: Binding) -> bool:
    """Whether *binding* is declared by one of Tablier's classes (not inherited from
    Textual's), for the node it is active on."""
    declared = (
        (item.action, item.description)
        for cls in type(node).__mro__
        if cls.__module__.startswith("client.")
        for item in cls.__dict__.get("BINDINGS", ())
        if isinstance(item, Binding)  # (a key made from a key of its own: split, same action)
    )
    return (binding.action, binding.description) in declared
