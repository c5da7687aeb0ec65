"""A hostile player for the tests: it meets honestly (real key, real chain, signed join),
follows the match with its own session, then sends what an honest client never would —
every message correctly signed, so only the game's own checks can catch it."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import replace

from client.net import wire
from client.net.game import NetworkGame
from client.net.invite import Invite
from client.net.match import NetMatch
from client.net.room import Room
from client.setup import SessionSettings
from engine.awaiting import ChoosePlay, ThrowDice
from engine.canonical import state_hash
from engine.jacquet import JacquetState, legal_plays
from protocol.messages import GameMessage, Play, Share, decode_message, seal
from relay.client import RoomConnection
from relay.envelope import Message, Presence
from tests.network.players import autoplay

Rewrite = Callable[[GameMessage], GameMessage | None]


class Hostile:
    def __init__(self, invite: Invite, settings: SessionSettings, name: str = "Mallory") -> None:
        self.invite = invite
        self.match = NetMatch("player", name, random_source=settings.random_source,
                              data_dir=settings.data_dir)  # fmt: skip
        self.connection: RoomConnection | None = None
        self.rewrite: Rewrite | None = None
        self.clock = settings.clock  # dates its messages as the honest players' clock does
        self.sent = 0  # bytes an attack counts as it sends them

    async def enter(self) -> None:
        invite = self.invite
        self.connection = await RoomConnection.join(
            invite.relay_url, invite.room_id, invite.token, self.match.name, resume_from=0
        )
        members = self.connection.welcome.members  # (a join is taken under its relay name)
        roster = [(member.seat, member.name, member.connected) for member in members]
        self.match.welcomed(self.connection.seat, roster, 0)

    async def follow(self, until: Callable[[], bool]) -> None:
        """Play along (the session's automatic reveals included) until *until* holds."""
        assert self.connection is not None
        while not until():
            session = self.match.session
            awaiting = None if session is None else session.awaiting
            if isinstance(awaiting, ThrowDice) and awaiting.seat == self.match.seat:
                assert session is not None
                if not session.awaited_seats() or session.awaited_seats()[0] == session.seat:
                    self.match.act(lambda s: s.throw(self.clock()))
            await self._send_outbox()
            event = await self.connection.receive()
            if isinstance(event, Message):
                self.match.receive(event.seat, event.payload, self.clock())
            elif isinstance(event, Presence):
                self.match.presence(event.seat, "joined", event.name, 0)
        await self._send_outbox()

    async def send_game(self, message: GameMessage) -> None:
        assert self.connection is not None and self.match.session is not None
        signed = seal(message, self.match.identity, self.match.session.match_id)
        await self.connection.send(wire.encode(wire.Game(signed.encode())))

    async def _send_outbox(self) -> None:
        assert self.connection is not None
        outbox, self.match.outbox = self.match.outbox, []
        for outgoing in outbox:
            data, tell = outgoing.data, outgoing.tell
            payload = wire.decode(data)
            if self.rewrite is not None and isinstance(payload, wire.Game):
                forged = self.rewrite(decode_message(payload.data))
                if forged is None:
                    continue
                assert self.match.session is not None
                signed = seal(forged, self.match.identity, self.match.session.match_id)
                data = wire.encode(wire.Game(signed.encode()))
            await self.connection.send(data, tell=tell)

    # -- the attacks -------------------------------------------------------------------

    def my_play_awaited(self) -> bool:
        session = self.match.session
        return (
            session is not None
            and isinstance(session.awaiting, ChoosePlay)
            and session.awaiting.seat == session.seat
        )

    def play_message(self, notation: str, state_hash: bytes) -> Play:
        session = self.match.session
        assert session is not None and session.seat is not None
        return Play(session.seat, session.throw_index - 1, self.clock(), notation, state_hash, b"")

    @staticmethod
    def forge_shares(message: GameMessage) -> GameMessage:
        """Every share this client reveals gets a random link instead of its chain's."""
        if isinstance(message, Share):
            return replace(message, link=os.urandom(32))
        return message


async def attack_host(
    host: Room, mallory: Hostile, attack: str, settings: SessionSettings
) -> NetworkGame:
    """*mallory*, invited to *host*'s two-seat Jacquet room, commits *attack* ("illegal play",
    "forged share" or "wrong state hash") while the host's game plays itself to its end,
    which is returned."""
    await mallory.enter()
    if attack == "forged share":
        mallory.rewrite = Hostile.forge_shares
    await mallory.follow(lambda: mallory.match.started)
    await host.wait_started()
    game = host.game(settings)
    player = asyncio.create_task(autoplay(game))
    if attack == "forged share":  # revealed as the honest host throws the opening
        follower = asyncio.create_task(mallory.follow(player.done))
        try:
            await player
        finally:
            follower.cancel()
        return game
    await mallory.follow(mallory.my_play_awaited)
    session = mallory.match.session
    assert session is not None and isinstance(session.state, JacquetState)
    assert isinstance(session.awaiting, ChoosePlay)
    if attack == "illegal play":
        message = mallory.play_message("24/1", b"\0" * 32)
    else:  # a legal play, but the hash of the state before it
        legal = legal_plays(session.state.position, session.awaiting.dice)[0]
        message = mallory.play_message(session.game.format_play(legal), state_hash(session.state))
    await mallory.send_game(message)
    await player
    return game
