"""The relay's websocket connection: admitted at TCP accept, each frame handed to the core as
it is parsed.

:class:`RelayConnection` is websockets' ``ServerConnection`` with two hooks. Its TCP
connection is admitted by the core before a byte of the HTTP upgrade is read
(:meth:`relay.core.RelayCore.admit`). And every frame goes to the core from websockets'
``data_received`` callback, in the order parsed, instead of being queued for a coroutine to
``recv()``: an envelope is always one binary frame, so nothing needs assembling, and a frame
costs no queue, no future and no task switch (the relay's busiest path; see
docs/relay-benchmark.md). Control frames (pings, pongs, close) are websockets' as usual.
"""

from __future__ import annotations

import asyncio
import ssl
from asyncio import sslproto
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, cast

from websockets.asyncio.server import ServerConnection
from websockets.frames import DATA_OPCODES, Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import Event, State

from relay.limits import (
    EARLY_FRAME_COST,
    READ_SLICE,
    TLS_HANDSHAKE_SECONDS,
    UPGRADE_REQUEST_BYTES,
)

if TYPE_CHECKING:
    from relay.outputs import Output
    from relay.server import RelayServer


class RelayConnection(ServerConnection):
    """One client of one relay; :meth:`for_relay` makes the subclass for a relay.

    What every connection of a relay shares is kept on the class, not on each instance: a
    relay holds thousands of idle connections, and each attribute costs each of them."""

    relay: ClassVar[RelayServer]
    _to: ClassVar[_Relay]
    # Nothing is set on an instance but in the rare case of frames before start(): a
    # websocket connection holds some forty attributes, and one more doubles its dict.
    _early: _Early | None = None
    _cut = False  # refused amid a large read: no large read of it is parsed any more

    @classmethod
    def for_relay(cls, relay: RelayServer) -> type[RelayConnection]:
        to = _Relay(relay._carry_out, relay.received, {}, {}, {})
        return type("Connection", (cls,), {"relay": relay, "_to": to})

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        if self in self._to.upgrading:  # over TLS: admitted at TCP accept (TLSGate)
            return
        relay = self.relay
        peer = transport.get_extra_info("peername")
        ip = str(peer[0]) if peer else "local"
        # Behind a trusted proxy every TCP connection is the proxy's: only the global count
        # of half-open connections applies, and core.open counts the proxy's clients.
        refusal = relay.core.admit(ip, per_address=not relay.config.trust_proxy)
        if refusal is None:
            self._to.upgrading[self] = ip
        else:
            relay._carry_out([refusal])
            self.transport.abort()  # websockets' handshake then ends without a word

    def connection_lost(self, exc: Exception | None) -> None:
        self.upgraded()
        self._to.conns.pop(self, None)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.request is not None:
            if len(data) <= READ_SLICE:  # an honest client's read, nearly always
                super().data_received(data)
                return
            # A large read is parsed a slice at a time, and no further once its connection
            # is refused: the rest is a flood's (relay.limits.READ_SLICE). Small reads still
            # are (a refused client's close frame).
            for start in range(0, len(data), READ_SLICE):
                if self._cut or self._refused():
                    self._cut = True
                    return
                super().data_received(data[start : start + READ_SLICE])
            return
        if self.transport.is_closing():  # refused: what still comes is not read
            return
        # Still reading its upgrade request: websockets' own bounds (128 headers of 8 KiB)
        # would let it hold a megabyte; the relay holds UPGRADE_REQUEST_BYTES of it.
        # Counted before websockets parses it, so a read of a larger one is never parsed
        # (what comes behind the request in the same reads counts too: an honest client
        # waits for the 101 before it sends a frame).
        reading = self._to.reading
        read = reading[self] = reading.get(self, 0) + len(data)
        if read > UPGRADE_REQUEST_BYTES:
            self._refuse_upgrade()
            return
        super().data_received(data)

    def _refused(self) -> bool:
        """Whether the core refused this connection (it is closing)."""
        conn = self._to.conns.get(self)
        session = None if conn is None else self.relay.core.sessions.get(conn)
        return session is not None and session.closing

    def _refuse_upgrade(self) -> None:
        """Its upgrade request is larger than any real client's: answered 431 and closed
        (there is no websocket yet to carry a refusal frame). An answer, not an abort: a
        proxy in front takes an abort for its upstream failing and may stop sending anyone
        to this relay for a while (deploy/nginx-tablier-relays.conf), so one such request
        would take the relay out of rotation; a 431 is passed back to the client alone."""
        ip = self._to.upgrading.get(self)
        if self.transport.is_closing():
            return
        if ip is not None:
            self.relay._carry_out([self.relay.core.refused_upgrade(ip, "request_too_large")])
        self.transport.write(_TOO_LARGE)
        self.transport.close()  # once the answer is written; nothing more is read

    def upgraded(self) -> None:
        self._to.reading.pop(self, None)
        ip = self._to.upgrading.pop(self, None)
        if ip is not None:
            relay = self.relay
            relay.core.upgraded_or_gone(ip, per_address=not relay.config.trust_proxy)

    def start(self, conn: int) -> None:
        """The core knows it as ``conn`` now: hand it every frame from here on."""
        self._to.conns[self] = conn
        early, self._early = self._early, None
        if early is not None:
            for frame in early.frames:
                self._data_frame(frame)
            if early.dropped:
                self._to.carry_out(self.relay.core.receive_too_early(conn))

    def process_event(self, event: Event) -> None:
        # The hot path: a whole binary frame, straight to the core.
        if type(event) is Frame and event.opcode is Opcode.BINARY and event.fin:
            to = self._to
            conn = to.conns.get(self)
            if conn is not None:
                to.received(conn, bytes(event.data))
                return
        if not isinstance(event, Frame):  # the upgrade request
            if isinstance(event, Request) and _request_size(event) > UPGRADE_REQUEST_BYTES:
                self._refuse_upgrade()  # it came whole in one read
                return
            super().process_event(event)
        elif event.opcode not in DATA_OPCODES:
            super().process_event(event)  # pings, pongs, close: websockets' own
            if event.opcode is not Opcode.CLOSE:
                self._control(event)
        elif self not in self._to.conns:
            self._hold(event, len(event.data))
        else:
            self._data_frame(event)

    def _hold(self, frame: Frame | None, size: int) -> None:
        """A frame before the core opened the connection: kept for :meth:`start` (a control
        frame, already answered, only counted), within one full frame's worth
        (relay.limits.EARLY_FRAME_COST)."""
        early = self._early
        if early is None:
            early = self._early = _Early()
        early.size += size + EARLY_FRAME_COST
        if early.size > self.relay.config.max_frame:
            early.dropped = True
        elif frame is not None:
            early.frames.append(frame)

    def _control(self, frame: Frame) -> None:
        """A ping or pong, which websockets has answered (a ping with a pong) before the relay
        sees it: it costs a token of the connection's rate limit like a message, and the pongs
        a client that does not read makes the relay queue are cut off like its messages."""
        relay = self.relay
        conn = self._to.conns.get(self)
        if conn is None:
            self._hold(None, len(frame.data))
        elif self.protocol.state is not State.OPEN:
            # Refused and closing, and still pinging: it does not read the close either.
            self.transport.abort()
        else:
            self._to.carry_out(relay.core.receive_control(conn, relay._clock()))
        if not self.transport.is_closing() and (
            self.transport.get_write_buffer_size() > relay._max_queued_bytes
        ):
            relay._drop_slow_reader(self)

    def _data_frame(self, frame: Frame) -> None:
        core, to = self.relay.core, self._to
        conn = to.conns[self]
        if frame.opcode is Opcode.BINARY and frame.fin:
            to.received(conn, bytes(frame.data))
        elif frame.opcode is Opcode.TEXT and frame.fin:
            to.carry_out(core.receive_text(conn))
        else:  # a fragment: an envelope is one frame, and nothing is assembled for it
            to.carry_out(core.receive_fragment(conn))


