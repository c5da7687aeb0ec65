"""The waiting room (host, join, watch) and the lobby's form for pasting an invite.

:class:`RoomScreen` enters a relay room — creating it first when hosting, with an embedded
relay when no ``--relay`` was given — and shows the invites (``c`` copies the player's, ``w``
the spectator's), who has joined and the connection. When the host has seated everyone, it
gives way to the networked game screen. :class:`JoinScreen` is the lobby's way in: paste an
invite (a player's or a spectator's), give a name, press enter.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import HorizontalScroll, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Static

from client.i18n import N_, _, ngettext, os_reason_of, path_shown, printable, words
from client.lifecycle import closing
from client.messages import CloseLater, OpenGame, RoomOpened
from client.net.invite import InviteError, parse_invite
from client.net.plan import STDOUT, HostPlan, JoinPlan
from client.setup import name_refusal
from client.widgets.footer import KeysFooter
from client.widgets.title_bar import TitleBar
from protocol.games import OptionValue, game_named, said_options

if TYPE_CHECKING:
    from client.net.room import Room
    from client.setup import SessionSettings


INVITE_LABELS: dict[str, tuple[str, str]] = {
    "player": (N_("Invite a player (c copies it):"),
               N_("Invite a player (c copies it whole; → shows the rest):")),
    "watch": (N_("Invite spectators (w copies it):"),
              N_("Invite spectators (w copies it whole; tab then → shows the rest):")),
}  # fmt: skip
"""Each invite's heading: whole on its line, or longer than the line (at 80 columns an
invite is some 100 characters), which the heading then says, with the keys to the rest."""


class InviteLine(HorizontalScroll):
    """One invite on one line, scrolled sideways when the screen is narrower: ``←``/``→``,
    and ``home``/``end`` to its start and its end."""

    def action_scroll_home(self) -> None:
        self.scroll_to(x=0)

    def action_scroll_end(self) -> None:
        self.scroll_to(x=self.max_scroll_x)


class RoomScreen(Screen[None]):
    """Entering a room and waiting in it until the match begins."""

    CSS_PATH = "../net.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "copy('player')", N_("Copy invite"), tooltip=N_("Copy the player invite")),
        Binding("w", "copy('watch')", N_("Copy watch invite"),
                tooltip=N_("Copy the spectator invite")),
        Binding("escape", "leave", N_("Leave"), tooltip=N_("Leave the room for the lobby")),
    ]

    class Failed(Message):
        """The room could not be entered, or the relay refused us for good."""

        def __init__(self, room_screen: RoomScreen, text: str) -> None:
            super().__init__()
            self.room_screen = room_screen
            self.text = text

    def __init__(self, plan: HostPlan | JoinPlan, settings: SessionSettings) -> None:
        super().__init__()
        self.plan = plan
        self.settings = settings
        self.room: Room | None = None
        self.failure: str | None = None  # why the room could not be entered: said once
        self._handed_over = False
        self._unsubscribe: Callable[[], None] = lambda: None  # from the match, once in

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Vertical(id="room"):
            yield Static(self._title(), id="room-title", markup=False)
            with Vertical(id="room-invites"):
                for role, (whole, _cut) in INVITE_LABELS.items():
                    yield Label(_(whole), classes="invite-label", id=f"invite-label-{role}",
                                markup=False)  # fmt: skip
                    # One line, scrolled sideways when the terminal is narrower than the
                    # invite: a mouse selection of it is then never cut by a line break.
                    with InviteLine(classes="invite-line", id=f"invite-line-{role}"):
                        yield Static("", id=f"invite-{role}", classes="invite", markup=False)
            yield Static("", id="room-members", markup=False)
            yield Static(self._connecting(), id="room-status", markup=False)
        yield KeysFooter()

    def on_mount(self) -> None:
        if closing(self):
            return
        self.query_one("#room-invites").display = False
        self._enter()
        self.set_interval(0.5, self._refresh)

    def _title(self) -> str:
        plan = self.plan
        if isinstance(plan, HostPlan):
            return _("Hosting {game} for {players} players").format(
                game=game_named(plan.game).proper_name, players=plan.seats
            )
        if self.hosting:  # the host back in his seat through `tablier join`
            return _("Hosting this room: back in your seat")
        if plan.invite.role == "watch":
            return _("Watching a match")
        return _("Joining a match")

    def _connecting(self) -> Text:
        plan = self.plan
        if isinstance(plan, HostPlan):
            where = printable(plan.relay_url) if plan.relay_url else _("a relay on this machine")
            return Text(_("Opening the room on {where}…").format(where=where))
        url = printable(plan.invite.relay_url)
        return Text(_("Connecting to the relay at {url}…").format(url=url))

    @property
    def hosting(self) -> bool:
        """This terminal hosts the room (also when its host came back through ``join``)."""
        return isinstance(self.plan, HostPlan) or (
            self.room is not None and self.room.match.role == "host"
        )

    def outcome(self) -> str | None:
        """Why this screen never got into its room (None: it did)."""
        if self.failure is not None:
            return self.failure
        plan, room = self.plan, self.room
        if isinstance(plan, HostPlan):
            if room is None:
                return _("left before the room was open on {where}").format(
                    where=printable(plan.relay_url) if plan.relay_url else _("this machine")
                )
        elif room is None or not room.link.ever_connected:
            url = printable(plan.invite.relay_url)
            return _("left before the relay at {url} answered").format(url=url)
        return None

    # -- entering -------------------------------------------------------------------------

    @work(exclusive=True, group="room")
    async def _enter(self) -> None:
        from client.net.failures import RoomError
        from client.net.link import LinkFailed

        plan = self.plan
        # The opening runs as a task of its own, shielded from this worker's cancellation
        # (esc, the app quitting): cancelled in the middle, it could have connected, or
        # started this terminal's relay, and lost the room it was about to return.
        opening = asyncio.ensure_future(self._open())
        try:
            room = await asyncio.shield(opening)
        except RoomError as error:
            self._fail(str(error))
            return
        except asyncio.CancelledError:
            self.app.post_message(CloseLater(partial(_close_once_open, opening)))
            raise
        self.room = room  # closed by on_unmount, also when the person left a moment ago
        if closing(self):
            return
        self.post_message(RoomOpened(room.close))
        if isinstance(plan, HostPlan) and plan.invite_file is not None:
            try:
                write_invites(plan.invite_file, room)
            except OSError as error:
                self._fail(_("cannot write the invites to {file}: {error}").format(
                    file=path_shown(plan.invite_file), error=os_reason_of(error)
                ))
                return
        if room.notice is not None:
            self.notify(room.notice, title=_("Your seat"), timeout=10, markup=False)
        self._unsubscribe = room.match.subscribe(self._changed)
        self._refresh()
        try:
            await room.wait_started()
        except LinkFailed as error:
            self._fail(str(error))
            return
        self._begin()

    async def _open(self) -> Room:
        from client.net.room import join_room, open_hosted_room

        plan = self.plan
        if isinstance(plan, HostPlan):
            return await open_hosted_room(
                plan.game,
                plan.options,
                seats=plan.seats,
                name=plan.name,
                settings=self.settings,
                relay_url=plan.relay_url,
                listen=plan.listen,
            )
        return await join_room(plan.invite, name=plan.name, settings=self.settings,
                               connect_timeout=plan.connect_timeout)  # fmt: skip

    def _fail(self, text: str) -> None:
        if self.failure is not None or closing(self):
            return
        self.failure = text
        self.query_one("#room-status", Static).update(Text(f"✖ {text}", style="bold red"))
        self.query_one("#room-invites").display = False  # no use to anyone now
        self.refresh_bindings()
        self.notify(text, title=_("Cannot enter the room"), severity="error", timeout=15,
                    markup=False)  # fmt: skip
        self.post_message(self.Failed(self, text))

    def _changed(self) -> None:
        if self.room is not None and self.room.failure is not None:
            self._fail(self.room.failure)
        self._refresh()

    def _begin(self) -> None:
        """Everyone is seated: the game screen takes over (and the room with it)."""
        assert self.room is not None
        if closing(self):  # left as the match began: on_unmount closes the room
            return
        plan = self.plan
        game = self.room.game(self.settings, computer=plan.computer, level=plan.level)
        self._unsubscribe()
        self._handed_over = True
        self.post_message(OpenGame(game, replacing=self))

    # -- showing --------------------------------------------------------------------------

    def _refresh(self) -> None:
        room = self.room
        if room is None or self.failure is not None or closing(self):
            return
        self.query_one("#room-title", Static).update(self._title())
        self._show_invites(room)
        if self.hosting or room.link.ever_connected:
            self.query_one("#room-members", Static).update(_members(room))
        status = self._status(room)
        if room.match.catching_up and room.link.status.state == "connected":
            status.append("  " + _("catching up with the match…"), style="yellow")
        note = room.match.waiting_note(self.settings.clock())
        if note is not None:
            status.append(f"\n{note}", style="italic")
        self.query_one("#room-status", Static).update(status)

    def _show_invites(self, room: Room) -> None:
        shown = self.query_one("#room-invites")
        if shown.display != self.hosting:
            shown.display = self.hosting
            self.refresh_bindings()
        for role, invite in (("player", room.invite), ("watch", room.spectator_invite)):
            text = invite.encode() if invite is not None and self.hosting else ""
            line = self.query_one(f"#invite-{role}", Static)
            if str(line.render()) != text:
                line.update(text)
            # Scrolled sideways rather than broken (a selection keeps it whole): the heading
            # says when it goes on past the edge, read again as the screen is resized.
            room_for = self.query_one(f"#invite-line-{role}", InviteLine).size.width
            cut = room_for > 0 and line.styles.padding.left + cell_len(text) > room_for
            label = self.query_one(f"#invite-label-{role}", Label)
            heading = _(INVITE_LABELS[role][cut])
            if str(label.render()) != heading:
                label.update(heading)

    def _status(self, room: Room) -> Text:
        from client.widgets.connection import describe_link

        link = room.link
        if link.ever_connected or link.deadline is None:
            return describe_link(link.status)
        left = max(0, int(link.deadline - time.monotonic() + 0.999))
        status = Text(_("◌ connecting to {url}: giving up in {seconds} s").format(
            url=printable(link.url), seconds=left
        ), style="yellow")
        if link.status.state == "reconnecting" and link.status.detail:
            status.append(" " + _("(attempt {attempt}: {reason})").format(
                attempt=link.status.attempt, reason=link.status.detail
            ))
        return status

    # -- keys -----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "copy":  # only the host has invites to hand out, once the room is open
            return self.hosting and self.room is not None and self.failure is None
        return True

    @work(group="copy")
    async def action_copy(self, which: str) -> None:
        from client.clipboard import copy_text

        room = self.room
        if room is None:
            return
        invite = room.invite if which == "player" else room.spectator_invite
        if invite is None:
            return
        copied = await copy_text(invite.encode(), self.app.copy_to_clipboard)
        what = _("The player invite") if which == "player" else _("The spectator invite")
        self.notify(copied.sentence(what), timeout=8 if copied.where else 15, markup=False)

    class LeftUnentered(Message):
        """The person left before the room was entered (esc while still connecting): a
        command that was run for this room ends there, with its reason."""

        def __init__(self, room_screen: RoomScreen) -> None:
            super().__init__()
            self.room_screen = room_screen

    def action_leave(self) -> None:
        if self.outcome() is not None:
            self.app.post_message(self.LeftUnentered(self))  # (this screen is gone next)
        self.app.pop_screen()

    def on_unmount(self) -> None:
        if self.room is not None and not self._handed_over:
            room = self.room
            self._unsubscribe()
            self.app.post_message(CloseLater(room.close))


async def _close_once_open(opening: asyncio.Future[Room]) -> None:
    """Close the room *opening* returns, once it does: the person left while it opened."""
    from client.net.failures import RoomError

    with contextlib.suppress(RoomError):  # it did not open: nothing to close
        room = await opening
        await room.close()


def _members(room: Room) -> Text:
    """Who has joined the match being met for (who plays it, once it began), or what the
    room waits for."""
    match = room.match
    members = Text()
    if match.setup is not None:  # back in a match that began: its players, as they sit
        setup = match.setup
        options = _options(setup.proposal.options)
        heading = _("{game} ({options}):").format(game=game_named(setup.game).proper_name,
                                                  options=options)  # fmt: skip
        members.append(heading + "\n", style="bold")
        for seat, name in enumerate(setup.names):
            you = " " + _("(you)") if seat == match.seat else ""
            members.append(f"  {seat + 1}. {name}{you}\n")
        members.rstrip()  # (no blank line under the last: the screen has none to spare)
        return members
    proposal = match.meeting.proposal
    if proposal is None:
        members.append(_("Waiting for the host's proposal…"), style="italic")
        return members
    options = _options(proposal.options)
    joined = len(match.meeting.joins)
    seated = ngettext("{joined} of {seats} seated", "{joined} of {seats} seated",
                      joined).format(joined=joined, seats=proposal.seats)  # fmt: skip
    heading = _("{game} ({options}): {seated}").format(game=game_named(proposal.game).proper_name,
                                                       options=options, seated=seated)  # fmt: skip
    members.append(heading + "\n", style="bold")
    for seat, join in enumerate(match.meeting.joins):
        members.append(f"  {seat + 1}. {join.name}")
        you = " " + _("(you)") if join.public_key == match.identity.public_key else ""
        members.append(f"{you}\n")
    if len(match.meeting.joins) < proposal.seats:
        members.append("  " + _("Waiting for players…"), style="italic")
    members.rstrip()
    return members


def _options(options: tuple[tuple[str, OptionValue], ...]) -> str:
    return said_options(options, words())


def write_invites(path: Path, room: Room) -> None:
    """The player invite, then the spectator one, one a line: in *path* whole or not at all
    (a script may be waiting for it), or on standard output for ``-``."""
    lines = [room.invite.encode()]
    if room.spectator_invite is not None:
        lines.append(room.spectator_invite.encode())
    data = "\n".join(lines) + "\n"
    if path == STDOUT:
        # Textual draws on stderr and captures sys.stdout: write to the descriptor itself.
        with contextlib.suppress(BrokenPipeError):  # the reader (`| head -1`) is done
            os.write(1, data.encode())
        return
    from client.private_file import PRIVATE, write_whole

    write_whole(path, data.encode(), mode=PRIVATE)  # never through a link; a seat's secret


def _sentence(text: str) -> str:
    """*text* with a capital first letter (and every other letter as it was: "TLS")."""
    return text[:1].upper() + text[1:]


class JoinScreen(Screen[None]):
    """The lobby's form: paste an invite, give a name, join (or watch, with a watch invite)."""

    CSS_PATH = "../net.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", N_("Back"), tooltip=N_("Back to the lobby")),
    ]

    def __init__(self, settings: SessionSettings, name: str = "") -> None:
        super().__init__()
        self.settings = settings
        self._name = name

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Vertical(id="join-form"):
            yield Label(_("Paste the invite a friend sent you (tablier://…):"), markup=False)
            yield Input(placeholder=_("tablier://host:port/room?player=…"), id="join-invite")
            yield Label(_("Your name:"), markup=False)
            yield Input(self._name, placeholder=_("Your name"), max_length=20, id="join-name")
            yield Button(_("Join"), variant="success", id="join-go")
            # Below the button, as wide as the form: a long sentence wraps, whole.
            yield Static("", id="join-error", classes="error", markup=False)
        yield KeysFooter()

    @on(Input.Submitted)
    @on(Button.Pressed, "#join-go")
    def _go(self) -> None:
        error = self.query_one("#join-error", Static)
        name = self.query_one("#join-name", Input).value.strip()
        try:
            invite = parse_invite(self.query_one("#join-invite", Input).value)
        except InviteError as problem:
            error.update(_sentence(str(problem)))
            return
        if not name:
            error.update(_("Give a name the other players will see."))
            return
        refusal = name_refusal(name)  # the others' programs would refuse it: say so now
        if refusal is not None:
            error.update(_sentence(refusal))
            return
        self.app.switch_screen(RoomScreen(JoinPlan(invite, name), self.settings))
