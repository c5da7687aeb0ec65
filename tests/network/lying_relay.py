"""A hostile relay for the tests: a real relay behind it, its answers rewritten on the way.

:class:`LyingRelay` listens on loopback and, for each client, opens a connection to a real
relay and passes every frame along, except that ``lie`` rewrites each relay message on its
way to the client (the room id of a ``created``, the names of a ``welcome``'s roster…). The
client's joins are mapped back to the real room, so the lie holds for as long as the client
believes it: everything else the real relay does goes on as ever.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import replace
from types import TracebackType

from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from relay.envelope import (
    Created,
    Join,
    RelayMessage,
    decode_client_frame,
    decode_relay_frame,
    encode,
)

Lie = Callable[[RelayMessage], RelayMessage]


class LyingRelay:
    def __init__(self, upstream: str, lie: Lie) -> None:
        self.upstream = upstream
        self.lie = lie
        self.rooms: dict[str, str] = {}  # the room id told -> the real one
        self._server: Server | None = None
        self.url = ""

    async def __aenter__(self) -> LyingRelay:
        self._server = await serve(self._carry, "127.0.0.1", 0, compression=None)
        self.url = f"ws://127.0.0.1:{self._server.sockets[0].getsockname()[1]}/"
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

    async def _carry(self, client: ServerConnection) -> None:
        async with connect(self.upstream, compression=None) as relay:
            tasks = [asyncio.create_task(self._up(client, relay)),
                     asyncio.create_task(self._down(relay, client))]  # fmt: skip
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _up(self, client: ServerConnection, relay: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for frame in client:
                message = decode_client_frame(frame)  # type: ignore[arg-type]
                if isinstance(message, Join) and message.room_id in self.rooms:
                    message = replace(message, room_id=self.rooms[message.room_id])
                await relay.send(encode(message))

    async def _down(self, relay: ClientConnection, client: ServerConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for frame in relay:
                message = decode_relay_frame(frame)  # type: ignore[arg-type]
                told = self.lie(message)
                if isinstance(message, Created) and isinstance(told, Created):
                    self.rooms[told.room_id] = message.room_id
                await client.send(encode(told))
