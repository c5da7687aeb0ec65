"""A shared room as the backplane keeps it in Redis, sans I/O: its keys, what the relay's
functions (:mod:`relay.redis_library`) take and answer, what a change of its state numbers,
and the most memory it can take.

Every room is a few keys under the hash tag ``{room id}``: ``meta``, ``state``, ``log`` (its
stream) and ``leases`` (:func:`room_keys`); the rooms counted against the limits are two
sorted sets (:func:`room_counts`). :mod:`relay.redis_backplane` sends what is built here and
hands back what Redis answered, to be read here: one place for the layout, paired build and
read, tested without Redis.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from relay import rules
from relay.config import RelayConfig
from relay.envelope import WATCHING_SEAT, PresenceEvent, message_parts, presence_parts
from relay.fault import Fault
from relay.rooms import Holder, RoomState, Seat
from relay.shared import Append, Event

# Redis's memory figures (INFO memory) are read when a room is to be created, at most once
# in this many seconds: a crowd of creations costs Redis one INFO a second, not one each.
MEMORY_EVERY = 1.0
# Of Redis's maxmemory, the share never promised to rooms: Redis's own needs (the relay
# processes' Pub/Sub output buffers, up to client-output-buffer-limit each, the AOF rewrite
# buffer, what its allocator cannot give back) and the growth of rooms during MEMORY_EVERY.
REDIS_SHARE = 8  # one eighth
# What a stream entry costs Redis beyond its frame's bytes (its id, the epoch, holder, seat
# and presence fields, its share of the listpack and radix tree), and what the allocator
# may add to a frame that needs a block of its own (jemalloc's size classes are a quarter
# apart): measured with redis-server 7.0 (jemalloc 5.3) for frames of 11 bytes to 16 KiB,
# at most some 100 bytes an entry, and a room of 256 KiB of frames at most 335 KiB in all.
ENTRY_BYTES = 96
ROOM_KEYS_BYTES = 8 * 1024  # meta, state (15 seats, 16 spectators), leases, the counts


def room_bytes(config: RelayConfig) -> int:
    """The most memory one room can take in Redis at the relay's limits: its backlog full of
    whichever frames cost most (many small ones, each with its entry's cost, or big ones,
    each rounded up by the allocator), one frame over while an append is trimmed and one
    more in a half-trimmed listpack node, and its other keys. At the defaults (1024 events,
    256 KiB, 16 KiB frames), 392 KiB; measured at most 335 KiB.

    >>> room_bytes(RelayConfig()) // 1024
    392
    """
    frames = max(config.backlog_bytes * 5 // 4, config.backlog_bytes + config.backlog * ENTRY_BYTES)
    return frames + 2 * config.max_frame + ROOM_KEYS_BYTES


@dataclass(frozen=True, slots=True)
class Memory:
    """Redis's memory as last read (INFO memory), in bytes; ``most`` 0: no maxmemory."""

    used: int
    most: int
    read_at: float


def memory(info: dict[str, Any], now: float) -> Memory:
    """Redis's memory figures from its ``INFO memory`` answer (KeyError, TypeError or
    ValueError if they are not there as numbers)."""
    return Memory(int(info["used_memory"]), int(info["maxmemory"]), now)


# --- keys ------------------------------------------------------------------------------------


def room_keys(room_id: str) -> tuple[str, str, str, str]:
    """A room's keys: ``meta``, ``state``, ``log`` and ``leases``.

    >>> room_keys("Vm8DKOOO")[2]
    'tablier:{Vm8DKOOO}:log'
    """
    tag = f"tablier:{{{room_id}}}"
    return f"{tag}:meta", f"{tag}:state", f"{tag}:log", f"{tag}:leases"


def room_counts(ip: str) -> tuple[str, str]:
    """The rooms counted against ``--max-rooms``, and against its creator's address."""
    return "tablier:{rooms}", f"tablier:{{rooms}}:{ip}"


@functools.lru_cache(maxsize=4096)
def append_keys(room_id: str) -> tuple[str, str, str]:
    """The keys tablier_append takes (a room's keys, made once per room, not per message)."""
    meta, _, log, leases = room_keys(room_id)
    return meta, log, leases


# --- the library -----------------------------------------------------------------------------


