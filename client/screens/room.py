"""The waiting room (host, join, watch) and the lobby's form for pasting an invite.

:class:`RoomScreen` enters a relay room — creating it first when hosting, with an embedded
relay when no ``--relay`` was given — and shows the invites (``c`` copies the player's, ``w``
the spectator's), who has joined and the connection. When the host has seated everyone, it
gives way to the networked game screen. :class:`JoinScreen` is the lobby's way in: paste an
invite (a player's or a spectator's), give a name, press enter.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Static

from client.lifecycle import closing
from client.net.invite import Invite, InviteError, parse_invite
from client.widgets.title_bar import TitleBar

if TYPE_CHECKING:
    from client.app import TablierApp
    from client.net.room import Room
    from client.setup import SessionSettings

GAME_TITLES = {"goose": "Jeu de l'oie", "jacquet": "Jacquet"}


@dataclass(frozen=True, slots=True)
class HostPlan:
    """What ``tablier host`` (or the lobby) asks for."""

    game: str
    options: dict[str, int | str]
    seats: int
    name: str
    relay_url: str | None = None  # None: an embedded relay on ``listen``
    listen: tuple[str, int] = ("127.0.0.1", 0)
    computer: bool = False
    level: int = 1
    invite_file: Path | None = None


@dataclass(frozen=True, slots=True)
class JoinPlan:
    """What ``tablier join`` / ``tablier watch`` (or the lobby's form) asks for."""

    invite: Invite
    name: str
    computer: bool = False
    level: int = 1


class RoomScreen(Screen[None]):
    """Entering a room and waiting in it until the match begins."""

    CSS_PATH = "../net.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "copy('player')", "Copy invite", tooltip="Copy the player invite"),
        Binding("w", "copy('watch')", "Copy watch invite", tooltip="Copy the spectator invite"),
        Binding("escape", "leave", "Leave", tooltip="Leave the room for the lobby"),
    ]

    def __init__(self, plan: HostPlan | JoinPlan, settings: SessionSettings) -> None:
        super().__init__()
        self.plan = plan
        self.settings = settings
        self.room: Room | None = None
        self._handed_over = False
        self._failure = ""  # what _fail said last: said once, not once per update

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Vertical(id="room"):
            yield Static(self._title(), id="room-title", markup=False)
            yield Static("", id="room-invites", markup=False)
            yield Static("", id="room-members", markup=False)
            yield Static("Connecting to the relay…", id="room-status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        if closing(self):
            return
        self._enter()
        self.set_interval(0.5, self._refresh)

    def _title(self) -> str:
        plan = self.plan
        if isinstance(plan, HostPlan):
            return f"Hosting {GAME_TITLES[plan.game]} for {plan.seats} players"
        if plan.invite.role == "watch":
            return "Watching a match"
        return "Joining a match"

    # -- entering -------------------------------------------------------------------------

    @work(exclusive=True, group="room")
    async def _enter(self) -> None:
        from client.net.link import LinkFailed
        from client.net.room import host_room, join_room, start_embedded_relay
        from relay.client import RelayError

        plan = self.plan
        try:
            if isinstance(plan, HostPlan):
                url = plan.relay_url
                embedded = None
                if url is None:
                    embedded = await start_embedded_relay(*plan.listen)
                    url = embedded.local_url
                room = await host_room(
                    url,
                    plan.game,
                    plan.options,
                    seats=plan.seats,
                    name=plan.name,
                    settings=self.settings,
                )
                if embedded is not None:
                    room.closers.append(embedded.close)
                    room.listen = embedded.listen
                    room.invite = _public(room.invite, embedded.public_url)
                    if room.spectator_invite is not None:
                        room.spectator_invite = _public(room.spectator_invite, embedded.public_url)
                if plan.invite_file is not None:
                    _write_invites(plan.invite_file, room)
            else:
                room = await join_room(plan.invite, name=plan.name, settings=self.settings)
        except (OSError, RelayError, ValueError) as error:
            self._fail(f"Could not open the room: {error}")
            return
        self.room = room
        if room.notice is not None:
            self.notify(room.notice, title="Your seat", timeout=10)
        room.match.listeners.append(self._changed)
        self._refresh()
        try:
            await room.wait_started()
        except LinkFailed as error:
            self._fail(str(error))
            return
        self._begin()

    def _fail(self, text: str) -> None:
        if text == self._failure:
            return
        self._failure = text
        self.query_one("#room-status", Static).update(Text(f"✖ {text}", style="bold red"))
        self.notify(text, title="Cannot enter the room", severity="error", timeout=15)

    def _changed(self) -> None:
        if self.room is not None and self.room.failure is not None:
            self._fail(self.room.failure)
        self._refresh()

    def _begin(self) -> None:
        """Everyone is seated: the game screen takes over (and the room with it)."""
        from client.net.screens import screen_for

        assert self.room is not None
        plan = self.plan
        game = self.room.game(self.settings, computer=plan.computer, level=plan.level)
        self.room.match.listeners.remove(self._changed)
        self._handed_over = True
        self.app.switch_screen(screen_for(game, animation=self.settings.animation))

    # -- showing --------------------------------------------------------------------------

    def _refresh(self) -> None:
        from client.widgets.connection import describe_link

        room = self.room
        if room is None:
            return
        match = room.match
        invites = Text()
        if isinstance(self.plan, HostPlan):
            invites.append("Invite a player (c copies it):\n", style="bold")
            invites.append(room.invite.encode() + "\n\n")
            if room.spectator_invite is not None:
                invites.append("Invite spectators (w copies it):\n", style="bold")
                invites.append(room.spectator_invite.encode())
        self.query_one("#room-invites", Static).update(invites)
        members = Text()
        proposal = match.meeting.proposal
        if proposal is not None:
            options = ", ".join(f"{name} {value}" for name, value in proposal.options)
            title = GAME_TITLES.get(proposal.game, proposal.game)
            seated = f"{len(match.meeting.joins)} of {proposal.seats} seated"
            members.append(f"{title} ({options}): {seated}\n", style="bold")
            for seat, join in enumerate(match.meeting.joins):
                members.append(f"  {seat + 1}. {join.name}")
                members.append(" (you)\n" if join.public_key == match.identity.public_key else "\n")
            if len(match.meeting.joins) < proposal.seats:
                members.append("  Waiting for players…", style="italic")
        else:
            members.append("Waiting for the host's proposal…", style="italic")
        self.query_one("#room-members", Static).update(members)
        if room.failure is None:
            self.query_one("#room-status", Static).update(describe_link(room.link.status))

    # -- keys -----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "copy":  # only the host has invites to hand out: hidden for the others
            return isinstance(self.plan, HostPlan)
        return True

    def action_copy(self, which: str) -> None:
        room = self.room
        if room is None:
            return
        invite = room.invite if which == "player" else room.spectator_invite
        if invite is None:
            return
        self.app.copy_to_clipboard(invite.encode())
        self.notify(f"{'Player' if which == 'player' else 'Spectator'} invite copied.")

    def action_leave(self) -> None:
        self.app.pop_screen()

    def on_unmount(self) -> None:
        if self.room is not None and not self._handed_over:
            room = self.room
            room.match.listeners.remove(self._changed)
            cast("TablierApp", self.app).close_later(room.close)


def _public(invite: Invite, relay_url: str) -> Invite:
    return Invite(relay_url, invite.room_id, invite.token, invite.role)


def _write_invites(path: Path, room: Room) -> None:
    lines = [room.invite.encode()]
    if room.spectator_invite is not None:
        lines.append(room.spectator_invite.encode())
    temporary = path.with_suffix(path.suffix + ".tmp")
    temporary.write_text("\n".join(lines) + "\n")
    temporary.replace(path)  # whole or not at all: a script may be waiting for it


class JoinScreen(Screen[None]):
    """The lobby's form: paste an invite, give a name, join (or watch, with a watch invite)."""

    CSS_PATH = "../net.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back", tooltip="Back to the lobby"),
    ]

    def __init__(self, settings: SessionSettings, name: str = "") -> None:
        super().__init__()
        self.settings = settings
        self._name = name

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Vertical(id="join-form"):
            yield Label("Paste the invite a friend sent you (tablier://…):", markup=False)
            yield Input(placeholder="tablier://host:port/room?player=…", id="join-invite")
            yield Label("Your name:", markup=False)
            yield Input(self._name, placeholder="Your name", max_length=20, id="join-name")
            with Horizontal(classes="actions"):
                yield Button("Join", variant="success", id="join-go")
                yield Static("", id="join-error", classes="error", markup=False)
        yield Footer()

    @on(Input.Submitted)
    @on(Button.Pressed, "#join-go")
    def _go(self) -> None:
        error = self.query_one("#join-error", Static)
        name = self.query_one("#join-name", Input).value.strip()
        try:
            invite = parse_invite(self.query_one("#join-invite", Input).value)
        except InviteError as problem:
            error.update(str(problem).capitalize())
            return
        if not name:
            error.update("Give a name the other players will see.")
            return
        self.app.switch_screen(RoomScreen(JoinPlan(invite, name), self.settings))
