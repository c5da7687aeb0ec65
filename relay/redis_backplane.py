"""Rooms shared by many relay processes through Redis: ``tablier relay --backplane redis://…``.

Every room is a few keys under the hash tag ``{room id}``: ``meta`` (its next number, epoch,
state version, who holds each seat), ``state`` (:class:`relay.rooms.RoomState` as bytes),
``log`` (its stream: one entry per event, the frame already numbered, trimmed like a
backlog) and ``leases`` (each process that has members in it, until when). The functions of
:mod:`relay.redis_library` are the only writers.

One process holds, for its connections, only their view of each room
(:class:`relay.shared.LocalRoom`); this module, the shell, carries the core's requests to
Redis and Redis's answers back, through pieces each tested alone: the rooms' layout in Redis
(:mod:`relay.backplane_rooms`), the changes of their states (:mod:`relay.redis_changes`),
the order of their events as heard here (:mod:`relay.backplane_order`) and whether Redis can
serve (:mod:`relay.backplane_health`), the last three sans I/O. In short:

- a payload is appended by one function call (check the seat's holder, number, ``XADD``),
  written with every other append of the same turn of the event loop, without waiting for
  the answers of those before (:mod:`relay.redis_link`);
- a change of a room's state (a join, a departure, an expiry) loads the state, decides with
  :mod:`relay.rules`, and stores it back only if nobody changed it meanwhile (else again);
- Redis publishes each event it numbers to the channel of every process with members in
  the room (but the one that sent it, which has the answer), ``tablier:process:<name>``.
  Each process hears its channel on the same connection as its appends' answers, so both
  come in the order Redis numbered them; the room's stream stays the record, and a number
  that never came (to a process whose lease had lapsed) is fetched from it;
- every quarter of a lease the process renews its leases; a room where a process with
  members let its lease lapse (it died) is decided again, and those members are let go. The
  renewal also answers each room's next number: one past what the process has heard is a
  number it was not sent (its own lease had lapsed), fetched from the stream even in a room
  where nothing else happens. The same beat looks for another version's functions.

Nothing is dropped without a word. When Redis cannot be reached (or holds another version's
functions), every member here is closed with 1012 (they reconnect with backoff), new rooms
and joins are refused with ``unavailable``, ``/healthz`` says why, and the process tries again
every half second; a join stored meanwhile is refused and undone. When Redis refuses writes
(out of memory, a read-only replica), each member whose message it did not number is closed
with 1012 (he resumes, and sends it again), new rooms and joins are refused and ``/healthz``
says why until Redis takes a write again. A message Redis would not number for its sender
(his seat was let go while this process could not hear it) closes him with 1012 likewise.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Collection, Coroutine
from typing import Any, Protocol

from redis.asyncio import Redis
from redis.backoff import NoBackoff
from redis.exceptions import RedisError, ResponseError
from redis.retry import Retry

from relay import logs, redis_library
from relay.backplane_health import (
    PING,
    RETRY_EVERY,
    TIMEOUT,
    WATCH_EVERY,
    BackplaneStats,
    Conflict,
    Failure,
    Health,
    Lose,
    Refusal,
    Say,
    Unreachable,
    unreadable,
)
from relay.backplane_order import Offered, Reorder
from relay.backplane_rooms import (
    Commit,
    LibraryConflict,
    append_command,
    library_name,
    lives_call,
    published_event,
    room_keys,
    stream_event,
)
from relay.backplane_rooms import room_bytes as room_bytes  # where the docs cite it
from relay.config import BackplaneURLError, RelayConfig
from relay.envelope import stamp
from relay.outputs import Log
from relay.redis_changes import CONCURRENT_CHANGES, RoomChanges
from relay.redis_library import VERSION_KEY
from relay.redis_link import RedisLink, Waiting, pack, tls_context
from relay.rooms import new_epoch
from relay.shared import (
    Append,
    Bring,
    BringResult,
    Check,
    Enter,
    EnterResult,
    Event,
    Leave,
)

RENEWALS_AT_ONCE = 16  # rooms whose leases one pipeline renews
SOURCE_BYTES = redis_library.SOURCE.encode()
NAME_BYTES = redis_library.NAME.encode()


class Listener(Protocol):
    """The relay server, as the backplane's reader and supervisor see it."""

    def on_events(self, room_id: str, events: list[Event]) -> None: ...

    def on_lost(self, reason: str) -> None:
        """Redis cannot be reached: every member here must go (and come back later)."""
        ...

    def on_lost_room(self, room_id: str) -> None:
        """Redis no longer has this room: its members here must start it again."""
        ...

    def on_let_go(self, room_id: str, holder: str, reason: str) -> None:
        """Redis did not number this member's message: he must reconnect and resume."""
        ...

    def served(self) -> Collection[str]:
        """The rooms this process has members in."""
        ...