class LibraryConflict(RuntimeError):
    """Redis holds another version's function library: its relay processes may still run.
    The deployment's fault (``fault``: the relay's), its operator's to settle."""

    fault = Fault.RELAY

    def __init__(self, other: str) -> None:
        super().__init__(
            f"Redis holds the functions of another relay version ({other}): stop every relay "
            f"process of that version, then run 'redis-cli FUNCTION DELETE {other}'"
        )


def library_name(library: Any) -> str:
    """The name of one library in FUNCTION LIST's answer (in RESP3, a map for each)."""
    name = library[b"library_name"]
    if not isinstance(name, bytes):
        raise TypeError(f"a library's name is {type(name).__name__}")
    return name.decode()


# --- a change of a room's state --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Loaded:
    version: bytes
    next_seq: int
    epoch: int
    base: int
    state: RoomState
    live: frozenset[str]  # processes whose lease runs past now
    now: float  # Redis's clock, in seconds: the rules decide on it, never on this host's


def loaded(room_id: str, reply: Any) -> Loaded | None:
    """A room as tablier_load answered it (None: Redis has no such room)."""
    if reply is None:
        return None
    version, next_seq, epoch, base, blob, live, now = reply
    return Loaded(
        version,
        int(next_seq),
        int(epoch),
        int(base),
        RoomState.from_bytes(room_id, blob),
        frozenset(p.decode() for p in live),
        int(now) / 1000,
    )


class Changed(Exception):
    """Someone changed the room between our load and our store: decide again."""


@dataclass(frozen=True, slots=True)
class Presence:
    """A presence event to number: its frame's parts, and the seat's holder after it."""

    holder: str
    seat: int
    event: int
    head: bytes
    tail: bytes


Decide = Callable[[RoomState, float], list[Presence]]


def presence(seat: Seat, event: PresenceEvent, holder: Holder | None) -> Presence:
    head, tail = presence_parts(seat.index, event, seat.name)
    return Presence("" if holder is None else str(holder), seat.index, int(event), head, tail)


def watching(holder: str, name: str) -> Presence:
    """A spectator the room's stream cannot serve: the players are told to send him the
    match so far."""
    head, tail = presence_parts(WATCHING_SEAT, PresenceEvent.WATCHING, name)
    return Presence(holder, WATCHING_SEAT, int(PresenceEvent.WATCHING), head, tail)


def withdraw(holder: str, new_seat: bool, state: RoomState, wall: float) -> list[Presence]:
    """Undo a join stored but refused (:func:`relay.rules.withdraw`)."""
    gone = rules.withdraw(state, holder, wall, new_seat=new_seat)
    return [presence(seat, event, None) for seat, event in gone]


def tidy(state: RoomState, live: frozenset[str], wall: float, grace: float) -> list[Presence]:
    """What is due before anything else: holders of dead processes let go, seats left past
    their ``grace`` freed."""

    def alive(holder: Holder) -> bool:
        return isinstance(holder, str) and holder.rpartition("/")[0] in live

    gone = rules.reap(state, alive, wall)
    expired = rules.expire_seats(state, wall, grace)
    return [presence(s, PresenceEvent.LEFT, None) for s in gone] + [
        presence(s, PresenceEvent.SEAT_EXPIRED, None) for s in expired
    ]


def holders(state: RoomState) -> list[Holder]:
    seated = [seat.holder for seat in state.seats.values() if seat.holder is not None]
    return seated + sorted(state.spectators, key=str)


@dataclass(frozen=True, slots=True)
class Commit:
    """What tablier_commit needs beyond the room: this process and its terms."""

    process: str
    lease_ms: int
    ttl_ms: int
    backlog: int
    backlog_bytes: int


def commit_call(
    room_id: str,
    loaded: Loaded,
    state: RoomState,
    events: Sequence[Presence],
    start: int,
    epoch: int,
    terms: Commit,
) -> tuple[Any, ...]:
    """The FCALL (function, key count, keys, arguments) that stores ``state`` and numbers
    ``events`` if the room is as loaded (``epoch``: the one a room numbered anew takes), and
    answers the room's frames from ``start`` on (:func:`committed`)."""
    seat_holders: list[Any] = []
    for index in range(state.capacity):
        seat = state.seats.get(index)
        seat_holders += [index, "" if seat is None or seat.holder is None else seat.holder]
    flat: list[Any] = []
    for event in events:
        flat += [event.holder, event.seat, event.event, event.head, event.tail]
    processes = {str(h).rpartition("/")[0] for h in holders(state)}
    keys = room_keys(room_id)
    return (
        "tablier_commit",
        len(keys),
        *keys,
        loaded.version,
        loaded.epoch,
        state.to_bytes(),
        terms.ttl_ms,
        epoch,
        terms.backlog,
        terms.backlog_bytes,
        start,
        ",".join(sorted(processes)),
        terms.process,
        terms.lease_ms,
        room_id,
        state.capacity,
        *seat_holders,
        len(events),
        *flat,
    )


