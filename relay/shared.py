"""Rooms held by a backplane (Redis), as one relay process sees them.

With a backplane, a room's state, order and backlog live in Redis, shared by every relay
process. A process keeps, for each room one of its connections is in, only a
:class:`LocalRoom`: which of its connections are members and the number each expects next, a
few recent events for members who arrive while the stream moves on, and when the room's
absent seats were left (to know when to ask the backplane to expire them).

The core talks to the backplane in the requests below (outputs, carried out by the shell)
and hears back through :meth:`relay.core.RelayCore.entered`, :meth:`~relay.core.RelayCore.
brought` and :meth:`~relay.core.RelayCore.delivered`. Decisions about a room's state are
:mod:`relay.rules`, applied by the backplane to the state it loads.
"""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

from relay.envelope import Create, Created, ErrorCode, Join, PresenceEvent
from relay.rooms import ConnId, Holder
from relay.rules import Admitted

if TYPE_CHECKING:
    from relay.outputs import Output
    from relay.rooms import Room

# Events a process keeps per room for members who arrive while its reader moves on: at most
# this many, and at most the room's --backlog-bytes of frames (LocalRoom's recent_bytes),
# so that a room of 16 KiB frames holds 256 KiB here, not 4 MiB.
RECENT_EVENTS = 256


# --- what the core asks of a backplane ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Enter:
    """Let ``conn`` into ``message.room_id`` (load the room, :func:`relay.rules.admit`, store
    it back), then call :meth:`RelayCore.entered`."""

    conn: ConnId
    holder: str
    ip: str
    message: Join
    name: str


@dataclass(frozen=True, slots=True)
class Bring:
    """Create the room ``created`` describes (or, for a re-create, find it there already),
    then call :meth:`RelayCore.brought`."""

    conn: ConnId
    ip: str
    message: Create
    created: Created


class Append(NamedTuple):
    """Number this member's payload in its room's stream (it arrives back through
    :meth:`RelayCore.delivered`, like everyone's). A named tuple, as
    :class:`relay.outputs.Transmit`: one is made per message."""

    room_id: str
    holder: str
    seat: int
    packed_payload: bytes


@dataclass(frozen=True, slots=True)
class Leave:
    """``holder``'s connection is gone (:func:`relay.rules.leave`)."""

    room_id: str
    holder: str


@dataclass(frozen=True, slots=True)
class Check:
    """A seat of this room may be due to expire (:func:`relay.rules.expire_seats`)."""

    room_id: str


Request = Enter | Bring | Append | Leave | Check


# --- what a backplane answers --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entered:
    """A connection is in: ``admitted`` says as what; ``next_seq`` numbers its own arrival
    (a spectator's: the next event); ``events`` are the room's frames from number ``start``
    on (its resume, or ``next_seq``); ``resync`` says its resume could not be served;
    ``away`` says how many seconds ago each absent seat was left."""

    room_id: str
    capacity: int
    admitted: Admitted
    next_seq: int
    epoch: int
    resync: bool
    start: int
    events: tuple[bytes, ...]
    away: tuple[tuple[int, float], ...]


@dataclass(frozen=True, slots=True)
class Brought:
    """The room of a :class:`Bring` is there: created now, or found (``again``)."""

    created: Created
    seats: int
    again: bool


@dataclass(frozen=True, slots=True)
class Full:
    """The room of a :class:`Bring` was not created: ``why`` the relay holds as many rooms as
    it may: ``rooms`` (``--max-rooms``), ``address`` (``--max-rooms-per-ip``, from its
    creator's address) or ``memory`` (Redis could not hold one more room full)."""

    why: str


class Event(NamedTuple):
    """One entry of a room's stream, as the backplane delivers it. ``holder`` is who sent a
    message, or who holds ``seat`` after a presence event (the one who left, for a
    departure); ``presence`` is None for a message. A named tuple: one is made per message."""

    seq: int
    epoch: int
    holder: Holder
    seat: int
    presence: PresenceEvent | None
    frame: bytes


EnterResult = Entered | ErrorCode
BringResult = Brought | Full | ErrorCode


# --- the core's two room modes, behind one interface ----------------------------------------


