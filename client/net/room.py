"""Being in a relay room: host one, join one with an invite, or watch one.

:func:`host_room` creates the room and proposes the match; :func:`join_room` enters it with an
invite (a player's or a spectator's). Either gives a :class:`Room`: the match, the relay link
and the asyncio task that runs it, until :meth:`Room.close`. Once the seats are filled and the
host has seated everyone, :meth:`Room.game` is what the game screens play through.

A player's room keeps his seat file (:mod:`client.net.seatfile`) from the start of the match
to its end, and :func:`join_room` takes the seat back from it when the app quit or crashed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.exceptions import WebSocketException

from client.game.driver import Offence, RoomInvites
from client.game.link_status import LinkStatus
from client.i18n import N_, _, os_reason_of, path_shown, say, say_error
from client.net.failures import RoomError, listen_failure, relay_failure
from client.net.game import NetworkGame
from client.net.invite import Invite
from client.net.link import Backoff, LinkFailed, RelayLink
from client.net.match import NetMatch, Role
from client.net.seatfile import (
    Seat,
    SeatFileError,
    load_seat,
    room_seat_files,
    save_seat,
    seat_path,
)
from client.net.tasks import stop
from client.net.untrusted import RelayMisbehaved, check_secret, shown
from client.setup import SessionSettings
from protocol.errors import LogError
from protocol.games import OptionValue
from protocol.identity import Identity
from protocol.logfile import LogInUse, log_in_use, read_log
from protocol.setup import DEFAULT_TIME_LIMIT_MS, MatchSetup, Proposal, check_start
from relay.client import RelayError
from relay.envelope import Created, EnvelopeError
from relay.fault import Fault

TICK_S = 1.0
"""How often a room's timers are looked at (their limits are in minutes)."""


@dataclass
class Room:
    """One terminal's place in a relay room, from the meeting to the end of the match."""

    match: NetMatch
    link: RelayLink
    invite: Invite
    spectator_invite: Invite | None = None
    failure: str | None = None  # why the link failed for good (LinkFailed's words)
    fault: Fault | None = None  # and whose fault it was
    task: asyncio.Task[None] | None = None
    ticker: asyncio.Task[None] | None = None
    # Also stopped with the room: an embedded relay, say.
    closers: list[Callable[[], Coroutine[Any, Any, None]]] = field(default_factory=list)
    seat_path: Path | None = None  # a player's seat file (None: a spectator keeps none)
    listen: str | None = None  # HOST:PORT of the host's embedded relay, to start it again
    notice: str | None = None  # said once on entering: back in the seat, or why not
    _game: NetworkGame | None = None
    _saved_for: MatchSetup | None = None  # the match the seat file was last written for

    def start(self) -> None:
        self.link.on_status = self._status
        if self.seat_path is not None:
            self.match.subscribe(self._keep_seat)
            self.link.on_seat_token = lambda _token: self._save_seat()
        self.task = asyncio.create_task(self._run())
        self.ticker = asyncio.create_task(self._tick())

    def _keep_seat(self) -> None:
        """The seat file follows the room's matches: written when one begins (a rematch's
        names its own log), and kept once it ended, so that a player whose app stopped
        between two matches comes back to the end of the last one — and can take part in
        the rematch, which only the match's players can join."""
        match = self.match
        if match.seat is not None and match.setup is not self._saved_for:
            self._save_seat()

    def _save_seat(self) -> None:
        match, link = self.match, self.link
        if self.seat_path is None or match.seat is None:
            return
        assert match.role != "spectator" and match.seat_secret is not None
        assert match.log_path is not None and match.spectator_token is not None
        seat = Seat(
            link.url,
            link.room_id,
            link.invite_token,
            match.spectator_token,
            link.seat_token,
            match.name,
            match.role,
            match.log_path.absolute(),  # `tablier join` may run from another folder
            match.identity.private_bytes(),
            match.seat_secret,
            self.listen,
        )
        try:
            save_seat(self.seat_path, seat)
        except OSError as error:  # the match goes on; only quitting would now lose the seat
            text = _("cannot be written ({error}): quitting now gives up your seat").format(
                error=os_reason_of(error)
            )
            match.offences.append(Offence(_("Your seat file"), text, fatal=False))
            self.seat_path = None  # said once
            return
        match.resumable = True
        self._saved_for = match.setup

    async def _tick(self) -> None:
        """The match's timers: a rematch nobody joins, a resumed seat nobody answers."""
        while True:
            await asyncio.sleep(TICK_S)
            try:
                self.match.tick(self.link.clock())
                self.link.flush()
            except Exception as error:  # on what peers said before: named, never a dead task
                self.link.stop_for(self.match.cannot_handle(None, error, own=True))
                return

    async def _run(self) -> None:
        try:
            await self.link.run()
        except LinkFailed as error:
            self.failure, self.fault = str(error), error.fault
            self.match.notify()

    def _status(self, _status: LinkStatus) -> None:
        self.match.notify()  # whoever shows the link reads its status again

    async def wait_started(self, timeout: float | None = None) -> None:
        """Until the host seated every player and the relay replayed what it kept (so that
        the board opens on all it sent); raise LinkFailed if the relay refused us. A player
        back in his seat may still be catching up then (waiting for the others' word, see
        :attr:`MatchView.catching_up <client.net.view.MatchView.catching_up>`): his board
        says so, and takes no action, until he is."""
        changed = asyncio.Event()
        unsubscribe = self.match.subscribe(changed.set)
        try:
            async with asyncio.timeout(timeout):
                match = self.match  # (a late spectator: once the match so far came)
                while not (match.started and match.in_relay_step and match.arrival is None):
                    if self.failure is not None:
                        raise LinkFailed(self.failure, self.fault or Fault.OURS)
                    changed.clear()
                    await changed.wait()
        finally:
            unsubscribe()

    def game(
        self, settings: SessionSettings, *, computer: bool = False, level: int = 1
    ) -> NetworkGame:
        """The started match as the game screens use it (the room's first; each rematch's
        comes from :meth:`NetworkGame.rematch`)."""
        if self._game is None:
            self._game = NetworkGame(self.match, self.link, settings, computer=computer,
                                     level=level, invites=self.invites())  # fmt: skip
            self._game.closer = self.close
        return self._game

    def invites(self) -> RoomInvites:
        """The room's invites this terminal holds: a player both (every player is told the
        spectator token with the proposal), a spectator his own."""
        invite = self.invite
        if invite.role == "watch":
            return RoomInvites(None, invite.encode())
        watch = self.spectator_invite
        token = self.match.spectator_token
        if watch is None and token is not None:
            watch = invite.with_role("watch", token)
        return RoomInvites(invite.encode(), None if watch is None else watch.encode())

    async def close(self) -> None:
        await self.link.close()
        for task in (self.ticker, self.task):
            if task is not None:
                await stop(task)
        self.match.close()
        for closer in self.closers:
            await closer()


