"""The asyncio websockets shell around :class:`relay.core.RelayCore`.

It owns sockets, the clock and timers; every decision is the core's. Embed it with::

    async with RelayServer(RelayConfig(port=0)) as relay:
        print(relay.url)  # ws://127.0.0.1:<port>/
        ...

``GET /healthz`` and ``GET /metrics`` are answered on the same port as the websockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import itertools
import logging
import ssl
import time
from collections.abc import Callable, Collection, Coroutine
from http import HTTPStatus
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.frames import CloseCode
from websockets.http11 import Request, Response
from websockets.protocol import State

from relay import logs, metrics
from relay.config import RelayConfig
from relay.connection import RelayConnection, TLSGate
from relay.core import RelayCore
from relay.envelope import ErrorCode
from relay.fault import Fault
from relay.outputs import Close, Log, Output, Transmit
from relay.shared import Append, Bring, Check, Enter, Event, Leave

if TYPE_CHECKING:
    from relay.redis_backplane import RedisBackplane

RESTART_REASON = "relay restarting"
# A member with this many full-size frames queued for it in the relay is not reading.
SLOW_READER_FRAMES = 64
_WEBSOCKETS_LOGGER = logging.getLogger("websockets.server")


class CertificateError(ValueError):
    """The TLS certificate or key the operator gave cannot be used (bad values from a
    file: the operator's input, ``fault``); the message says which and why.
    ``unreadable``: the system's refusal to read them (None: read, but not a PEM pair)."""

    fault = Fault.INPUT

    def __init__(self, message: str, unreadable: OSError | None = None) -> None:
        super().__init__(message)
        self.unreadable = unreadable


class RelayServer:
    """A running relay: websockets on ``config.host:config.port``, rules from the core."""

    def __init__(self, config: RelayConfig | None = None) -> None:
        self.config = config or RelayConfig()
        self.backplane: RedisBackplane | None = None
        if self.config.backplane is not None:
            # Imported only here: a relay without a backplane needs no Redis client.
            from relay.redis_backplane import RedisBackplane

            self.backplane = RedisBackplane(self.config.backplane, self.config)
        process = None if self.backplane is None else self.backplane.process
        self.core = RelayCore(self.config, process=process)
        self._server: Server | None = None
        self._connections: dict[int, ServerConnection] = {}
        self._ids = itertools.count(1)
        self._tasks: set[asyncio.Task[None]] = set()
        self._ticker: asyncio.Task[None] | None = None
        self._max_queued_bytes = SLOW_READER_FRAMES * self.config.max_frame
        self._clock: Callable[[], float] = time.monotonic  # the loop's, once started
        # One address's lines fill the log at a bounded pace (relay.logs.LINES_PER_ADDRESS).
        self._pacer = logs.LogPacer()

    # --- lifecycle -----------------------------------------------------------------------

    async def start(self) -> None:
        config = self.config
        self._clock = asyncio.get_running_loop().time
        # Each connection hands its frames to this relay's core (relay.connection).
        connection_class = RelayConnection.for_relay(self)
        tls = self._tls_context()
        create_connection: Callable[..., Any] = connection_class
        if tls is not None:
            # Listening without ssl=: each TCP connection is admitted before its TLS
            # handshake, then TLS runs over it (relay.connection.TLSGate).
            def create_connection(*args: Any, **kwargs: Any) -> Any:
                return TLSGate(connection_class(*args, **kwargs), tls)

        self._server = await serve(
            self._handle,
            config.host,
            config.port,
            process_request=self._answer_http,
            compression=None,  # no permessage-deflate: no decompression bombs
            max_size=config.max_frame,
            open_timeout=config.handshake_timeout,
            ping_interval=config.ping_interval,
            ping_timeout=config.ping_timeout,
            close_timeout=config.shutdown_timeout,
            server_header="tablier-relay",
            logger=_WEBSOCKETS_LOGGER,  # looked up once, not once per connection
            create_connection=create_connection,  # type: ignore[arg-type]  # any factory
        )
        self._ticker = asyncio.create_task(self._tick_forever())
        if self.backplane is not None:
            await self.backplane.start(self)

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Stop accepting, tell every client the relay is restarting, close within the bound."""
        server = self._server
        if server is None:
            return
        self._server = None
        if self._ticker is not None:
            self._ticker.cancel()
        self._carry_out(self.core.shutdown())
        server.close(code=CloseCode.SERVICE_RESTART, reason=RESTART_REASON)
        try:
            async with asyncio.timeout(self.config.shutdown_timeout):
                await server.wait_closed()
        except TimeoutError:
            # Clients that ignore the close, or never finished their HTTP handshake.
            for connection in self._connections.values():
                connection.transport.abort()
            for task in server.handler_tasks:
                task.cancel()
            await server.wait_closed()
        self._write(self._pacer.summaries())  # what was held back is counted, not lost
        if self.backplane is not None:
            # The departures just made still go to Redis (bounded), then the link closes.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.config.shutdown_timeout):
                    await asyncio.gather(*self._tasks, return_exceptions=True)
            await self.backplane.close()

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the relay is not running")
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    @property
    def url(self) -> str:
        scheme = "wss" if self.config.tls else "ws"
        host = f"[{self.config.host}]" if ":" in self.config.host else self.config.host
        return f"{scheme}://{host}:{self.port}/"

    def _tls_context(self) -> ssl.SSLContext | None:
        if self.config.certfile is None:
            return None
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        try:
            context.load_cert_chain(self.config.certfile, self.config.keyfile)
        except ssl.SSLError as exc:
            raise CertificateError(
                f"{self.config.certfile} and {self.config.keyfile} are not a PEM certificate "
                "chain and its matching private key"
            ) from exc
        except OSError as exc:
            raise CertificateError(
                f"cannot read {self.config.certfile} or {self.config.keyfile}: {exc.strerror}",
                unreadable=exc,
            ) from exc
        return context

    # --- connections ---------------------------------------------------------------------

    async def _handle(self, websocket: ServerConnection) -> None:
        """A connection upgraded: the core opens it, then its frames reach the core as they
        arrive (:class:`relay.connection.RelayConnection`) until it closes."""
        assert isinstance(websocket, RelayConnection)
        conn = next(self._ids)
        loop = asyncio.get_running_loop()
        core = self.core
        self._connections[conn] = websocket
        websocket.upgraded()
        try:
            self._carry_out(core.open(conn, self._client_address(websocket), loop.time()))
            # websockets keeps the opening handshake's headers (both sides', some 2 KiB a
            # connection: an idle connection's largest part) for the connection's life; the
            # relay has read what it needs of them (the address). websockets itself reads only
            # whether there was a request, so the request and response stay, their headers go.
            for handshake in (websocket.request, websocket.response):
                if handshake is not None:
                    handshake.headers.clear()
            websocket.start(conn)
            await websocket.wait_closed()
        finally:
            sent = websocket.protocol.close_sent
            if sent is not None and sent.code == CloseCode.MESSAGE_TOO_BIG:
                self._carry_out(core.refused_by_transport(conn, ErrorCode.FRAME_TOO_LARGE))
            del self._connections[conn]
            self._carry_out(core.closed(conn, loop.time()))

    def _client_address(self, websocket: ServerConnection) -> str:
        """The address limits are counted against: behind a trusted proxy, the one it saw."""
        if self.config.trust_proxy and websocket.request is not None:
            # The last address is the one our own proxy appended; earlier ones are hearsay.
            forwarded = websocket.request.headers.get_all("X-Forwarded-For")
            if forwarded and forwarded[-1].strip():
                return forwarded[-1].rsplit(",", 1)[-1].strip()
        peer = websocket.remote_address
        return str(peer[0]) if peer else "local"

    def _carry_out(self, outputs: list[Output]) -> None:
        connections = self._connections
        for output in outputs:
            if type(output) is Transmit:
                # The same bytes to every member, written at once without awaiting anyone
                # (websockets still puts a frame header on each copy).
                # Not to one whose transport failed or is closing: asyncio would warn once
                # per frame written to a dead socket (a replay is hundreds of frames).
                targets = [
                    ws
                    for c in output.to
                    if (ws := connections.get(c)) is not None and not ws.transport.is_closing()
                ]
                broadcast(targets, output.data)
                limit = self._max_queued_bytes
                for target in targets:
                    if target.transport.get_write_buffer_size() > limit:
                        self._drop_slow_reader(target)
            elif type(output) is Append:
                assert self.backplane is not None
                self.backplane.append(output)
            elif isinstance(output, Close):
                websocket = connections.get(output.conn)
                if websocket is None:
                    pass
                elif output.at_once:
                    _close_at_once(websocket, output)
                else:
                    self._spawn(websocket.close(output.code, output.reason))
            elif isinstance(output, Log):
                self._write(self._pacer.pace(output, self._clock()))
            elif isinstance(output, Enter | Bring | Leave | Check):
                self._spawn(self._ask(output))

    def _write(self, entries: list[Log]) -> None:
        if entries and logs.logger.isEnabledFor(logging.INFO):
            # Rendered only for a logger that keeps it (an embedding app may not).
            for entry in entries:
                logs.logger.info(logs.render(entry, self.config.log_json))

    async def _ask(self, request: Enter | Bring | Leave | Check) -> None:
        """Carry a request to the backplane, and its answer back to the core."""
        backplane = self.backplane
        assert backplane is not None
        loop = asyncio.get_running_loop()
        if isinstance(request, Enter):
            entered = await backplane.enter(request)
            self._carry_out(self.core.entered(request.conn, entered, loop.time()))
            if not isinstance(entered, ErrorCode):
                backplane.settled(entered.room_id)
        elif isinstance(request, Bring):
            self._carry_out(self.core.brought(request.conn, await backplane.bring(request)))
        elif isinstance(request, Leave):
            await backplane.leave(request)
        elif isinstance(request, Check):
            await backplane.check(request)

    # --- what the backplane tells (relay.redis_backplane.Listener) ------------------------

    def on_events(self, room_id: str, events: list[Event]) -> None:
        now = asyncio.get_running_loop().time()
        self._carry_out(self.core.delivered(room_id, events, now))

    def on_lost(self, reason: str) -> None:
        self._carry_out(self.core.lost_backplane(reason))

    def on_lost_room(self, room_id: str) -> None:
        self._carry_out(self.core.resync(room_id))

    def on_let_go(self, room_id: str, holder: str, reason: str) -> None:
        self._carry_out(self.core.let_go(room_id, holder, reason))

    def served(self) -> Collection[str]:
        return self.core.shared.keys()

    def _drop_slow_reader(self, websocket: ServerConnection) -> None:
        """Broadcasting never waits, so a member that stops reading would make the relay queue
        its room's traffic without bound: past the limit it is cut off (no frame can get
        through its full buffer anyway)."""
        # A search, not a map kept per frame: cutting a member off is rare.
        conn = next((c for c, ws in self._connections.items() if ws is websocket), None)
        if conn is not None:  # None: not open in the core yet (pongs before it was)
            self._carry_out(self.core.refused_by_transport(conn, ErrorCode.TOO_SLOW))
        websocket.transport.abort()

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tick_forever(self) -> None:
        config = self.config
        # Often enough that every timeout fires within a quarter of its length.
        interval = max(
            0.05, min(1.0, config.handshake_timeout, config.seat_grace, config.room_idle) / 4
        )
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(interval)
            now = loop.time()
            self._carry_out(self.core.tick(now))
            self._write(self._pacer.due(now))

    def received(self, conn: int, data: bytes) -> None:
        """A whole binary frame from ``conn`` (the busiest path: relay.connection)."""
        self._carry_out(self.core.receive(conn, data, self._clock()))

    # --- plain HTTP on the same port -----------------------------------------------------

    def _answer_http(self, websocket: ServerConnection, request: Request) -> Response | None:
        path = request.path.partition("?")[0]
        if path == "/":
            if "Upgrade" in request.headers:
                return None  # the websocket handshake proceeds (websockets checks the rest)
            # A plain GET of the websocket path (a browser, a probe): the relay's own answer,
            # the status HTTP has for it, rather than websockets' handshake failure.
            response = websocket.respond(
                HTTPStatus.UPGRADE_REQUIRED,
                "Upgrade required. This relay serves websockets on / (docs/relay-protocol.md) "
                "and plain HTTP on /healthz and /metrics.\n",
            )
            response.headers["Upgrade"] = "websocket"
            return response
        if path == "/healthz":
            why = None if self.backplane is None else self.backplane.unavailable
            if why is not None:
                return websocket.respond(HTTPStatus.SERVICE_UNAVAILABLE, f"unavailable: {why}\n")
            return websocket.respond(HTTPStatus.OK, "ok\n")
        if path == "/metrics" and not _loopback(websocket):
            # Its counters tell when and how fast rooms play: for the machine's own scraper
            # (or a proxy's, which the example configs keep from the internet), not for
            # anyone who can reach a relay listening on a public address.
            return websocket.respond(
                HTTPStatus.FORBIDDEN, "Forbidden. /metrics answers this machine's own address.\n"
            )
        if path == "/metrics":
            text = metrics.render(self.core, None if self.backplane is None else self.backplane)
            response = websocket.respond(HTTPStatus.OK, text)
            del response.headers["Content-Type"]
            response.headers["Content-Type"] = metrics.CONTENT_TYPE
            return response
        return websocket.respond(
            HTTPStatus.NOT_FOUND,
            "Not found. This relay serves websockets on / and plain HTTP on /healthz and "
            "/metrics.\n",
        )


def _close_at_once(websocket: ServerConnection, close: Close) -> None:
    """The close frame after what was written, then the TCP connection closed once that is
    sent (relay.outputs.Close.at_once): the client's close is not waited for."""
    if websocket.protocol.state is State.OPEN:
        websocket.protocol.send_close(close.code, close.reason)
        websocket.send_data()
    websocket.transport.close()


def _loopback(websocket: ServerConnection) -> bool:
    """The TCP peer is this machine (127.0.0.0/8, ::1, or a Unix socket)."""
    peer = websocket.transport.get_extra_info("peername")
    if not peer or not isinstance(peer, tuple):
        return True
    try:
        address = ipaddress.ip_address(str(peer[0]).partition("%")[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback  # ::ffff:127.0.0.1 from a dual-stack socket
    return address.is_loopback