class Host(Protocol):
    """The relay core, as a room it serves sees it (:class:`relay.core.RelayCore`)."""

    def holder(self, conn: ConnId) -> str: ...

    def forget_member(self, local: LocalRoom, conn: ConnId) -> None: ...

    def forward_here(
        self, room: Room, conn: ConnId, seat: int, packed_payload: bytes, tell: bool
    ) -> list[Output]: ...

    def depart_here(self, room: Room, conn: ConnId, now: float) -> list[Output]: ...


class Hosted(Protocol):
    """A room as the core serves its members: held in this process's memory
    (:class:`relay.rooms.Room`), or shared through a backplane (:class:`LocalRoom`). The
    core asks, and each answers in its own way, so that it never asks which one it is."""

    @property
    def id(self) -> str: ...

    def forward(
        self, host: Host, conn: ConnId, seat: int, packed_payload: bytes, tell: bool
    ) -> list[Output]:
        """A player's payload, to number and hand to every other member."""
        ...

    def depart(self, host: Host, conn: ConnId, now: float) -> list[Output]:
        """The member's connection is gone."""
        ...

    def drop(self, host: Host, conn: ConnId) -> None:
        """The member's connection was replaced by a newer one (which the room keeps)."""
        ...


# --- one process's view of a shared room ---------------------------------------------------


class LocalRoom:
    """The members of one shared room that are connections of this process."""

    __slots__ = (
        "away",
        "epoch",
        "expects",
        "id",
        "recent",
        "recent_bytes",
        "recent_limit",
        "seat_of",
        "tells",
    )

    def __init__(self, room_id: str, epoch: int, recent_limit: int = 256 * 1024) -> None:
        self.id = room_id
        self.epoch = epoch
        self.expects: dict[ConnId, int] = {}  # member -> the number of the next event it needs
        self.seat_of: dict[ConnId, int] = {}  # players among them -> their seat
        self.recent: deque[tuple[int, bytes]] = deque()  # by remember(): RECENT_EVENTS
        self.recent_bytes = 0  # of the frames in recent
        self.recent_limit = recent_limit  # bytes of frames recent holds at most
        self.away: dict[int, float] = {}  # absent seat -> when to ask whether it expired
        # Players here -> for each of their appends not read back yet, in order, whether
        # the sender asked to be told its number (Send.tell).
        self.tells: defaultdict[ConnId, deque[bool]] = defaultdict(deque)

    def forward(
        self, host: Host, conn: ConnId, seat: int, packed_payload: bytes, tell: bool
    ) -> list[Output]:
        """Numbered by the backplane, delivered by its reader (:class:`Hosted`)."""
        self.tells[conn].append(tell)
        return [Append(self.id, host.holder(conn), seat, packed_payload)]

    def depart(self, host: Host, conn: ConnId, now: float) -> list[Output]:
        """The backplane decides the departure (:class:`Hosted`)."""
        host.forget_member(self, conn)
        return [Leave(self.id, host.holder(conn))]

    def drop(self, host: Host, conn: ConnId) -> None:
        host.forget_member(self, conn)

    def remember(self, seq: int, frame: bytes) -> None:
        """Keep an event delivered here, the oldest let go past RECENT_EVENTS or
        ``recent_limit`` bytes (then :meth:`catch_up` answers None for what went).

        >>> room = LocalRoom("r", 0, recent_limit=10)
        >>> for n in range(3):
        ...     room.remember(n, b"four")
        >>> [n for n, _ in room.recent], room.recent_bytes
        ([1, 2], 8)
        >>> room.catch_up(0) is None, room.catch_up(1)
        (True, [b'four', b'four'])
        """
        recent = self.recent
        recent.append((seq, frame))
        self.recent_bytes += len(frame)
        # The newest always stays: were it alone past the limit, an empty deque would tell
        # catch_up that nothing was missed.
        while len(recent) > 1 and (
            len(recent) > RECENT_EVENTS or self.recent_bytes > self.recent_limit
        ):
            self.recent_bytes -= len(recent.popleft()[1])

    def catch_up(self, seq: int) -> list[bytes] | None:
        """Frames this process already delivered to the others from ``seq`` on, for a member
        that starts there; None if they are no longer kept."""
        if not self.recent or self.recent[-1][0] < seq:
            return []
        if self.recent[0][0] > seq:
            return None
        return [frame for number, frame in self.recent if number >= seq]