def lives_call(creator: str, room_id: str, ttl_ms: int) -> tuple[Any, ...]:
    """The FCALL that gives the room's place among the counted rooms ``ttl_ms`` more."""
    return ("tablier_room_lives", 2, *room_counts(creator), room_id, ttl_ms)


def committed(reply: Any) -> tuple[int, list[tuple[int, bytes]]]:
    """tablier_commit's answer: the first number it gave, and the room's frames from the
    start asked on; :class:`Changed` if the room was changed since it was loaded."""
    if reply[0] == b"conflict":
        raise Changed
    _, first, _, frames = reply
    return int(first), [(int(frames[i]), frames[i + 1]) for i in range(0, len(frames), 2)]


@dataclass(frozen=True, slots=True)
class Served:
    """What a join's commit serves the newcomer: ``next_seq`` numbers his arrival, the
    ``numbered`` frames are his (from his resume, or from his arrival), ``resync`` says his
    resume could not be served."""

    next_seq: int
    numbered: list[tuple[int, bytes]]
    resync: bool


def served(
    resume_from: int | None,
    replayable: bool,
    start: int,
    first: int,
    before: int,
    frames: list[tuple[int, bytes]],
) -> Served:
    """What a join's commit answered (the ``first`` number it gave, after ``before`` events
    due before the join, and the room's ``frames`` from ``start`` on), as served to him.

    >>> served(3, True, 3, 5, 0, [(3, b"c"), (4, b"d"), (5, b"e")])  # a resume served
    Served(next_seq=5, numbered=[(3, b'c'), (4, b'd'), (5, b'e')], resync=False)
    >>> served(1, True, 1, 5, 0, [(3, b"c"), (4, b"d"), (5, b"e")])  # 1 and 2 trimmed
    Served(next_seq=5, numbered=[(5, b'e')], resync=True)
    """
    next_seq = first + before
    # The commit numbers from the room's newest state, which may be ahead of the load.
    numbered = [(seq, frame) for seq, frame in frames if seq >= min(start, next_seq)]
    # Nothing from start on is a resync only if events were due: one resuming at the room's
    # head (start == first, a spectator's join adds no event) missed nothing.
    resync = resume_from is not None and (
        not replayable or (numbered[0][0] != start if numbered else start != first)
    )
    if resync:
        numbered = [(seq, frame) for seq, frame in numbered if seq >= next_seq]
    return Served(next_seq, numbered, resync)


# --- appends and events ----------------------------------------------------------------------


def append_command(
    request: Append, epoch: int, config: RelayConfig, process: str
) -> tuple[str | bytes | int, ...]:
    """The command that numbers a member's payload (``epoch``: a room numbered anew's)."""
    head, tail = message_parts(request.seat, request.packed_payload)
    return ("FCALL", "tablier_append", 3, *append_keys(request.room_id), request.holder,
            request.seat, head, tail, epoch, config.backlog, config.backlog_bytes,
            request.room_id, process)  # fmt: skip


def stream_event(entry: bytes, flat: list[bytes]) -> Event:
    """An entry of a room's stream (XRANGE's id and fields), as the library's append wrote
    it."""
    fields = dict(zip(flat[::2], flat[1::2], strict=True))
    presence = fields[b"p"]
    return Event(
        seq=int(entry.split(b"-", 1)[0]),
        epoch=int(fields[b"e"]),
        holder=fields[b"h"].decode(),
        seat=int(fields[b"s"]),
        presence=PresenceEvent(int(presence)) if presence else None,
        frame=fields[b"f"],
    )


def published_event(data: bytes) -> tuple[str, Event]:
    """An event as the library published it to a process's channel: its room, and it
    (ValueError, TypeError, IndexError or AttributeError if it is not one)."""
    room, seq, epoch, holder, seat, presence, frame = data.split(b"\n", 6)
    event = Event(
        int(seq),
        int(epoch),
        holder.decode(),
        int(seat),
        PresenceEvent(int(presence)) if presence else None,
        frame,
    )
    return room.decode(), event
