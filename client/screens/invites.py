"""The room's invites, at any time of a networked match: a player shows and copies them to
bring in a spectator (or a friend back to his seat) once the room screen is gone."""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label

from client.game.driver import RoomInvites
from client.i18n import N_, _
from client.widgets.footer import KeysFooter


class InvitesScreen(ModalScreen[None]):
    """The player and spectator invites (those this terminal holds), each whole on its own
    lines, and the keys that copy them."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "copy('player')", N_("Copy invite"), tooltip=N_("Copy the player invite")),
        Binding("w", "copy('watch')", N_("Copy watch invite"),
                tooltip=N_("Copy the spectator invite")),
        Binding("escape,i", "dismiss", N_("Back"), tooltip=N_("Back to the game")),
    ]

    def __init__(self, invites: RoomInvites) -> None:
        super().__init__()
        self.invites = invites

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(_("This room's invites"), id="question", markup=False)
            if self.invites.player is not None:
                yield Label(_("Player invite (c copies it):"), markup=False)
                yield Label(self.invites.player, id="invite-player", classes="invite",
                            markup=False)  # fmt: skip
            if self.invites.watch is not None:
                yield Label(_("Spectator invite (w copies it):"), markup=False)
                yield Label(self.invites.watch, id="invite-watch", classes="invite",
                            markup=False)  # fmt: skip
        yield KeysFooter()  # the dialog's own keys, not those of the screen below

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "copy":
            which = self.invites.player if parameters == ("player",) else self.invites.watch
            return which is not None
        return True

    @work(group="copy")
    async def action_copy(self, which: str) -> None:
        from client.clipboard import copy_text

        invite = self.invites.player if which == "player" else self.invites.watch
        if invite is None:
            return
        copied = await copy_text(invite, self.app.copy_to_clipboard)
        what = _("The player invite") if which == "player" else _("The spectator invite")
        self.notify(copied.sentence(what), timeout=8 if copied.where else 15, markup=False)