def _new_match(
    role: Role, name: str, settings: SessionSettings, identity: Identity | None
) -> NetMatch:
    return NetMatch(
        role,
        name,
        random_source=settings.random_source,
        identity=identity,
        log_path=settings.log_path,
        data_dir=settings.data_dir,
    )


async def host_room(
    relay_url: str,
    game: str,
    options: Mapping[str, OptionValue],
    *,
    seats: int,
    name: str,
    settings: SessionSettings,
    identity: Identity | None = None,
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    backoff: Backoff | None = None,
) -> Room:
    """Create a room on the relay, propose the match in it and take the first seat."""
    from relay.client import create_room

    proposal = Proposal.create(
        game,
        options,
        seats=seats,
        start_time=settings.clock(),
        random_source=settings.random_source,
        time_limit_ms=time_limit_ms,
    )
    created = _checked(relay_url, await create_room(relay_url, seats))
    invite = Invite(relay_url, created.room_id, created.player_token, "player")
    match = _new_match("host", name, settings, identity)
    link = RelayLink(
        match,
        relay_url,
        created.room_id,
        created.player_token,
        clock=settings.clock,
        seats=seats,
        backoff=backoff,
    )
    match.propose(proposal, created.spectator_token)
    room = Room(
        match,
        link,
        invite,
        invite.with_role("watch", created.spectator_token),
        seat_path=seat_path(created.room_id, match.identity.public_key, settings.data_dir),
    )
    link.flush()
    room.start()
    # The host holds the room's first relay seat (client.net.meeting.HOST_RELAY_SEAT): only
    # it proposes the first match. Nobody has the invite before this returns: in the room
    # before anyone else, or the link failed (its status says why).
    assert room.task is not None
    connected = asyncio.ensure_future(link.connected.wait())
    await asyncio.wait({connected, room.task}, return_when=asyncio.FIRST_COMPLETED)
    connected.cancel()
    return room


