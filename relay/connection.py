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
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from websockets.asyncio.server import ServerConnection
from websockets.frames import DATA_OPCODES, Frame, Opcode
from websockets.protocol import Event

if TYPE_CHECKING:
    from relay.core import Output
    from relay.server import RelayServer


class RelayConnection(ServerConnection):
    """One client of one relay; :meth:`for_relay` makes the subclass for a relay.

    What every connection of a relay shares is kept on the class, not on each instance: a
    relay holds thousands of idle connections, and each attribute costs each of them."""

    relay: ClassVar[RelayServer]
    _to: ClassVar[_Relay]
    # Nothing is set on an instance but in the rare case of frames before start(): a
    # websocket connection holds some forty attributes, and one more doubles its dict.
    _early: list[Frame] | None = None

    @classmethod
    def for_relay(cls, relay: RelayServer) -> type[RelayConnection]:
        to = _Relay(relay._carry_out, relay.received, {}, {})
        return type("Connection", (cls,), {"relay": relay, "_to": to})

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
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

    def upgraded(self) -> None:
        ip = self._to.upgrading.pop(self, None)
        if ip is not None:
            relay = self.relay
            relay.core.upgraded_or_gone(ip, per_address=not relay.config.trust_proxy)

    def start(self, conn: int) -> None:
        """The core knows it as ``conn`` now: hand it every frame from here on."""
        self._to.conns[self] = conn
        for frame in self._early or ():
            self._data_frame(frame)
        self._early = None

    def process_event(self, event: Event) -> None:
        # The hot path: a whole binary frame, straight to the core.
        if type(event) is Frame and event.opcode is Opcode.BINARY and event.fin:
            to = self._to
            conn = to.conns.get(self)
            if conn is not None:
                to.received(conn, bytes(event.data))
                return
        if not isinstance(event, Frame) or event.opcode not in DATA_OPCODES:
            super().process_event(event)  # the upgrade request, pings, pongs, close
        elif self not in self._to.conns:
            self._early = [*(self._early or ()), event]
        else:
            self._data_frame(event)

    def _data_frame(self, frame: Frame) -> None:
        core, to = self.relay.core, self._to
        conn = to.conns[self]
        if frame.opcode is Opcode.BINARY and frame.fin:
            to.received(conn, bytes(frame.data))
        elif frame.opcode is Opcode.TEXT and frame.fin:
            to.carry_out(core.receive_text(conn))
        else:  # a fragment: an envelope is one frame, and nothing is assembled for it
            to.carry_out(core.receive_fragment(conn))


@dataclass(frozen=True, slots=True)
class _Relay:
    """Where a relay's connections send their frames, bound once for all of them."""

    carry_out: Callable[[list[Output]], None]
    received: Callable[[int, bytes], None]  # a whole binary frame from a connection
    conns: dict[RelayConnection, int]  # the core's id of each connection it opened
    upgrading: dict[RelayConnection, str]  # admitted, not upgraded yet: its address
