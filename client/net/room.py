"""Being in a relay room: host one, join one with an invite, or watch one.

:func:`host_room` creates the room and proposes the match; :func:`join_room` enters it with an
invite (a player's or a spectator's). Either gives a :class:`Room`: the match, the relay link
and the asyncio task that runs it, until :meth:`Room.close`. Once the seats are filled and the
host has seated everyone, :meth:`Room.game` is what the game screens play through.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any

from client.net.game import NetworkGame
from client.net.invite import Invite
from client.net.link import Backoff, LinkFailed, LinkStatus, RelayLink
from client.net.match import NetMatch, Role
from client.setup import SessionSettings
from protocol.games import OptionValue
from protocol.identity import Identity
from protocol.setup import DEFAULT_TIME_LIMIT_MS, Proposal


@dataclass
class Room:
    """One terminal's place in a relay room, from the meeting to the end of the match."""

    match: NetMatch
    link: RelayLink
    invite: Invite
    spectator_invite: Invite | None = None
    failure: str | None = None
    task: asyncio.Task[None] | None = None
    status_listeners: list[Callable[[LinkStatus], None]] = field(default_factory=list)
    # Also stopped with the room: an embedded relay, say.
    closers: list[Callable[[], Coroutine[Any, Any, None]]] = field(default_factory=list)
    _game: NetworkGame | None = None

    def start(self) -> None:
        self.link.on_status = self._status
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        try:
            await self.link.run()
        except LinkFailed as error:
            self.failure = str(error)
            self.match.notify()

    def _status(self, status: LinkStatus) -> None:
        for listener in list(self.status_listeners):
            listener(status)

    async def wait_started(self, timeout: float | None = None) -> None:
        """Until the host seated every player (raise LinkFailed if the relay refused us)."""
        changed = asyncio.Event()
        self.match.listeners.append(changed.set)
        try:
            async with asyncio.timeout(timeout):
                while not self.match.started:
                    if self.failure is not None:
                        raise LinkFailed(self.failure)
                    changed.clear()
                    await changed.wait()
        finally:
            self.match.listeners.remove(changed.set)

    def game(
        self, settings: SessionSettings, *, computer: bool = False, level: int = 1
    ) -> NetworkGame:
        """The started match as the game screens use it (one per room)."""
        if self._game is None:
            self._game = NetworkGame(
                self.match, self.link, settings, computer=computer, level=level
            )
            self._game.closer = self.close
        return self._game

    async def close(self) -> None:
        await self.link.close()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
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
    created = await create_room(relay_url, seats)
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
    room = Room(match, link, invite, invite.with_role("watch", created.spectator_token))
    link.flush()
    room.start()
    return room


async def join_room(
    invite: Invite,
    *,
    name: str,
    settings: SessionSettings,
    identity: Identity | None = None,
    backoff: Backoff | None = None,
) -> Room:
    """Enter the room an invite opens, as a player or (a watch invite) a spectator."""
    role: Role = "player" if invite.role == "player" else "spectator"
    match = _new_match(role, name, settings, identity)
    link = RelayLink(
        match, invite.relay_url, invite.room_id, invite.token, clock=settings.clock, backoff=backoff
    )
    room = Room(match, link, invite)
    room.start()
    return room


def default_name() -> str:
    import getpass

    with contextlib.suppress(Exception):
        return getpass.getuser()[:20] or "Player"
    return "Player"
