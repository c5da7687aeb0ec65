"""One connection to Redis for a relay process's busiest talk with it, spoken directly.

:class:`RedisLink` is an asyncio protocol on one socket, in RESP3: commands are packed by
hiredis and written as they are handed over (many per write), answers are parsed by hiredis
in the socket's callback and handed on there and then, in order, without a task, a future
or a queue per answer. RESP3 lets the same connection be subscribed to a Pub/Sub channel:
the messages published to it arrive among the answers, in the order Redis did the work, so
a process hears its own appends' answers and the other processes' events in one order.

It is what numbering every message costs the relay on top of the relay in memory (see
docs/relay-benchmark.md); the rarer requests (joins, departures) use redis-py.
"""

from __future__ import annotations

import asyncio
import ssl
from collections import deque
from collections.abc import Callable
from typing import Any, cast

import hiredis
from redis.asyncio.connection import SSLConnection, parse_url
from redis.exceptions import ResponseError

Command = tuple[str | bytes | int | float, ...]
_NOTHING = object()  # what hiredis gives when no whole answer is buffered (False is one)


def pack(command: Command) -> bytes:
    """One command in RESP, packed by hiredis (in C: a few µs for an append's 16 arguments)."""
    # hiredis's stub says a tuple of one element; it takes any number.
    packed: bytes = hiredis.pack_command(command)  # type: ignore[arg-type]
    return packed


class Waiting:
    """The answers of one write, in order: ``left`` of them still to come."""

    __slots__ = ("left", "sent")

    def __init__(self, count: int, sent: float) -> None:
        self.left = count
        self.sent = sent

    def answer(self, answer: Any) -> None:
        """The next answer (a :class:`ResponseError` for a command Redis refused)."""

    def fail(self, error: BaseException) -> None:
        """The link is gone: the answers still due will never come."""


class _Answers(Waiting):
    """The answers of :meth:`RedisLink.ask`, for a coroutine to await."""

    __slots__ = ("answers", "future")

    def __init__(self, count: int, sent: float, future: asyncio.Future[list[Any]]) -> None:
        super().__init__(count, sent)
        self.answers: list[Any] = []
        self.future = future

    def answer(self, answer: Any) -> None:
        self.answers.append(answer)
        if not self.left and not self.future.done():  # the link counts them down
            self.future.set_result(self.answers)

    def fail(self, error: BaseException) -> None:
        if not self.future.done():
            self.future.set_exception(error)


def tls_context(url: str) -> ssl.SSLContext | None:
    """The TLS context redis-py would use for ``url`` (None: not ``rediss://``), from the
    same options (``ssl_ca_certs``, ``ssl_cert_reqs``, ``ssl_certfile``, ``ssl_keyfile``,
    ``ssl_check_hostname``…) with the same defaults, built by redis-py itself: the link and
    the backplane's other connections trust, and show, the same certificates."""
    options = parse_url(url)
    if options.get("connection_class") is not SSLConnection:
        return None
    tls: dict[str, Any] = {name: value for name, value in options.items() if name[:4] == "ssl_"}
    return SSLConnection(**tls).ssl_context.get()


