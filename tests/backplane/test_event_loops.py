"""The backplane on an event loop whose transports are not asyncio's classes.

uvloop (the ``fast`` extra, which the relay's command picks when installed) hands protocols a
``TCPTransport`` that is no ``asyncio.Transport`` subclass; a relay that checked the class
never reached Redis under uvloop (/healthz 503 for ever). uvloop is not in the test lock, so
this runs the real backplane, against a real redis-server, on asyncio's own loop made to hand
every protocol such a transport: any class check on a transport fails here as under uvloop."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

from relay.client import RoomConnection, create_room
from relay.envelope import Message
from tests.backplane.conftest import shared_relays
from tests.backplane.test_shared import receive


class _Opaque:
    """A transport that does everything asyncio's does and is not of its classes, as uvloop's."""

    def __init__(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class _Handing(asyncio.Protocol):
    """Stands between asyncio's transport and the protocol, which sees only :class:`_Opaque`."""

    def __init__(self, protocol: asyncio.Protocol) -> None:
        self._protocol = protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._protocol.connection_made(_Opaque(transport))  # type: ignore[arg-type]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._protocol, name)

    def data_received(self, data: bytes) -> None:
        self._protocol.data_received(data)

    def eof_received(self) -> bool | None:
        return self._protocol.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self._protocol.connection_lost(exc)

    def pause_writing(self) -> None:
        self._protocol.pause_writing()

    def resume_writing(self) -> None:
        self._protocol.resume_writing()


class _OpaqueLoop(asyncio.SelectorEventLoop):
    """asyncio's own loop, but every TCP protocol is handed an :class:`_Opaque` transport."""

    def _make_socket_transport(
        self, sock: socket.socket, protocol: asyncio.Protocol, *args: Any, **kwargs: Any
    ) -> Any:
        make = super()._make_socket_transport  # type: ignore[misc]  # private, not in typeshed
        return make(sock, _Handing(protocol), *args, **kwargs)


def test_the_backplane_works_on_a_loop_whose_transports_are_not_asyncios(backplane: str) -> None:
    """Two relays sharing a room through Redis on such a loop: Ada's message reaches Bob."""

    async def play() -> None:
        async with shared_relays(backplane, 2) as (one, two):
            room = await create_room(one.url, seats=2)
            ada = await RoomConnection.join(one.url, room.room_id, room.player_token, "Ada")
            bob = await RoomConnection.join(two.url, room.room_id, room.player_token, "Bob")
            await receive(ada, 2)  # Ada's arrival, Bob's
            await receive(bob)
            await ada.send(b"hello")
            (heard,) = await receive(bob)
            assert isinstance(heard, Message) and heard.payload == b"hello"
            await ada.close()
            await bob.close()

    with asyncio.Runner(loop_factory=_OpaqueLoop) as runner:
        runner.run(play())
