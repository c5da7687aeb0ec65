"""Changes of a shared room's state in Redis, by compare-and-set: a room created, a member
let in, a departure, an expiry, a join undone, a spectator's ``watching`` announced.

Each loads the room (:func:`relay.backplane_rooms.loaded`), decides with :mod:`relay.rules`,
and stores it back with the events it numbers only if nobody changed the room meanwhile
(:func:`relay.backplane_rooms.commit_call`); else it is decided again. The rooms' order as
heard here (:class:`relay.backplane_order.Reorder`) is told when a join starts and where its
member's stream starts; :class:`relay.redis_backplane.RedisBackplane`, the shell, hands the
core's requests here and hears back through the callables it gives.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import random
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from relay import rules
from relay.backplane_health import Health, unreadable
from relay.backplane_order import Reorder
from relay.backplane_rooms import (
    MEMORY_EVERY,
    REDIS_SHARE,
    Changed,
    Commit,
    Decide,
    Loaded,
    Memory,
    Presence,
    commit_call,
    committed,
    lives_call,
    loaded,
    memory,
    presence,
    room_bytes,
    room_counts,
    room_keys,
    served,
    tidy,
    watching,
    withdraw,
)
from relay.config import RelayConfig
from relay.envelope import ErrorCode, PresenceEvent
from relay.limits import WATCHING_EVERY
from relay.rooms import RoomState, is_room_id, new_epoch, token_hash
from relay.shared import (
    Bring,
    BringResult,
    Brought,
    Check,
    Enter,
    Entered,
    EnterResult,
    Full,
    Leave,
)

# A change of a room's state is stored only if nobody changed the room since it was loaded
# (else it is decided again, after a random pause of up to CONFLICT_PAUSE times the tries so
# far, so that racers spread out). A spectator's join is decided again at most TRIES times
# (then refused: unavailable, and his app comes back); a player's join at most MEMBER_TRIES
# times, so that spectators coming and going cannot keep a player out; a departure, until
# it is stored (a departure dropped would leave a ghost in the room for good).
TRIES = 8
MEMBER_TRIES = 64
CONFLICT_PAUSE = 0.002
# Joins, departures and expiries being decided at once, at most: a crowd leaving together
# (a restart) waits its turn rather than opening a connection to Redis each.
CONCURRENT_CHANGES = 32


class RoomChanges:
    """One relay process's changes of its rooms' states in Redis."""

    def __init__(
        self,
        redis: Redis,
        config: RelayConfig,
        health: Health,
        order: Reorder,
        terms: Commit,
        *,
        entered: Callable[[str], None],
        failure: Callable[[BaseException], None],
        spawn: Callable[[Coroutine[Any, Any, None]], None],
        log: Callable[[str, dict[str, str | int]], None],
        links: Callable[[], int],
    ) -> None:
        self._redis = redis
        self.config = config
        self.health = health
        self._order = order
        self._terms = terms
        self._entered = entered  # a join's commit is answered (or failed)
        self._failure = failure  # a command failed (the health decides what follows)
        self._spawn = spawn  # work of its own, cancelled with the shell's
        self._log = log
        # Links opened so far: a join whose answer comes on another link than the one it
        # started on may have missed what Redis told the first one of its room.
        self._links = links
        self._changes = asyncio.Semaphore(CONCURRENT_CHANGES)
        # Joins stored but refused (see _admit): room, holder, whether his seat was new.
        self._undone: list[tuple[str, str, bool]] = []
        self.creators: dict[str, str] = {}  # room -> the address it counts against
        # Room -> when its next watching event may be numbered, and the one waiting for it.
        self._watch_at: dict[str, float] = {}
        self._watching: dict[str, Presence] = {}
        self._memory_read: Memory | None = None  # Redis's memory figures, as last read
        self._room_bytes = room_bytes(config)

    def forget(self, room_id: str) -> None:
        """This process no longer serves the room."""
        self.creators.pop(room_id, None)
        if room_id not in self._watching:
            self._watch_at.pop(room_id, None)

    async def enter(self, request: Enter) -> EnterResult:
        async with self._changes:
            return await self._enter(request)

    async def _enter(self, request: Enter) -> EnterResult:
        message = request.message
        if self.health.unavailable is not None:
            return ErrorCode.UNAVAILABLE
        links = self._links()  # the link the room is heard on, unless it goes meanwhile
        failures = f"tablier:failures:{request.ip}"
        try:
            if await self._call("tablier_failures", [failures], self._per_minute, 0):
                return ErrorCode.TOO_MANY_FAILURES
            if not is_room_id(message.room_id):  # no such id is ever made: never a key either
                return await self._failed(failures, ErrorCode.UNKNOWN_ROOM)
            digest = token_hash(message.token)
            tries = 0
            while True:
                loaded = await self._load(message.room_id)
                if loaded is None:
                    return await self._failed(failures, ErrorCode.UNKNOWN_ROOM)
                try:
                    return await self._admit(request, loaded, failures, links)
                except Changed:
                    tries += 1
                    watcher = hmac.compare_digest(digest, loaded.state.spectator_hash)
                    if tries >= (TRIES if watcher else MEMBER_TRIES):
                        break
                    await _pause(tries)
        except (RedisError, OSError) as error:
            self._failure(error)
        return ErrorCode.UNAVAILABLE

    async def bring(self, request: Bring) -> BringResult:
        async with self._changes:
            return await self._bring(request)

    async def _bring(self, request: Bring) -> BringResult:
        created, seats = request.created, request.message.seats
        again = request.message.again is not None
        if self.health.unavailable is not None:
            return ErrorCode.UNAVAILABLE
        keys = room_keys(created.room_id)
        try:
            if again and await self._redis.exists(keys[0]):
                return Brought(created, seats, again=True)
            memory = await self._memory()
            counted = await self._call(
                "tablier_count_room",
                room_counts(request.ip),
                created.room_id,
                self._terms.ttl_ms,
                self.config.max_rooms,
                self.config.max_rooms_per_ip,
                memory.used,
                memory.most,
                self._room_bytes,
                memory.most // REDIS_SHARE,
            )
            if counted != b"ok":
                why = {b"address_full": "address", b"memory": "memory"}.get(counted, "rooms")
                return Full(why)
            state = RoomState(
                created.room_id,
                token_hash(created.player_token),
                token_hash(created.spectator_token),
                seats,
                creator=request.ip,
            )
            await self._call(
                "tablier_create", keys, state.to_bytes(), self._terms.ttl_ms, new_epoch()
            )
        except (RedisError, OSError) as error:
            self._failure(error)
            return ErrorCode.UNAVAILABLE
        return Brought(created, seats, again=again)

    async def _memory(self) -> Memory:
        """Redis's memory figures, read again if the last reading is older than
        :data:`MEMORY_EVERY`. Said once in the log if Redis has no maxmemory: then nothing
        stops rooms but ``--max-rooms``, and Redis may take the machine's memory."""
        now = asyncio.get_running_loop().time()
        read = self._memory_read
        if read is not None and now - read.read_at < MEMORY_EVERY:
            return read
        info = await self.timed(self._redis.info("memory"))
        try:
            read = memory(info, now)
        except (KeyError, TypeError, ValueError) as error:
            raise unreadable("answered INFO memory", error) from error
        if read.most == 0 and (self._memory_read is None or self._memory_read.most != 0):
            self._log("backplane_no_maxmemory", {"redis": self.health.redis})
        self._memory_read = read
        return read

    async def leave(self, request: Leave) -> None:
        def decide(state: RoomState, wall: float) -> list[Presence]:
            seat = rules.leave(state, request.holder, wall)
            return [] if seat is None else [presence(seat, PresenceEvent.LEFT, None)]

        await self._change(request.room_id, decide)

    async def check(self, request: Check) -> None:
        await self._change(request.room_id, lambda state, wall: [])

    async def _admit(
        self, request: Enter, loaded: Loaded, failures: str, links: int
    ) -> EnterResult:
        message, state, wall = request.message, loaded.state, loaded.now
        before = tidy(state, loaded.live, wall, self.config.seat_grace)
        if not rules.knows(state, message.token):  # before anything the state would tell
            return await self._failed(failures, ErrorCode.BAD_TOKEN)
        replayable = message.resume_from is not None and rules.can_replay(
            message.resume_from, message.epoch, loaded.epoch, loaded.base, loaded.next_seq
        )
        if isinstance(replayable, ErrorCode):
            return replayable
        admitted = rules.admit(
            state,
            message.token,
            request.name,
            request.holder,
            max_spectators=self.config.max_spectators,
        )
        if admitted == ErrorCode.BAD_TOKEN:
            return await self._failed(failures, ErrorCode.BAD_TOKEN)
        if isinstance(admitted, ErrorCode):
            return admitted
        events = list(before)
        if admitted.seat is not None and admitted.event is not None:
            events.append(presence(admitted.seat, admitted.event, request.holder))
        arrival = loaded.next_seq + len(before)
        start = message.resume_from if replayable and message.resume_from is not None else arrival
        room_id = message.room_id
        new_seat = admitted.event == PresenceEvent.JOINED
        # What Redis tells of the room before the commit's answer is back is kept (see _offer).
        self._order.entering(room_id)
        try:
            try:
                first, frames = await self._commit(room_id, loaded, state, events, start)
            except (RedisError, OSError):
                self._give_back(room_id, request.holder, new_seat)  # it may have been stored
                raise
            serving = served(message.resume_from, replayable, start, first, len(before), frames)
            next_seq, numbered, resync = serving.next_seq, serving.numbered, serving.resync
            if resync and admitted.seat is None:
                # A spectator the room's stream cannot serve: the players are told, after his
                # welcome's next number (known only now, from the commit), so they send him
                # the match so far. Rare, so one more round of load and commit is cheap enough.
                await self._announce(room_id, watching(request.holder, request.name))
            if self.health.down is not None or self._links() != links:
                # The link went while the join was stored: what Redis told it of the room
                # meanwhile went with it, so he cannot be served from here. He is refused
                # (his app asks again) and his seat given back, never let in to a hole.
                self._give_back(room_id, request.holder, new_seat)
                return ErrorCode.UNAVAILABLE
            self.creators[room_id] = state.creator
            # Later events come from Redis's messages (unless the room was ours already).
            self._order.start(room_id, numbered[-1][0] if numbered else next_seq - 1)
        finally:
            self._entered(room_id)
        away = tuple((s.index, wall - s.left_at) for s in state.disconnected_seats())
        return Entered(
            room_id=message.room_id,
            capacity=state.capacity,
            admitted=admitted,
            next_seq=next_seq,
            epoch=loaded.epoch,
            resync=resync,
            start=numbered[0][0] if numbered else next_seq,
            events=tuple(frame for _, frame in numbered),
            away=away,
        )

    async def _announce(self, room_id: str, watching: Presence) -> None:
        """Number a ``watching`` event now, or, within relay.limits.WATCHING_EVERY of this
        process's last one in the room, once that has passed (one for every spectator who
        came meanwhile: the match the players then send serves them all)."""
        now = asyncio.get_running_loop().time()
        if room_id in self._watching:
            return  # announced with the one already waiting
        at = self._watch_at.get(room_id, now)
        if now >= at:
            self._watch_at[room_id] = now + WATCHING_EVERY
            await self._change_now(room_id, lambda state, wall: [watching])
            return
        self._watching[room_id] = watching
        asyncio.get_running_loop().call_at(at, self._announce_due, room_id)

    def _announce_due(self, room_id: str) -> None:
        if not self.health.closing:
            self._spawn(self._announce_later(room_id))

    async def _announce_later(self, room_id: str) -> None:
        watching = self._watching.pop(room_id)
        self._watch_at[room_id] = asyncio.get_running_loop().time() + WATCHING_EVERY
        await self._change(room_id, lambda state, wall: [watching])

    async def _change(
        self, room_id: str, decide: Callable[[RoomState, float], list[Presence]]
    ) -> None:
        """Tidy the room and apply ``decide``; store it only if anything changed."""
        async with self._changes:
            await self._change_now(room_id, decide)

    async def _change_now(self, room_id: str, decide: Decide) -> None:
        if self.health.down is not None:
            return
        try:
            await self._decide(room_id, decide)
        except (RedisError, OSError) as error:
            self._failure(error)

    async def _decide(self, room_id: str, decide: Decide) -> None:
        """Tidy the room and apply ``decide``; store it only if anything changed (a
        spectator's departure changes the state without an event). Decided again until it
        is stored (or Redis fails): a departure must never be lost."""
        tries = 0
        while True:
            if tries:
                await _pause(tries)
            tries += 1
            loaded = await self._load(room_id)
            if loaded is None:
                return
            before = loaded.state.to_bytes()
            events = tidy(loaded.state, loaded.live, loaded.now, self.config.seat_grace)
            events += decide(loaded.state, loaded.now)
            if not events and loaded.state.to_bytes() == before:
                return
            try:
                await self._commit(room_id, loaded, loaded.state, events, loaded.next_seq)
                return
            except Changed:
                continue

    def _give_back(self, room_id: str, holder: str, new_seat: bool) -> None:
        """Undo a join that was (or may have been) stored, but whose member was refused:
        now if Redis can be reached, else before this process takes any other join."""
        self._undone.append((room_id, holder, new_seat))
        if self.health.down is None:
            self._spawn(self._give_back_now())

    async def _give_back_now(self) -> None:
        async with self._changes:
            if self.health.down is not None:
                return  # reaching Redis again will
            try:
                await self.give_back_all()
            except (RedisError, OSError) as error:
                self._failure(error)

    async def give_back_all(self) -> None:
        """Every undo still due (:func:`relay.rules.withdraw`), or raise."""
        while self._undone:
            undo = self._undone.pop(0)
            room_id, holder, new_seat = undo
            try:
                await self._decide(room_id, functools.partial(withdraw, holder, new_seat))
            except BaseException:
                self._undone.insert(0, undo)
                raise

    async def _load(self, room_id: str) -> Loaded | None:
        meta, state, _, leases = room_keys(room_id)
        return loaded(room_id, await self._call("tablier_load", [meta, state, leases], new_epoch()))

    async def _commit(
        self,
        room_id: str,
        loaded: Loaded,
        state: RoomState,
        events: Sequence[Presence],
        start: int,
    ) -> tuple[int, list[tuple[int, bytes]]]:
        """Store ``state`` and number ``events`` if the room is as loaded; the first number
        given, and the room's frames from ``start`` on."""
        call = commit_call(room_id, loaded, state, events, start, new_epoch(), self._terms)
        # In one transaction with the commit, which gives the room's keys a full life: its
        # place among the counted rooms gets the same end, so that no room is ever alive and
        # uncounted (a spectator's join and departure renewed the keys alone, and the count
        # lapsed under them), nor seen so by anyone between the two.
        async with self._redis.pipeline(transaction=True) as both:
            both.fcall(*call)
            both.fcall(*lives_call(state.creator, room_id, self._terms.ttl_ms))
            reply, _ = await self.timed(both.execute())
        return committed(reply)

    async def _failed(self, failures: str, code: ErrorCode) -> ErrorCode:
        """A failed join counts against its address on every process."""
        await self._call("tablier_failures", [failures], self._per_minute, 1)
        return code

    @property
    def _per_minute(self) -> int:
        return self.config.join_failures_per_minute

    async def _call(self, function: str, keys: Sequence[str], *args: Any) -> Any:
        return await self.timed(self._redis.fcall(function, len(keys), *keys, *args))

    async def timed(self, pending: Awaitable[Any]) -> Any:
        """Await a command of redis-py's, its round trip counted."""
        started = time.perf_counter()
        try:
            return await pending
        finally:
            self.health.round_trip(time.perf_counter() - started)


async def _pause(tries: int) -> None:
    """A random pause before deciding again a change that lost a race (CONFLICT_PAUSE)."""
    await asyncio.sleep(random.uniform(0, CONFLICT_PAUSE * min(tries, 16)))