class RedisLink(asyncio.Protocol):
    """A RESP3 connection whose answers go to the :class:`Waiting` of each write, and whose
    Pub/Sub messages go to ``on_push``; ``on_lost`` hears of its end (not of :meth:`close`)."""

    def __init__(
        self,
        on_push: Callable[[list[Any]], None],
        on_lost: Callable[[BaseException], None],
        on_round_trip: Callable[[float], None],
    ) -> None:
        self._on_push = on_push
        self._on_lost = on_lost
        self._on_round_trip = on_round_trip
        self._reader = hiredis.Reader(replyError=ResponseError, notEnoughData=_NOTHING)
        self._transport: asyncio.Transport | None = None
        self._waiting: deque[Waiting] = deque()  # one per write whose answers are due
        self._loop = asyncio.get_running_loop()
        self.heard = self._loop.time()  # when Redis last answered, or the link was quiet
        self._closed = False
        self._subscribed: asyncio.Future[None] = self._loop.create_future()

    @classmethod
    async def open(
        cls,
        url: str,
        channel: str,
        timeout: float,
        on_push: Callable[[list[Any]], None],
        on_lost: Callable[[BaseException], None],
        on_round_trip: Callable[[float], None],
    ) -> RedisLink:
        """Connect to the Redis of ``url`` (``redis://``, ``rediss://`` or ``unix://``), speak
        RESP3, select its database, and subscribe to ``channel``."""
        loop = asyncio.get_running_loop()
        options: dict[str, Any] = dict(parse_url(url))
        link = cls(on_push, on_lost, on_round_trip)
        hello: Command = ("HELLO", 3)
        if "password" in options:
            hello = ("HELLO", 3, "AUTH", options.get("username") or "default", options["password"])
        try:
            async with asyncio.timeout(timeout):
                if "path" in options:
                    await loop.create_unix_connection(lambda: link, options["path"])
                else:
                    host, port = options.get("host", "localhost"), options.get("port", 6379)
                    await loop.create_connection(lambda: link, host, port, ssl=tls_context(url))
                for answer in await link.ask(hello, ("SELECT", options.get("db", 0))):
                    if isinstance(answer, ResponseError):
                        raise answer
                link.send(pack(("SUBSCRIBE", channel)), Waiting(0, 0.0))
                await link._subscribed  # a push, not an answer, in RESP3
                if link._closed:
                    raise ConnectionError("Redis closed the connection")
        except BaseException:
            link.close()
            raise
        return link

    # --- writing -------------------------------------------------------------------------

    def send(self, data: bytes, waiting: Waiting) -> None:
        """Write packed commands; their answers go to ``waiting``."""
        if self._transport is None or self._closed:
            waiting.fail(ConnectionError("the link to Redis is closed"))
            return
        if waiting.left:
            if not self._waiting:
                self.heard = waiting.sent  # waiting for Redis from now on
            self._waiting.append(waiting)
        self._transport.write(data)

    def ask(self, *commands: Command) -> asyncio.Future[list[Any]]:
        """Send the commands in one write; their answers (errors among them as
        :class:`ResponseError`), once all have come."""
        future: asyncio.Future[list[Any]] = self._loop.create_future()
        data = b"".join([pack(command) for command in commands])
        self.send(data, _Answers(len(commands), self._loop.time(), future))
        return future

    @property
    def busy(self) -> bool:
        """Answers are due."""
        return bool(self._waiting)

    def stalled(self, now: float, timeout: float) -> bool:
        """Answers are due, and none came for ``timeout`` seconds."""
        return bool(self._waiting) and now - self.heard > timeout

    def close(self) -> None:
        """End the link; the answers still due fail, ``on_lost`` is not told."""
        self._closed = True
        if self._transport is not None:
            self._transport.abort()
        self._fail(ConnectionError("the link to Redis was closed"))

    # --- asyncio's callbacks -------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # Taken as the stream transport it is, never checked with isinstance: uvloop's
        # TCPTransport (the ``fast`` extra) is not an asyncio.Transport subclass, and an
        # assert here kept every uvloop relay from ever reaching Redis.
        self._transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        reader, waiting = self._reader, self._waiting
        reader.feed(data)
        try:
            while not self._closed and (answer := reader.gets()) is not _NOTHING:
                if type(answer) is hiredis.PushNotification:
                    self._pushed(answer)
                    continue
                head = waiting[0]  # the oldest write with answers due
                head.left -= 1
                if not head.left:
                    waiting.popleft()
                    self._on_round_trip(self._loop.time() - head.sent)
                head.answer(answer)
        except (hiredis.ProtocolError, IndexError) as error:
            # Not RESP, or an answer nobody asked for: nothing after it can be trusted.
            self._lost(ConnectionError(f"Redis sent what cannot be read ({error})"))
            return
        self.heard = self._loop.time()

    def _pushed(self, push: list[Any]) -> None:
        if push[0] == b"message":
            self._on_push(push)
        elif push[0] == b"subscribe" and not self._subscribed.done():
            self._subscribed.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost(exc or ConnectionError("Redis closed the connection"))

    def _lost(self, error: BaseException) -> None:
        if self._closed:
            return
        self._closed = True
        if self._transport is not None:
            self._transport.abort()
        if not self._subscribed.done():
            self._subscribed.set_result(None)  # open() sees the link closed
        self._fail(error)
        self._on_lost(error)

    def _fail(self, error: BaseException) -> None:
        waiting, self._waiting = self._waiting, deque()
        for pending in waiting:
            pending.fail(error)
