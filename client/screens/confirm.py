"""A yes/no question asked before something that cannot be undone (quitting a game)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from client.i18n import N_, _, pgettext
from client.widgets.footer import KeysFooter


class ConfirmScreen(ModalScreen[bool]):
    """Dismissed with ``True`` when confirmed, ``False`` otherwise."""

    AUTO_FOCUS = "#no"
    BINDINGS: ClassVar[list[BindingType]] = [
        # Translated when the module is imported: the app's modules load after the language
        # is chosen (client/cli.py imports them only to run a command).
        # Yes is "y" in English and "o" (oui) in French; the one the language does not use is
        # hidden from the footer and does nothing, so one key is shown and one key answers.
        Binding("y", "yes('y')", N_("Yes")),
        Binding("o", "yes('o')", N_("Yes")),
        Binding("n,escape", "answer(False)", N_("No")),
    ]

    def __init__(
        self,
        question: str,
        *,
        detail: str = "",
        confirm_label: str = _("Yes"),
        cancel_label: str = _("Keep playing"),
    ) -> None:
        super().__init__()
        self.question = question
        self.detail = detail
        self.confirm_label = confirm_label
        self.cancel_label = cancel_label

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.question, id="question", markup=False)
            if self.detail:
                yield Label(self.detail, id="detail", markup=False)
            with Horizontal(id="buttons"):
                yield Button(f"{self.confirm_label} ({yes_key()})", variant="error", id="yes")
                yield Button(f"{self.cancel_label} (n)", variant="primary", id="no")
        yield KeysFooter()  # the dialog's own keys, not those of the screen below

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "yes":
            return parameters == (yes_key(),)
        return True

    def action_yes(self, key: str) -> None:
        self.dismiss(True)

    def action_answer(self, confirmed: bool) -> None:
        self.dismiss(confirmed)


def yes_key() -> str:
    """The key that answers yes in the language in use."""
    return pgettext("the key that answers yes to a question", "y")


def forget_question(question: str, title: str) -> ConfirmScreen:
    """Asked before a match left in progress is forgotten (its seat file goes, its log stays):
    *question* names it ("Forget this match?"), *title* is how the list shows it."""
    return ConfirmScreen(
        question,
        detail=title + "\n" + _("You could not go back into it; its log stays."),
        confirm_label=_("Forget"),
        cancel_label=_("Keep it"),
    )