async def open_hosted_room(
    game: str,
    options: Mapping[str, OptionValue],
    *,
    seats: int,
    name: str,
    settings: SessionSettings,
    relay_url: str | None,
    listen: tuple[str, int],
) -> Room:
    """``tablier host``: the room created on *relay_url*, or on a relay this terminal runs
    on *listen* (its invites then name the address others reach it at). :class:`RoomError`
    says in words why the room cannot be opened; nothing is left running or written then."""
    embedded = None
    url = relay_url
    if url is None:
        host, port = listen
        try:
            embedded = await start_embedded_relay(host, port)
        except OSError as error:
            raise RoomError(listen_failure(host, port, error)) from None
        url = embedded.local_url
    try:
        room = await host_room(url, game, options, seats=seats, name=name, settings=settings)
    except (OSError, RelayError, EnvelopeError, RelayMisbehaved, WebSocketException) as error:
        if embedded is not None:
            await embedded.close()
        raise RoomError(relay_failure(url, error)) from None
    if embedded is not None:
        room.closers.append(embedded.close)
        room.listen = embedded.listen
        room.invite = _public(room.invite, embedded.public_url)
        if room.spectator_invite is not None:
            room.spectator_invite = _public(room.spectator_invite, embedded.public_url)
    return room


def _public(invite: Invite, relay_url: str) -> Invite:
    return Invite(relay_url, invite.room_id, invite.token, invite.role)


async def join_room(
    invite: Invite,
    *,
    name: str,
    settings: SessionSettings,
    identity: Identity | None = None,
    backoff: Backoff | None = None,
    connect_timeout: float | None = None,
) -> Room:
    """Enter the room an invite opens, as a player or (a watch invite) a spectator.

    A player who left a match of this room (the app quit or crashed) takes his seat back
    from his seat file; when it cannot be used, :attr:`Room.notice` says why and he joins
    as a new player. ``connect_timeout``: how long to try before the relay first answered.
    """
    role: Role = "player" if invite.role == "player" else "spectator"
    notice = None
    unusable: Path | None = None  # a seat file that cannot be used: the new seat's goes there
    if role == "player":
        found: tuple[Seat, Path] | None = None
        try:
            found = _seat_to_take_back(invite.room_id, name, settings.data_dir)
            if found is not None:
                return await _resume_room(*found, invite, settings=settings, backoff=backoff,
                                          connect_timeout=connect_timeout)  # fmt: skip
        except RoomError:
            raise
        except LogInUse:  # taken up by another terminal a moment ago
            raise RoomError(_in_use(name)) from None
        except (ValueError, OSError) as problem:  # OSError: its log cannot be reopened
            notice = _("Your saved seat in this room cannot be used: {problem}. Joining anew.")
            notice = notice.format(problem=say_error(problem))
            unusable = problem.path if isinstance(problem, _Unusable) else None
            if found is not None:
                unusable = found[1]
    match = _new_match(role, name, settings, identity)
    path = unusable
    if role == "player" and path is None:
        path = seat_path(invite.room_id, match.identity.public_key, settings.data_dir)
    link = RelayLink(
        match,
        invite.relay_url,
        invite.room_id,
        invite.token,
        clock=settings.clock,
        backoff=backoff,
        connect_timeout=connect_timeout,
    )
    room = Room(match, link, invite, seat_path=path, notice=notice)
    room.start()
    return room


class _Unusable(SeatFileError):
    """The seat file at ``path`` cannot be used (the message says why)."""

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path


def _seat_to_take_back(
    room_id: str, name: str, data_dir: Path | None
) -> tuple[Seat, Path] | None:
    """The seat file of room *room_id* this player takes back, if any: among those whose log
    no other program writes now (a seat still played in another terminal is that
    terminal's), the one saved under *name*, or the only one. :class:`RoomError` when the
    choice is not this program's to make (several, none named *name*; or the one named
    *name* is being played elsewhere); an unusable file raises :class:`_Unusable`."""
    free: list[tuple[Seat, Path]] = []
    busy: list[str] = []
    for path in room_seat_files(room_id, data_dir):
        try:
            seat = load_seat(path)
        except SeatFileError as problem:
            raise _Unusable(str(problem), path) from None
        if seat is None:  # gone since it was listed: the match ended meanwhile
            continue
        try:  # read first: its log may be no file to open (a FIFO would hold the loop)
            read_log(seat.log_path)
            in_use = log_in_use(seat.log_path)  # (never waits, whatever is there by now)
        except LogError as problem:
            raise _Unusable(str(problem), path) from None
        if in_use:
            busy.append(seat.name)
        else:
            free.append((seat, path))
    named = [(seat, path) for seat, path in free if seat.name == name]
    if named:
        return named[0]
    if name in busy:
        raise RoomError(_in_use(name))
    if len(free) == 1:
        return free[0]
    if free:
        names = ", ".join(shown(seat.name) for seat, _path in free)
        raise RoomError(_("Seats were left in this room as {names}: join again with --name and "
                          "the name of yours to take it back.").format(names=names))  # fmt: skip
    return None


