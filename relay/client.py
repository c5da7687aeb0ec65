"""A small asyncio client for the relay envelope: what the Tablier app and the tests speak.

::

    room = await create_room(url, seats=2)
    async with await RoomConnection.join(url, room.room_id, room.player_token, "Ada") as ada:
        await ada.send(b"hello")
        event = await ada.receive()  # Message(seq=1, seat=0, payload=b"hello"), after presence
        # (our own sends come back as events too, placed where the relay numbered them)
        ...
        ada = await ada.reconnect()  # same seat, missed events replayed from ada.next_seq
"""

from __future__ import annotations

import ssl
from collections import deque
from types import TracebackType
from typing import Self

from websockets.asyncio.client import ClientConnection, connect

from relay.envelope import (
    Create,
    Created,
    Error,
    Join,
    Message,
    Notice,
    Presence,
    RelayMessage,
    Send,
    Stamped,
    Welcome,
    decode_relay_frame,
    encode,
)

Event = Message | Presence | Notice


class RelayError(Exception):
    """The relay refused something; ``code`` is stable, ``text`` is for people."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(f"{text} ({code})")
        self.code = code
        self.text = text


async def _open(url: str, tls: ssl.SSLContext | None) -> ClientConnection:
    # A relay that stopped answering should not hold up a reconnection for long.
    return await connect(url, compression=None, ssl=tls, open_timeout=10, close_timeout=2)


async def _read(websocket: ClientConnection) -> RelayMessage:
    message = decode_relay_frame(await websocket.recv(decode=False))
    if isinstance(message, Error):
        raise RelayError(message.code, message.text)
    return message


async def create_room(
    url: str, seats: int, *, again: Created | None = None, tls: ssl.SSLContext | None = None
) -> Created:
    """Ask the relay at ``url`` for a room; the answer holds the id and both tokens.

    ``again`` brings back, under the same id and tokens, a room the relay lost in a restart
    (or answers alike if another member already did).
    """
    async with await _open(url, tls) as websocket:
        await websocket.send(encode(Create(seats, again)))
        reply = await _read(websocket)
    if not isinstance(reply, Created):
        raise RelayError("unexpected", f"The relay answered a create with {reply!r}.")
    return reply


class RoomConnection:
    """One joined connection to a room: send payloads, receive its numbered events in order.

    The events include this member's own messages, each in its place in the room's order.
    The relay does not send them back; it leaves their numbers out of what it sends here (and
    says ``stamped`` when nothing followed), so every number missing from the stream is one
    of our sends, in the order sent.
    """

    def __init__(
        self,
        url: str,
        room_id: str,
        name: str,
        websocket: ClientConnection,
        welcome: Welcome,
        token: str,
        tls: ssl.SSLContext | None,
    ) -> None:
        self.url = url
        self.room_id = room_id
        self.name = name
        self.websocket = websocket
        self.welcome = welcome
        # What reconnects as this same member: the seat token for a player.
        self.token = welcome.seat_token or token
        # The number after the last event returned by receive(); what a resume asks for.
        self.next_seq = welcome.next_seq
        self._expected = welcome.next_seq  # the number after the last event placed
        self._sent: deque[bytes] = deque()  # our payloads not yet placed in the stream
        self._placed: deque[Event] = deque()  # placed, not yet returned by receive()
        self._tls = tls

    @property
    def seat(self) -> int | None:
        return self.welcome.seat

    @classmethod
    async def join(
        cls,
        url: str,
        room_id: str,
        token: str,
        name: str,
        *,
        resume_from: int | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> Self:
        """Join with the player token (a new seat), the spectator token, or a seat token.

        Raises :class:`RelayError` when the relay refuses.
        """
        websocket = await _open(url, tls)
        try:
            await websocket.send(encode(Join(room_id, token, name, resume_from)))
            reply = await _read(websocket)
        except BaseException:
            await websocket.close()
            raise
        if not isinstance(reply, Welcome):
            await websocket.close()
            raise RelayError("unexpected", f"The relay answered a join with {reply!r}.")
        joined = cls(url, room_id, name, websocket, reply, token, tls)
        if resume_from is not None and not reply.resync:
            joined.next_seq = joined._expected = resume_from
        return joined

    async def send(self, payload: bytes) -> None:
        if self.seat is not None:  # noted first: the relay's next event may place it
            self._sent.append(payload)
        await self.websocket.send(encode(Send(payload)))

    async def receive(self) -> Event:
        """The next event: a stamped payload (ours too), a presence change, or a notice.

        Raises :class:`RelayError` on a refusal or a relay that breaks the numbering, and
        ``ConnectionClosed`` when the connection ends.
        """
        while not self._placed:
            message = await _read(self.websocket)
            if isinstance(message, Message | Presence):
                if message.seq < self._expected:
                    raise RelayError(
                        "bad_sequence", f"The relay sent event {message.seq} twice or late."
                    )
                self._place_own_until(message.seq)
                self._placed.append(message)
                self._expected = message.seq + 1
            elif isinstance(message, Stamped):  # a late one places nothing
                self._place_own_until(message.seq + 1)
            elif isinstance(message, Notice):
                self._placed.append(message)
            else:
                raise RelayError(
                    "unexpected", f"The relay sent {message!r} in the middle of a room."
                )
        event = self._placed.popleft()
        if not isinstance(event, Notice):
            self.next_seq = event.seq + 1
        return event

    def _place_own_until(self, seq: int) -> None:
        """The numbers from the last one placed up to ``seq`` (excluded) are our sends."""
        while self._expected < seq:
            if not self._sent or self.seat is None:
                raise RelayError(
                    "bad_sequence",
                    f"The relay skipped event {self._expected}, which is not one of ours.",
                )
            self._placed.append(Message(self._expected, self.seat, self._sent.popleft()))
            self._expected += 1

    async def reconnect(self) -> RoomConnection:
        """A fresh connection as the same member, replaying every event not yet received.

        Our sends the relay numbered come back in the replay; any it never got are not sent
        again here (the caller knows whether they still matter: the app's link resends).
        """
        await self.websocket.close()
        return await RoomConnection.join(
            self.url,
            self.room_id,
            self.token,
            self.name,
            resume_from=self.next_seq,
            tls=self._tls,
        )

    async def close(self) -> None:
        await self.websocket.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()