class TLSGate(asyncio.Protocol):
    """A wss:// connection, admitted at TCP accept before a byte of TLS is read.

    asyncio (and uvloop) listening with ``ssl=`` hand the protocol its connection only once
    the TLS handshake is done: until then a TCP connection is nobody's to count, and one
    address could hold thousands of them, silent, each some kilobytes of TLS state. So the
    relay listens without ``ssl=``, and this protocol, first to hear of each TCP connection,
    admits it as :meth:`RelayConnection.connection_made` does for ws://; then TLS runs over
    it (asyncio's own TLS protocol, within relay.limits.TLS_HANDSHAKE_SECONDS) and hands the
    websocket connection the encrypted transport."""

    def __init__(self, connection: RelayConnection, context: ssl.SSLContext) -> None:
        self._connection = connection
        self._context = context

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        connection = self._connection
        relay = connection.relay
        peer = transport.get_extra_info("peername")
        ip = str(peer[0]) if peer else "local"
        refusal = relay.core.admit(ip, per_address=not relay.config.trust_proxy)
        if refusal is not None:
            relay._carry_out([refusal])
            cast(asyncio.Transport, transport).abort()
            return
        connection._to.upgrading[connection] = ip  # counted until upgraded or gone
        handshake = min(TLS_HANDSHAKE_SECONDS, relay.config.handshake_timeout)
        tls = _TLS(
            asyncio.get_running_loop(),
            connection,
            self._context,
            None,  # type: ignore[arg-type]  # no one waits on it (typeshed says a future)
            server_side=True,
            ssl_handshake_timeout=handshake,  # type: ignore[arg-type]  # typeshed says int
            ssl_shutdown_timeout=relay.config.shutdown_timeout,
        )
        transport.set_protocol(tls)
        tls.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        pass  # refused and aborted: nothing more is read


class _TLS(sslproto.SSLProtocol):
    """asyncio's TLS protocol, which tells the relay of a connection gone before its
    handshake ended (it tells the websocket connection only of one gone after)."""

    def connection_lost(self, exc: BaseException | None) -> None:
        connection = self._app_protocol  # (asyncio forgets it in connection_lost)
        super().connection_lost(exc)
        assert isinstance(connection, RelayConnection)
        connection.upgraded()  # at most once: a second call finds nothing to release


@dataclass(frozen=True, slots=True)
class _Relay:
    """Where a relay's connections send their frames, bound once for all of them."""

    carry_out: Callable[[list[Output]], None]
    received: Callable[[int, bytes], None]  # a whole binary frame from a connection
    conns: dict[RelayConnection, int]  # the core's id of each connection it opened
    upgrading: dict[RelayConnection, str]  # admitted, not upgraded yet: its address
    reading: dict[RelayConnection, int]  # the bytes read of its upgrade request so far


@dataclass(slots=True)
class _Early:
    """The frames a connection sent before the core opened it (rare: honest clients wait)."""

    frames: list[Frame] = field(default_factory=list)
    size: int = 0  # their bytes, and EARLY_FRAME_COST each, control frames counted too
    dropped: bool = False  # past relay.config.max_frame: those after were not kept


# The whole answer to an upgrade request past UPGRADE_REQUEST_BYTES (RFC 6585 section 5).
_TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
    b"Content-Length: 0\r\nConnection: close\r\n\r\n"
)


def _request_size(request: Request) -> int:
    """An upgrade request's bytes, near enough: its path and each header line."""
    lines = sum(len(name) + len(value) + 4 for name, value in request.headers.raw_items())
    return len(request.path) + lines