def _in_use(name: str) -> str:
    return _("Your seat as {name} in this room is being played in another terminal: quit "
             "Tablier there first (a match has one program per seat).").format(name=shown(name))


async def _resume_room(
    seat: Seat,
    path: Path,
    invite: Invite,
    *,
    settings: SessionSettings,
    backoff: Backoff | None,
    connect_timeout: float | None,
) -> Room:
    """Back in a saved seat: the match from its log, the relay seat from its token."""
    if seat.room_id != invite.room_id:
        raise ValueError(_("the seat file is for room {room}").format(room=seat.room_id))
    log = read_log(seat.log_path)  # NotALog, CorruptLog: ValueErrors that say why
    now = settings.clock()
    check_start(log.setup.proposal, now)  # BadTime, a ValueError: its deadlines out of reach
    match = NetMatch.resume(
        seat.role,
        seat.name,
        identity=Identity(seat.identity),
        chain_secret=seat.chain_secret,
        spectator_token=seat.spectator_token,
        log=log,
        log_path=seat.log_path,
        random_source=settings.random_source,
        now=now,
        data_dir=settings.data_dir,  # where a rematch's log goes
    )
    link = RelayLink(
        match,
        seat.relay_url,
        seat.room_id,
        seat.invite_token,
        clock=settings.clock,
        seats=log.setup.seats,
        backoff=backoff,
        seat_token=seat.seat_token,
        connect_timeout=connect_timeout,
    )
    room = Room(match, link, invite, seat_path=path, listen=seat.listen)
    if seat.role == "host":
        room.spectator_invite = invite.with_role("watch", seat.spectator_token)
    if seat.listen is not None:
        host, _colon, port = seat.listen.rpartition(":")
        with contextlib.suppress(OSError):  # in use: the old relay may still be running
            embedded = await start_embedded_relay(host, int(port))
            room.closers.append(embedded.close)
    match.resumable = True
    room.notice = _("Back in your seat as {name}; your log is {path}.").format(
        name=seat.name, path=path_shown(seat.log_path)
    )
    if log.problem is not None:  # the stop cut a record short: it comes back from the others
        room.notice += " " + _("Its damaged end was cut ({reason}).").format(
            reason=say(log.problem.reason)
        )
    link.flush()  # dice reveals made again by the replay, not back from the relay yet
    room.start()
    return room


def _checked(url: str, created: Created) -> Created:
    """The relay's answer to a create, once its id and tokens have the invites' shape: they
    become the invites, and the id the seat file's name (raises :class:`RelayMisbehaved`)."""
    check_secret(url, N_("room id"), created.room_id)
    check_secret(url, N_("player token"), created.player_token)
    check_secret(url, N_("spectator token"), created.spectator_token)
    return created


@dataclass(frozen=True, slots=True)
class EmbeddedRelay:
    """A relay this terminal runs for its room (stopped with the room)."""

    local_url: str  # how this terminal reaches it
    public_url: str  # what the invites name
    listen: str  # HOST:PORT it listens on (the port it got when asked for any)
    close: Callable[[], Coroutine[Any, Any, None]]


async def start_embedded_relay(host: str, port: int) -> EmbeddedRelay:
    """Run a relay in this process on *host*:*port* (0: any free port); OSError if it cannot."""
    import socket

    from relay.config import RelayConfig
    from relay.server import RelayServer

    relay = RelayServer(RelayConfig(host=host, port=port))
    await relay.start()
    local = public = relay.url
    if host in ("0.0.0.0", "::", ""):
        local = f"ws://127.0.0.1:{relay.port}/"
        public = f"ws://{socket.gethostname()}:{relay.port}/"
    return EmbeddedRelay(local, public, f"{host}:{relay.port}", relay.close)


def default_name() -> str:
    import getpass

    with contextlib.suppress(Exception):
        return getpass.getuser()[:20] or "Player"
    return "Player"