class RedisBackplane:
    """One relay process's link to the Redis that holds every room."""

    def __init__(self, url: str, config: RelayConfig) -> None:
        self.url = url
        self.config = config
        self.process = secrets.token_hex(4)  # this process's name in holders and leases
        options: dict[str, Any] = {
            "retry": Retry(NoBackoff(), 0),  # a lost reply must not run a change twice
            "socket_connect_timeout": TIMEOUT,
            "decode_responses": False,
            "protocol": 2,  # RESP2: the same plain arrays from every Redis version
        }
        try:  # a URL redis-py cannot use is a setting to fix, not a Redis to wait for
            self._redis = Redis.from_url(
                url, socket_timeout=TIMEOUT, max_connections=CONCURRENT_CHANGES + 4, **options
            )
            pool = self._redis.connection_pool
            pool.connection_class(**pool.connection_kwargs)  # built, connected to nothing
            tls_context(url)  # the link's, from the same options (its files read now)
            self.health = Health(url)  # down, up, refusing writes: what follows each failure
        except OSError as error:  # ssl.SSLError too
            said = error.strerror or str(error)
            raise BackplaneURLError(f"its TLS files cannot be read or used ({said})") from error
        except (TypeError, ValueError, RedisError) as error:
            raise BackplaneURLError(str(error)) from error
        # Appends, their answers, every event of our rooms, lease renewals: one connection.
        self._link: RedisLink | None = None
        self._channel = redis_library.channel(self.process)
        # A process's hold on its members lasts this long unless renewed (a few times a lease).
        self._lease_ms = int(config.backplane_lease * 1000)
        self._ttl_ms = int(config.room_idle * 1000) + self._lease_ms
        self._terms = Commit(
            self.process, self._lease_ms, self._ttl_ms, config.backlog, config.backlog_bytes
        )
        self._links = 0  # opened so far (see relay.redis_changes.RoomChanges)
        self._appends: list[Append] = []  # to write at the end of this turn of the loop
        # Each room's order as heard here: what goes to the core, what is missing.
        self._order = Reorder(config.backlog)
        self._fetching: set[str] = set()  # rooms whose missing numbers are being fetched
        self._extended: dict[str, float] = {}  # room -> when its life was last extended
        # Rooms created, joined, left, expired: their states, by compare-and-set.
        self._rooms = RoomChanges(
            self._redis, config, self.health, self._order, self._terms,
            entered=self._entered, failure=self._failure, spawn=self._spawn, log=self._log,
            links=lambda: self._links,
        )  # fmt: skip
        self._listener: Listener | None = None
        self._up = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._checks: set[asyncio.Task[None]] = set()  # checks, fetches, undos under way

    # --- lifecycle -----------------------------------------------------------------------

    async def start(self, listener: Listener) -> None:
        """Run the watch (which also connects, and reconnects) and the leases, and wait a
        moment for Redis. Redis being unreachable at start is no error: the relay refuses
        rooms (``unavailable``) until it answers."""
        self._listener = listener
        for work in (self._watch_forever, self._upkeep_forever):
            self._tasks.append(asyncio.create_task(work()))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(TIMEOUT):
                await self._up.wait()

    async def close(self) -> None:
        self.health.closing = True  # redis-py may turn a cancelled read into an error: stop anyway
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks, timeout=TIMEOUT)
        if self._link is not None:
            self._link.close()
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            async with asyncio.timeout(TIMEOUT):
                await self._redis.aclose()
        for task in tasks:  # what a read cut short by the close raised is of no interest now
            if task.done() and not task.cancelled():
                task.exception()

    @property
    def unavailable(self) -> str | None:
        """Why this process cannot serve rooms now (None: it can)."""
        return self.health.unavailable

    @property
    def stats(self) -> BackplaneStats:
        return self.health.stats

    # --- what the core asks ----------------------------------------------------------------

    def append(self, request: Append) -> None:
        """Number a payload: at once when Redis has nothing of ours to answer (a message now
        and then), else with every other append of this turn of the event loop, in one write
        at its end (:meth:`_flush`): under load, one write for many."""
        if self.health.down is not None:
            self._unnumbered(request, None)
            return
        link = self._link
        if not self._appends and link is not None and not link.busy:
            self._send(link, [request])
            return
        if not self._appends:
            asyncio.get_running_loop().call_soon(self._flush)
        self._appends.append(request)

    async def enter(self, request: Enter) -> EnterResult:
        return await self._rooms.enter(request)

    async def bring(self, request: Bring) -> BringResult:
        return await self._rooms.bring(request)

    def settled(self, room_id: str) -> None:
        """The core has taken in an :meth:`enter`'s answer: what the reader brought for the
        room meanwhile, held back until now, goes to the core."""
        held = self._order.settled(room_id)
        if held and self._listener is not None:
            self._listener.on_events(room_id, held)

    async def leave(self, request: Leave) -> None:
        await self._rooms.leave(request)

    async def check(self, request: Check) -> None:
        await self._rooms.check(request)

    def _entered(self, room_id: str) -> None:
        """A join's commit is answered (or failed): what Redis published of the room
        meanwhile goes on from the cursor, or is dropped if the room is not ours."""
        self._drop_if_left(room_id)
        self._fill(room_id, self._deliver(room_id, self._order.entered(room_id)))

    # --- the hot path: appends, their answers, the others' events ------------------------

    def _flush(self) -> None:
        """Number every payload queued in this turn of the event loop: one write to Redis,
        sent without waiting for the answers to the writes before (they come in order)."""
        batch, self._appends = self._appends, []
        link = self._link
        if link is not None and self.health.down is None and batch:
            self._send(link, batch)
            return
        for request in batch:  # the link went meanwhile: never dropped without a word
            self._unnumbered(request, None)

    def _send(self, link: RedisLink, batch: list[Append]) -> None:
        config, process = self.config, self.process
        epoch = new_epoch()  # the epoch a room numbered anew would take
        commands = []
        for request in batch:
            commands.append(pack(append_command(request, epoch, config, process)))
        data = b"".join(commands)
        link.send(data, _Appended(self, batch, asyncio.get_running_loop().time()))

    def _own(self, request: Append, answer: Any) -> None:
        """Redis's answer to one of our appends: our members' message, numbered, goes to the
        core from here (Redis does not publish it back to us), in its place among the room's
        events."""
        if type(answer) is not list or answer[0] != b"ok":
            self._unnumbered(request, answer)
            return
        seq = int(answer[1])
        frame = stamp(seq, request.seat, request.packed_payload)
        event = Event(seq, int(answer[2]), request.holder, request.seat, None, frame)
        self._fill(request.room_id, self._offer(request.room_id, [event]))

    def _unnumbered(self, request: Append, answer: Any) -> None:
        """Redis did not number a member's message (``answer``; None: it cannot be reached).
        Nothing is dropped without a word: a room Redis no longer has is started again by
        its members here; otherwise the sender reconnects and resumes (his app sends again
        what was not numbered), whether Redis let his seat go while this process could not
        hear it (a stall past its lease), refused the write, or cannot be reached."""
        listener = self._listener
        assert listener is not None
        if isinstance(answer, ResponseError):
            self._failure(answer)
        if type(answer) is list and answer[:1] == [b"gone"]:
            listener.on_lost_room(request.room_id)
            return
        reason = "seat_lost" if type(answer) is list and answer[:1] == [b"not_holder"] else "resume"
        listener.on_let_go(request.room_id, request.holder, reason)

    def _pushed(self, push: list[Any]) -> None:
        """An event another process's member made (or a join, departure or expiry from any
        process), as Redis published it to our channel when it numbered it."""
        try:
            room_id, event = published_event(push[2])
        except (ValueError, TypeError, IndexError, AttributeError) as error:
            self._failure(unreadable("published an event", error))
            return
        self._fill(room_id, self._offer(room_id, [event]))

    def _offer(
        self, room_id: str, events: list[Event], asked: list[int] | None = None
    ) -> list[int]:
        """Events of a room, from our appends' answers, from our channel or (``asked``) from
        a fetch, to the core, each once and in order (:class:`relay.backplane_order.
        Reorder`); returns the numbers missing before those held back."""
        self._drop_if_left(room_id)
        order = self._order
        offered = (
            order.offer(room_id, events) if asked is None else order.fetched(room_id, events, asked)
        )
        return self._deliver(room_id, offered)

    def _drop_if_left(self, room_id: str) -> None:
        """Forget the room if its last member here left since the upkeep last looked: a
        member coming back here now must start from his join's own commit, as a first one
        does, not from where the one who left stood (what came between went to nobody)."""
        listener, order = self._listener, self._order
        if (
            listener is not None
            and order.cursor(room_id) is not None
            and not order.settling(room_id)
            and room_id not in listener.served()
        ):
            self._forget(room_id)

    def _deliver(self, room_id: str, offered: Offered) -> list[int]:
        """Carry out what the order decided: what is in order goes to the core, and a room
        whose order cannot be kept is started again by its members here (what it missed
        cannot be had); returns the numbers to fetch."""
        listener = self._listener
        if listener is not None:
            if offered.deliver:
                listener.on_events(room_id, offered.deliver)
            if offered.lost:
                listener.on_lost_room(room_id)
        return offered.missing

    def _forget(self, room_id: str) -> None:
        """This process no longer serves the room: its next member here starts anew."""
        self._order.forget(room_id)
        self._extended.pop(room_id, None)
        self._rooms.forget(room_id)

    def _fill(self, room_id: str, missing: list[int]) -> None:
        """Fetch the missing numbers of a room from its stream (once at a time per room)."""
        if missing and room_id not in self._fetching and self._link is not None:
            self._fetching.add(room_id)
            self._spawn(self._fetch(room_id, missing))

    async def _fetch(self, room_id: str, missing: list[int]) -> None:
        log = room_keys(room_id)[2]
        try:
            while missing and self._link is not None:
                ask = ("XRANGE", log, f"{missing[0]}-0", f"{missing[-1]}-1")
                (found,) = await self._link.ask(ask)
                if isinstance(found, ResponseError):
                    self._failure(found)
                    if self._listener is not None:  # what it missed cannot be had
                        self._listener.on_lost_room(room_id)
                    return
                events = [stream_event(entry, flat) for entry, flat in found]
                # Gone from the room's stream too: its members here resume, or resync; else
                # what is missing now is a gap after those, seen meanwhile.
                missing = self._offer(room_id, events, missing)
        except OSError:
            return  # the link is gone, and every member with it
        except (ValueError, TypeError, KeyError, IndexError) as error:
            self._failure(unreadable("answered a fetch", error))
        finally:
            self._fetching.discard(room_id)

    # --- the two tasks ---------------------------------------------------------------------

    async def _watch_forever(self) -> None:
        """Reach Redis, and again whenever it was lost; meanwhile, a Redis that stops
        answering (a write's answers overdue) counts as lost, and a quiet link is pinged so
        that a silent Redis is noticed as soon."""
        loop = asyncio.get_running_loop()
        health = self.health
        while not health.closing:
            if health.down is not None:
                failure: Failure | Conflict
                try:
                    await self._connect()
                    continue
                except LibraryConflict as conflict:
                    failure = Conflict(str(conflict))
                except (RedisError, OSError, TimeoutError) as error:
                    # Reached but refusing what connecting needs, or not reached.
                    failure = _failure_of(error)
                self._say(health.not_reached(failure))
                await asyncio.sleep(RETRY_EVERY)
                continue
            await asyncio.sleep(WATCH_EVERY)
            link, now = self._link, loop.time()
            if link is None:
                continue
            beat = health.beat(now, link.busy, link.heard)
            if beat == PING:
                link.send(pack(("PING",)), Waiting(1, now))
            elif isinstance(beat, Lose):
                self._lost(beat)

    async def _upkeep_forever(self) -> None:
        """Every quarter of a lease: forget the rooms this process no longer serves, look for
        another version's functions, ask a Redis that refused writes whether it takes them
        again, and renew the leases (which also shows what this process was not sent)."""
        listener, order = self._listener, self._order
        assert listener is not None
        while not self.health.closing:
            await asyncio.sleep(self.config.backplane_lease / 4)
            rooms = list(listener.served())
            served = set(rooms)
            for room_id in [r for r in order.rooms() if r not in served and not order.settling(r)]:
                self._forget(room_id)  # its last member here left
            link = self._link
            if self.health.down is not None or link is None:
                continue
            try:
                if not await self._same_library(link):
                    continue
                if self.health.refused is not None and not await self._writes_taken(link):
                    continue
            except OSError:
                continue  # the link is gone: that is being dealt with
            # A few rooms at a time: Redis serves nobody else while it runs a batch.
            for start in range(0, len(rooms), RENEWALS_AT_ONCE):
                await self._renew(rooms[start : start + RENEWALS_AT_ONCE])

    async def _same_library(self, link: RedisLink) -> bool:
        """Whether Redis still holds this version's functions and no other version's (an
        old process started later loads its own beside ours); if not, this process goes
        down until it does (:meth:`_load_library` says what to do)."""
        ask = ("FUNCTION", "LIST", "LIBRARYNAME", f"{redis_library.PREFIX}*")
        (listed,) = await link.ask(ask)
        try:
            names = {library_name(library) for library in listed}
        except (TypeError, ValueError, KeyError, AttributeError) as error:
            self._failure(unreadable("sent a FUNCTION LIST answer", error))
            return False
        others = sorted(names - {redis_library.NAME})
        if others:
            self._lost(self.health.lose(str(LibraryConflict(others[0]))))
        elif not names:
            self._lost(self.health.lose("Redis no longer holds the relay's functions"))
        return self.health.down is None

    async def _writes_taken(self, link: RedisLink) -> bool:
        """Whether Redis, which refused a write, takes one again (then the joins it may
        have left half done are undone first, and the process serves again)."""
        (answer,) = await link.ask(("FCALL", "tablier_probe", 0))
        if isinstance(answer, ResponseError):
            self._failure(answer)
            return False
        try:
            await self._rooms.give_back_all()
        except (RedisError, OSError) as error:
            self._failure(error)
            return False
        self._say(self.health.writable())
        return True

    async def _renew(self, rooms: list[str]) -> None:
        """Renew our lease on each room, every quarter of a lease; and a quarter of the way
        through the room's idle time, the room's life (its keys, and its place among the
        rooms counted against the limits), which the lease renewals need not repeat."""
        listener, link = self._listener, self._link
        assert listener is not None
        if link is None:
            return
        clock = asyncio.get_running_loop().time()
        due = clock - self.config.room_idle / 4
        commands: list[tuple[Any, ...]] = []
        extended = []
        for room_id in rooms:
            extend = self._extended.get(room_id, due) <= due
            extended.append(extend)
            commands.append(("FCALL", "tablier_lease", 4, *room_keys(room_id), self.process,
                             self._lease_ms, self._ttl_ms if extend else 0))  # fmt: skip
            if extend:
                self._extended[room_id] = clock
                creator = self._rooms.creators.get(room_id, "")
                commands.append(("FCALL", *lives_call(creator, room_id, self._ttl_ms)))
        try:
            replies = iter(await link.ask(*commands))
        except OSError:
            return  # the link is gone: that is being dealt with
        for room_id, extend in zip(rooms, extended, strict=True):
            renewed = next(replies)
            lives = next(replies) if extend else None
            for answer in (renewed, lives):
                if isinstance(answer, ResponseError):
                    self._failure(answer)
            if isinstance(renewed, ResponseError):
                continue
            if renewed == [-1]:  # Redis lost the room: its members start it again
                listener.on_lost_room(room_id)
                continue
            try:
                lapsed, next_seq = renewed[0], int(renewed[1])
            except (TypeError, ValueError, IndexError, KeyError) as error:
                self._failure(unreadable("answered a renewal", error))
                return
            if lapsed == 1:  # a process with members there died: let them go
                self._spawn(self.check(Check(room_id)))
            self._fill(room_id, self._deliver(room_id, self._order.catch_up(room_id, next_seq)))

    # --- helpers -------------------------------------------------------------------------

    async def _connect(self) -> None:
        """Reach Redis, make sure it has this version of the library and no other, undo the
        joins refused while it could not be reached, open the link (which hears our channel
        from then on), and say so."""
        # Idle connections opened before Redis went away are dead: a command must not meet
        # one. Those in use are left to their command, which fails by itself if Redis went
        # away, and else learns whether its change was stored (a join is then refused and
        # undone by _admit, rather than left unknown).
        await self._redis.connection_pool.disconnect(inuse_connections=False)
        await self._rooms.timed(self._redis.ping())
        await self._load_library()
        await self._rooms.give_back_all()
        # No room of ours is entered while down: whatever was published to us before this
        # link was for members who are gone.
        self._link = await RedisLink.open(
            self.url, self._channel, TIMEOUT, self._pushed, self._failure, self.health.round_trip
        )
        self._links += 1
        say = self.health.up(self.process)
        self._up.set()
        self._say(say)

    async def _load_library(self) -> None:
        """Load this version's library unless Redis has it, and name this version in
        :data:`~relay.redis_library.VERSION_KEY`; refuse while another version's library is
        there: its processes would number the same rooms and deliver them another way."""
        libraries = await self._redis.function_list(withcode=True)
        loaded = False
        try:
            listed = [dict(zip(each[::2], each[1::2], strict=True)) for each in libraries]
            named = [(library_name(fields), fields[b"library_code"]) for fields in listed]
        except (TypeError, ValueError, KeyError, AttributeError) as error:
            # Not Redis as this relay knows it: said, and tried again like an unreachable one.
            raise unreadable("sent a FUNCTION LIST answer", error) from error
        for name, code in named:
            if name.startswith(redis_library.PREFIX) and name != redis_library.NAME:
                raise LibraryConflict(name)
            loaded = loaded or (name == redis_library.NAME and code == SOURCE_BYTES)
        if not loaded:
            await self._redis.function_load(redis_library.SOURCE, replace=True)
        if await self._redis.get(VERSION_KEY) != NAME_BYTES:  # no write when it is ours
            await self._redis.set(VERSION_KEY, redis_library.NAME)

    def _failure(self, error: BaseException) -> None:
        """A command failed (:meth:`relay.backplane_health.Health.failed` says what follows)."""
        self._say_or_lose(self.health.failed(_failure_of(error)))

    def _say_or_lose(self, decided: Lose | Say | None) -> None:
        if isinstance(decided, Lose):
            self._lost(decided)
        else:
            self._say(decided)

    def _lost(self, lost: Lose | None) -> None:
        """Redis cannot serve this process: every member here goes, and the watch tries to
        reach it again."""
        if lost is None:
            return  # down already, or closing
        link, self._link = self._link, None
        if link is not None:
            link.close()
        self._appends.clear()
        self._order.clear()
        self._extended.clear()
        self._rooms.creators.clear()
        if self._listener is not None:
            self._listener.on_lost(lost.reason)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._checks.add(task)
        task.add_done_callback(self._checks.discard)

    def _say(self, say: Say | None) -> None:
        if say is not None:
            self._log(say.event, say.details)

    def _log(self, event: str, details: dict[str, str | int]) -> None:
        if logs.logger.isEnabledFor(logging.INFO):
            logs.logger.info(logs.render(Log(None, event, details), self.config.log_json))


class _Appended(Waiting):
    """The answers to one write of appends, each handed to the backplane with its request."""

    __slots__ = ("backplane", "requests")

    def __init__(self, backplane: RedisBackplane, batch: list[Append], sent: float) -> None:
        super().__init__(len(batch), sent)
        self.backplane = backplane
        self.requests = iter(batch)

    def answer(self, answer: Any) -> None:
        self.backplane._own(next(self.requests), answer)


def _failure_of(error: BaseException) -> Failure:
    """A failed command as the health machine takes it: an error reply Redis sent, or Redis
    not reached (or not answering, or answering what cannot be read)."""
    return Refusal(str(error)) if isinstance(error, ResponseError) else Unreachable(error)
