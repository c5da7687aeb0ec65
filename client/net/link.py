"""The connection to the relay: join, pump events into the match, reconnect with backoff.

:class:`RelayLink` is one asyncio task (owned by the app, or a test) around a
:class:`~client.net.match.NetMatch`. It keeps every payload it sent until the relay has
numbered it (our own messages come back from :class:`~relay.client.RoomConnection` in their
place in the room's order), so what was sent into a dropped connection goes again after
reconnecting; the session ignores exact duplicates.

Reconnecting resumes from the next sequence number the relay has not delivered. Three
things can stand in the way, each handled here:

- the seat's grace period ran out (``seat_expired``): take a seat again with the invite;
- the relay restarted and lost the room (``unknown_room``): bring the room back under its old
  id and tokens (a player knows both: the host shares the spectator token in the room);
- a peer brought the room back first, so our seat token opens nothing (``bad_token``): join
  it afresh from its first event.

In the last two cases the match asks its peers for what it missed (see :mod:`client.net.match`).

Until a first connection has succeeded, the link gives up after ``connect_timeout`` seconds
(a relay that is down or mistyped does not come back by waiting); after that, it retries for
as long as the app runs. What the relay says is checked before it is used
(:mod:`client.net.untrusted`): a relay that sends a malformed seat token, seat or name is
named and left.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from client.game.link_status import LinkStatus
from client.i18n import N_, _, format_number, ngettext
from client.net.failures import describe_connect, garbled, news, refusal
from client.net.match import NetMatch
from client.net.outbox import Outbox, Outgoing
from client.net.roster import PresenceChange
from client.net.tasks import stop
from client.net.untrusted import (
    RelayMisbehaved,
    check_limit,
    check_name,
    check_seat,
    check_secret,
    shown,
)
from relay.client import RelayError, RoomConnection, create_room
from relay.envelope import (
    Created,
    EnvelopeError,
    ErrorCode,
    Message,
    Notice,
    Presence,
    PresenceEvent,
    Welcome,
)
from relay.fault import Fault
from relay.limits import TokenBucket

_PRESENCE: dict[PresenceEvent, PresenceChange] = {
    PresenceEvent.JOINED: "joined",
    PresenceEvent.LEFT: "left",
    PresenceEvent.RECONNECTED: "reconnected",
    PresenceEvent.SEAT_EXPIRED: "expired",
}
PACE_MARGIN = 0.9  # of the relay's announced rate, what this client allows itself
# Refusals that retrying cannot cure: say so and stop.
_FATAL = {
    "bad_name",
    "name_taken",
    "room_full",
    "spectators_full",
    "bad_envelope",
    "unsupported_version",
    "replaced",
    "bad_seats",
}


class LinkFailed(ConnectionError):
    """The link to the room failed for good: the relay refused us (a mistyped invite, a
    full room), or the match it carried stopped; ``str`` says why, ``fault`` whose it is
    (the person's invite, the relay, a peer, or this app)."""

    def __init__(self, text: str, fault: Fault) -> None:
        super().__init__(text)
        self.fault = fault


@dataclass(frozen=True, slots=True)
class Backoff:
    """Seconds before reconnection attempt ``n``: doubling from ``first`` up to ``most``."""

    first: float = 0.25
    most: float = 8.0
    jitter: float = 0.2

    def delay(self, attempt: int) -> float:
        base = min(self.most, self.first * 2 ** max(0, attempt - 1))
        return float(base * random.uniform(1 - self.jitter, 1 + self.jitter))


class RelayLink:
    """Carries one :class:`NetMatch`'s traffic through a relay room, across disconnections."""

    def __init__(
        self,
        match: NetMatch,
        url: str,
        room_id: str,
        token: str,
        *,
        clock: Callable[[], int],
        seats: int | None = None,
        backoff: Backoff | None = None,
        on_status: Callable[[LinkStatus], None] | None = None,
        seat_token: str | None = None,
        connect_timeout: float | None = None,
    ) -> None:
        """``seat_token``: the seat a player held before his app stopped; the link takes it
        back and asks the relay for the room's events from the first (the match drops what
        it already has). ``connect_timeout``: seconds to keep trying before a first
        connection succeeded (None: for ever)."""
        self.match = match
        self.url = url
        self.room_id = room_id
        self.invite_token = token
        self.clock = clock
        self.seats = seats
        self.backoff = backoff or Backoff()
        self.status = LinkStatus("connecting")
        self.on_status = on_status
        self.connection: RoomConnection | None = None
        self._seat_token = seat_token
        self._next_seq: int | None = None if seat_token is None else 0
        self._epoch: int | None = None  # the numbering _next_seq counts in, once welcomed
        self.on_seat_token: Callable[[str], None] | None = None  # the relay gave a new one
        # Called after each event from the relay is handled, whatever it did to the match (a
        # payload whose sender is blamed changes nothing a match listener would be told of).
        self.on_event: Callable[[], None] | None = None
        self._replay_until = 0
        self._replaying = False  # the relay is still replaying what we missed
        self._complete = True  # and it kept all of it (no resync, not a re-created room)
        self._resync = False  # it kept too little: it announced a spectator to the players
        # What the match queued and no connection took yet, own records first (see
        # :mod:`client.net.outbox`); then what a connection took and the relay has not
        # numbered back to us yet, in the order it went: sent again on reconnecting.
        self.outbox = Outbox()
        self._in_flight: deque[Outgoing] = deque()
        self._ready = asyncio.Event()  # the outbox has something
        self._may_send = asyncio.Event()  # the connection's replay is over
        self._closing = False
        # Mid-stream, for good ("replaced", a bad frame): why, and whose fault.
        self._refused: tuple[str, Fault] | None = None
        self.connect_timeout = connect_timeout
        self.deadline: float | None = None  # monotonic: when trying to connect stops
        self.ever_connected = False
        self._drop = asyncio.Event()
        self._stopped = asyncio.Event()  # the match cannot go on (:meth:`stop_for`)
        self.connected = asyncio.Event()
        self.reconnections = 0

    # ----------------------------------------------------------------- public

    @property
    def seat_token(self) -> str | None:
        """What takes this player's relay seat back (None before the relay gave one)."""
        return self._seat_token

    def flush(self) -> None:
        """Send what the match queued (call after every change to the match)."""
        outbox, self.match.outbox = self.match.outbox, []
        if outbox:
            dropped = self.outbox.put_all(outbox)
            if dropped:
                self.match.unsent(dropped)
            self._ready.set()

    @property
    def unconfirmed(self) -> int:
        """Payloads not numbered back by the relay yet: queued, or sent and on their way."""
        return len(self.outbox) + len(self._in_flight)

    @property
    def next_seq(self) -> int:
        """The number of the room's next event this link has not read (0 before the first):
        how far into the relay's numbering the match has taken the room."""
        return self._next_seq or 0

    async def run(self) -> None:
        """Stay in the room until :meth:`close`; raise :class:`LinkFailed` on a final refusal,
        or when the match could not go on (the status says why, as the exception does)."""
        try:
            await self._run()
        except (LinkFailed, asyncio.CancelledError):
            raise
        except Exception as error:  # the relay's welcome, say, which the match took in
            self._fail(self.match.cannot_handle(None, error), Fault.RELAY)

    async def _run(self) -> None:
        attempt = 0
        detail = ""
        if self.connect_timeout is not None:
            self.deadline = time.monotonic() + self.connect_timeout
        while not self._closing:
            if self._refused is not None:  # the match stopped between two connections
                self._fail(*self._refused)
            limit = asyncio.timeout_at(self._loop_deadline())
            try:
                async with limit:
                    connection = await self._join()
            except RelayError as error:
                if error.code in _FATAL or (
                    error.code in ("unknown_room", "bad_token") and self._next_seq is None
                ):
                    self._fail(refusal(error), error.fault)
                detail = error.text if isinstance(error, _RoomLost) else refusal(error)
            except EnvelopeError as error:
                if error.code == ErrorCode.UNSUPPORTED_VERSION:  # no retry will cure it
                    self._fail(_("the relay cannot be used: {reason}").format(
                        reason=garbled(error)), Fault.RELAY)  # fmt: skip
                detail = _describe(error)
            except RelayMisbehaved as error:
                self._fail(str(error), Fault.RELAY)
            except (OSError, TimeoutError, InvalidHandshake, ConnectionClosed) as error:
                if not (limit.expired() and detail):  # cut short by the deadline: say the last
                    detail = _describe(error)
            except InvalidURI:
                self._fail(_("{url} is not a relay address (ws://HOST:PORT/ or wss://…)").format(
                    url=shown(self.url)
                ), Fault.INPUT)  # fmt: skip
            else:
                attempt = 0
                self.ever_connected = True
                self.deadline = None
                await self._pump(connection)
                if self._refused is not None:
                    self._fail(*self._refused)
                if self._closing:
                    break
                self.reconnections += 1
                detail = _("connection lost")
            attempt += 1
            delay = self.backoff.delay(attempt)
            if self.deadline is not None:
                if time.monotonic() >= self.deadline:
                    assert self.connect_timeout is not None  # what set the deadline
                    tries = ngettext("{count} attempt; the last: {reason}",
                                     "{count} attempts; the last: {reason}", attempt).format(
                        count=attempt, reason=detail
                    )
                    self._fail(_("no relay answered at {url} in {seconds} s ({tries})").format(
                        url=shown(self.url), seconds=format_number(self.connect_timeout),
                        tries=tries,
                    ), Fault.RELAY)  # fmt: skip
                delay = min(delay, self.deadline - time.monotonic())
            self._set(LinkStatus("reconnecting", attempt, time.monotonic() + delay, detail))
            with contextlib.suppress(TimeoutError):  # (cut short if the match stops)
                await asyncio.wait_for(self._stopped.wait(), max(0.0, delay))
        self._set(LinkStatus("closed"))

    def _loop_deadline(self) -> float | None:
        """The event loop's time at which a first connection stops being tried (None: never)."""
        if self.deadline is None:
            return None
        return asyncio.get_running_loop().time() + (self.deadline - time.monotonic())

    def _fail(self, text: str, fault: Fault) -> NoReturn:
        self._set(LinkStatus("failed", detail=text, joined=self.ever_connected))
        raise LinkFailed(text, fault)

    def stop_for(self, text: str) -> None:
        """The match cannot go on here (:meth:`NetMatch.cannot_handle` says why, and whose
        fault it is): leave the room, failed with *text*, rather than stay connected
        following nothing."""
        if self._refused is None:
            self._refused = (text, self.match.fault or Fault.OURS)
        self._stopped.set()
        self._drop.set()

    def drop(self) -> None:
        """Close the current connection as if the network failed (reconnects by itself)."""
        self._drop.set()

    async def close(self) -> None:
        self._closing = True
        self._drop.set()
        if self.connection is not None:
            await self.connection.close()

    # ----------------------------------------------------------------- joining

    async def _join(self) -> RoomConnection:
        self._set(
            LinkStatus(
                "connecting" if self._next_seq is None else "reconnecting",
                self.status.attempt,
                None,
                _("joining the room"),
            )
        )
        token = self._seat_token or self.invite_token
        try:
            return await self._enter(token, self._next_seq)
        except RelayError as error:
            if error.code == "seat_expired":
                return await self._enter(self.invite_token, self._next_seq)
            if error.code == "unknown_room" and self._next_seq is not None:
                await self._recreate()
                return await self._enter(self.invite_token, 0, fresh=True)
            if error.code in ("bad_token", "bad_resume") and self._next_seq is not None:
                # The room was re-created by a peer after a relay restart: start it afresh.
                return await self._enter(self.invite_token, 0, fresh=True)
            raise

    async def _enter(
        self, token: str, resume_from: int | None, *, fresh: bool = False
    ) -> RoomConnection:
        connection = await RoomConnection.join(
            self.url,
            self.room_id,
            token,
            self.match.name,
            resume_from=resume_from or 0,
            epoch=None if fresh else self._epoch,
        )
        welcome = connection.welcome
        try:
            _check_welcome(self.url, welcome)
        except RelayMisbehaved:
            await connection.close()
            raise
        self._epoch = welcome.epoch  # the numbering its next resume is counted in
        if (fresh or token != self._seat_token) and welcome.seat_token != self._seat_token:
            self._seat_token = welcome.seat_token
            if self._seat_token is not None and self.on_seat_token is not None:
                self.on_seat_token(self._seat_token)
        roster = [(m.seat, m.name, m.connected) for m in welcome.members]
        self.match.welcomed(welcome.seat, roster, self.clock(), fresh=fresh, epoch=welcome.epoch)
        self._replay_until = welcome.next_seq
        self._complete = not (welcome.resync or fresh)
        self._resync = welcome.resync
        if welcome.resync or fresh:
            self._next_seq = welcome.next_seq if welcome.resync else 0
        return connection

    async def _recreate(self) -> None:
        """Bring back the room a restarted relay lost, under the secrets the invites hold."""
        spectator = self.match.spectator_token
        seats = self.seats or self.match.seats
        if spectator is None or not seats or self.match.role == "spectator":
            raise _RoomLost(
                "unknown_room", _("The relay lost the room; waiting for a player to bring it back.")
            )
        await create_room(
            self.url, seats, again=Created(self.room_id, self.invite_token, spectator)
        )

    # ----------------------------------------------------------------- the stream

    async def _pump(self, connection: RoomConnection) -> None:
        """Take the room's events into the match until the connection ends. This is where
        another machine's data enters the match: whatever it makes fail, of whatever type,
        ends here in a fault naming whoever sent it (:meth:`NetMatch.cannot_handle`), the
        link failed on it — never a task dead behind a "connected" line."""
        self.connection = connection
        if not self._stopped.is_set():
            self._drop.clear()
        self._may_send.clear()
        self._replaying = connection.next_seq < self._replay_until
        writer = asyncio.create_task(self._write(connection))
        dropper = asyncio.create_task(self._drop.wait())
        reader: asyncio.Future[Message | Presence | Notice] | None = None
        taking = True  # the match is taking something in (else: the connection is read)
        sender: int | None = None  # whose data it is (None: the relay's own)
        try:
            if not self._replaying:
                self._caught_up()
            self._set(LinkStatus("connected"))
            self.connected.set()
            while True:
                taking = False
                reader = asyncio.ensure_future(connection.receive())
                done, _ = await asyncio.wait(
                    {reader, dropper, writer}, return_when=asyncio.FIRST_COMPLETED
                )
                if reader not in done:
                    await stop(reader)
                    return
                event = reader.result()
                taking = True
                self._next_seq = connection.next_seq
                sender = event.seat if isinstance(event, Message) else None
                self._deliver(event, connection)
                sender = None
                if self._replaying and connection.next_seq >= self._replay_until:
                    self._replaying = False
                    self._caught_up()
        except RelayError as error:
            if error.code in _FATAL:  # the app in another terminal took this seat back
                self._refused = (refusal(error), error.fault)
        except RelayMisbehaved as error:
            self._refused = (str(error), Fault.RELAY)
        except Exception as error:
            if taking or not isinstance(error, ConnectionClosed | EnvelopeError | OSError):
                # Not the connection: what another machine sent broke the match.
                self._refused = (self.match.cannot_handle(sender, error),
                                 self.match.fault or Fault.RELAY)  # fmt: skip
                self._stopped.set()
        finally:
            self.connected.clear()
            self.connection = None
            for task in (writer, dropper, reader):
                if task is None:
                    continue
                task.cancel()
                if task.done() and not task.cancelled():
                    task.exception()  # retrieved: a send into a closed connection
            with contextlib.suppress(Exception):  # closing an already broken connection
                await connection.close()

    def _caught_up(self) -> None:
        """Replay done: resend what never came back, then say where we are."""
        self._may_send.set()
        self.match.caught_up(self.clock(), complete=self._complete, announced=self._resync)
        self.flush()

    async def _write(self, connection: RoomConnection) -> None:
        """Send in order, within the limits the relay's welcome announced: sending faster,
        the connection would be closed (then a reconnection, a replay and resends)."""
        welcome = connection.welcome
        loop = asyncio.get_running_loop()
        # A little under the relay's own: its bucket also counted our join, and frames sent
        # apart can arrive together.
        rate = welcome.rate_per_minute / 60 * PACE_MARGIN
        pace = TokenBucket(rate, max(1, welcome.burst - 2), loop.time())
        await self._may_send.wait()  # (the relay replays first: what came back is not resent)
        resend = deque(self._in_flight)  # what never came back goes again first, in its order
        while True:
            if resend:
                outgoing = resend.popleft()
            else:
                taken = self.outbox.take()
                if taken is None:
                    self._ready.clear()
                    await self._ready.wait()
                    continue
                outgoing = taken
                self._in_flight.append(outgoing)  # (before the send: its echo may come first)
            while not pace.take(loop.time()):
                await asyncio.sleep(1 / rate)
            await connection.send(outgoing.data, tell=outgoing.tell)

    def _deliver(self, event: Message | Presence | Notice, connection: RoomConnection) -> None:
        try:
            self._handle_event(event, connection)
        finally:
            if self.on_event is not None:
                self.on_event()

    def _handle_event(self, event: Message | Presence | Notice, connection: RoomConnection) -> None:
        now = self.clock()
        if isinstance(event, Message | Presence):
            check_seat(self.url, event.seat)
        if isinstance(event, Message):
            if (
                event.seat == connection.seat
                and self._in_flight
                and self._in_flight[0].data == event.payload
            ):
                self._in_flight.popleft()
            self.match.receive(event.seat, event.payload, now)
        elif isinstance(event, Presence) and event.event == PresenceEvent.WATCHING:
            self.match.spectator_came(now)  # (his name: the relay's news, not shown)
        elif isinstance(event, Presence):
            others = [] if event.event != PresenceEvent.JOINED else [
                member.name for seat, member in self.match.roster.members.items()
                if seat != event.seat and not member.expired
            ]  # fmt: skip
            name = check_name(self.url, event.name, others)
            self.match.presence(event.seat, _PRESENCE[event.event], name, now)
        else:
            self._set(LinkStatus("connected", detail=news(event)))
        self.flush()
        if self.match.broken is not None:  # turned away: leave, failed with its words
            self.stop_for(self.match.broken)

    def _set(self, status: LinkStatus) -> None:
        self.status = status
        if self.on_status is not None:
            self.on_status(status)


class _RoomLost(RelayError):
    """The relay lost the room and only a player can bring it back: this seat waits (its
    text is Tablier's own, already in the reader's language)."""


def _check_welcome(url: str, welcome: Welcome) -> None:
    """What a welcome says is used as a seat token, seat numbers and names: of their shape."""
    if welcome.seat_token is not None:
        check_secret(url, N_("seat token"), welcome.seat_token)
    if welcome.seat is not None:
        check_seat(url, welcome.seat)
    for index, member in enumerate(welcome.members):
        check_seat(url, member.seat)
        check_name(url, member.name, [other.name for other in welcome.members[:index]])
    check_limit(url, N_("sending rate"), welcome.rate_per_minute)
    check_limit(url, N_("sending burst"), welcome.burst)


def _describe(error: BaseException) -> str:
    if isinstance(error, ConnectionRefusedError):
        return _("the relay is not answering")
    if isinstance(error, ConnectionClosed):
        return _("the relay closed the connection")
    if isinstance(error, TimeoutError):
        return _("the relay took too long to answer")
    return _("the relay cannot be reached: {reason}").format(reason=describe_connect(error))
