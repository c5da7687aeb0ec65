"""A small asyncio client for the relay envelope: what the Tablier app and the tests speak.

::

    room = await create_room(url, seats=2)
    async with await RoomConnection.join(url, room.room_id, room.player_token, "Ada") as ada:
        await ada.send(b"hello", tell=True)
        event = await ada.receive()  # Message(seq=1, seat=0, payload=b"hello"), after presence
        # (our own sends come back as events too, placed where the relay numbered them: at
        # once with tell, else when the next event of another member shows where)
        ...
        ada = await ada.reconnect()  # same seat, missed events replayed from ada.next_seq
"""

from __future__ import annotations

import ssl
from collections import deque
from types import TracebackType
from typing import Self

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidURI

from relay.envelope import (
    Create,
    Created,
    Error,
    ErrorCode,
    Join,
    Notice,
    RelayMessage,
    Send,
    Welcome,
    decode_relay_frame,
    encode,
)
from relay.fault import Fault
from relay.stream import Event, MemberStream, StreamError


class RelayError(ConnectionError):
    """The relay refused something (a connection-level refusal, as ConnectionRefusedError
    is the system's); ``code`` is stable, ``text`` is for people, ``fault`` says whose it is
    (:data:`FAULTS`; a code this client does not know, or its own ``unexpected`` and
    ``bad_sequence`` when the relay broke the envelope's rules: the relay's).

    >>> RelayError("bad_token", "That token opens no seat.").fault
    <Fault.INPUT: 'input'>
    >>> str(RelayError("bad_sequence", "event 3 after event 5"))
    'event 3 after event 5 (bad_sequence)'
    """

    def __init__(self, code: str, text: str) -> None:
        super().__init__(f"{text} ({code})")
        self.code = code
        self.text = text
        self.fault = FAULTS.get(code, Fault.RELAY)


FAULTS: dict[str, Fault] = {
    # What this client sent the relay refuses: a bug of ours.
    ErrorCode.BAD_ENVELOPE: Fault.OURS,
    ErrorCode.TEXT_FRAME: Fault.OURS,
    ErrorCode.FRAME_TOO_LARGE: Fault.OURS,
    ErrorCode.RATE_LIMITED: Fault.OURS,
    ErrorCode.TOO_SLOW: Fault.OURS,
    ErrorCode.HANDSHAKE_TIMEOUT: Fault.OURS,
    ErrorCode.BAD_RESUME: Fault.OURS,
    ErrorCode.NOT_JOINED: Fault.OURS,
    ErrorCode.ALREADY_JOINED: Fault.OURS,
    ErrorCode.SPECTATOR_CANNOT_SEND: Fault.OURS,
    # What the person did or gave: his other connections, the invite, the name, the seat
    # count, the seat held elsewhere.
    ErrorCode.TOO_MANY_CONNECTIONS: Fault.INPUT,
    ErrorCode.TOO_MANY_FAILURES: Fault.INPUT,
    ErrorCode.BAD_SEATS: Fault.INPUT,
    ErrorCode.BAD_NAME: Fault.INPUT,
    ErrorCode.NAME_TAKEN: Fault.INPUT,
    ErrorCode.UNKNOWN_ROOM: Fault.INPUT,
    ErrorCode.BAD_TOKEN: Fault.INPUT,
    ErrorCode.SEAT_EXPIRED: Fault.INPUT,
    ErrorCode.ROOM_FULL: Fault.INPUT,
    ErrorCode.SPECTATORS_FULL: Fault.INPUT,
    ErrorCode.REPLACED: Fault.INPUT,
    # The relay cannot serve: full, unavailable, or of another version.
    ErrorCode.UNSUPPORTED_VERSION: Fault.RELAY,
    ErrorCode.TOO_MANY_ROOMS: Fault.RELAY,
    ErrorCode.UNAVAILABLE: Fault.RELAY,
}
"""Whose fault each of the relay's refusal codes is, seen from the client it refuses
(tests/relay/test_faults.py holds that every :class:`~relay.envelope.ErrorCode` has one)."""


async def _open(url: str, tls: ssl.SSLContext | None) -> ClientConnection:
    """A connection to the relay at *url*; :class:`InvalidURI` when *url* cannot name one
    (the resolver's ``UnicodeError`` for a host such as ``a..b``: no relay was reached, so
    none is blamed)."""
    # A relay that stopped answering should not hold up a reconnection for long.
    try:
        if tls is None:  # websockets' own default: for wss://, the system's trust (None fails)
            return await connect(url, compression=None, open_timeout=10, close_timeout=2)
        return await connect(url, compression=None, ssl=tls, open_timeout=10, close_timeout=2)
    except OSError:  # a certificate refused is a ValueError too, but the relay's doing
        raise
    except ValueError as error:  # UnicodeError included: the address, before any relay
        raise InvalidURI(url, f"not an address to connect to ({type(error).__name__})") from None


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

    The events include this member's own messages, each in its place in the room's order
    (the relay does not send them back: :class:`~relay.stream.MemberStream` places them).
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
        self._stream = MemberStream(welcome.seat, welcome.next_seq)
        self._placed: deque[Event] = deque()  # in the stream, not yet returned by receive()
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
        epoch: int | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> Self:
        """Join with the player token (a new seat), the spectator token, or a seat token.

        ``resume_from`` (numbered in ``epoch``, the one the last welcome gave) asks for the
        events from there on first. Raises :class:`RelayError` when the relay refuses.
        """
        websocket = await _open(url, tls)
        try:
            await websocket.send(encode(Join(room_id, token, name, resume_from, epoch)))
            reply = await _read(websocket)
        except BaseException:
            await websocket.close()
            raise
        if not isinstance(reply, Welcome):
            await websocket.close()
            raise RelayError("unexpected", f"The relay answered a join with {reply!r}.")
        joined = cls(url, room_id, name, websocket, reply, token, tls)
        if resume_from is not None and not reply.resync:
            joined.next_seq = joined._stream.next_seq = resume_from
        return joined

    async def send(self, payload: bytes, *, tell: bool = False) -> None:
        """Send ``payload`` to the room. It comes back from :meth:`receive` in its place once
        another event shows where that is, or at once with ``tell`` (the relay says)."""
        self._stream.sent(payload)
        await self.websocket.send(encode(Send(payload, tell)))

    async def receive(self) -> Event:
        """The next event: a stamped payload (ours too), a presence change, or a notice.

        Raises :class:`RelayError` on a refusal or a relay that breaks the numbering, and
        ``ConnectionClosed`` when the connection ends.
        """
        while not self._placed:
            message = await _read(self.websocket)
            try:
                self._placed.extend(self._stream.received(message))
            except StreamError as error:
                raise RelayError("bad_sequence", str(error)) from None
            except TypeError:
                raise RelayError(
                    "unexpected", f"The relay sent {message!r} in the middle of a room."
                ) from None
        event = self._placed.popleft()
        if not isinstance(event, Notice):
            self.next_seq = event.seq + 1
        return event

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
            epoch=self.welcome.epoch,
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
