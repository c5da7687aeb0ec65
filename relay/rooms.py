"""One room: who may enter it and who sits where (:class:`RoomState`, which a backplane
stores as bytes), and, for a room held in this process's memory, its numbered events and the
backlog kept for resuming clients (:class:`Room`)."""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgpack  # type: ignore[import-untyped]

from relay.envelope import Created, Member

if TYPE_CHECKING:
    from relay.outputs import Output
    from relay.shared import Host

ConnId = int

# The expired seat tokens a room remembers (so that a player back too late is told his seat
# expired, not that his token is wrong): at most EXPIRED_TOKENS of them (34 bytes each in a
# room's state), the oldest forgotten first, and none for longer than EXPIRED_TOKEN_SECONDS.
# A player with the room's token who joins and leaves in a loop makes one a seat grace; past
# these bounds his tokens are forgotten, and such a token is then refused as bad_token.
EXPIRED_TOKENS = 32
EXPIRED_TOKEN_SECONDS = 3600.0
# Who holds a seat or watches: a connection of this process (in memory), or, with a
# backplane, "<process>/<connection>" so that every process can tell whose it is.
Holder = ConnId | str


def token_hash(token: str) -> bytes:
    """The relay keeps only this; a leaked memory dump or log reveals no usable token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


def new_epoch() -> int:
    """A name for a room's numbering, told in every welcome and named by every resume: a
    room whose stream may have lost events numbers them in a new one (48 bits: exact as a
    Lua number, which is a double)."""
    return secrets.randbits(48)


_ROOM_ID_DOMAIN = b"tablier relay room id\x00"


def room_id_for(seats: int, player_token: str, spectator_token: str) -> str:
    """A room's id: the first 128 bits of SHA-256 over its seat count and both its tokens.

    The id is public (every invite shows it); the tokens are not. Deriving the one from the
    others makes the id a commitment to them: bringing a lost room back (a re-create) needs
    tokens that hash to its id, which only the holders of its invites have, and the relay
    checks that without remembering anything::

        >>> room_id_for(2, "p" * 43, "s" * 43)
        '4bLUyknlGJQxTMiNxwsjLw'
        >>> room_id_for(3, "p" * 43, "s" * 43) != room_id_for(2, "p" * 43, "s" * 43)
        True
    """
    digest = hashlib.sha256(_ROOM_ID_DOMAIN + bytes((seats,)))
    for token in (player_token, spectator_token):
        encoded = token.encode("utf-8", "surrogatepass")
        digest.update(len(encoded).to_bytes(2, "big") + encoded)  # no two splits alike
    return base64.urlsafe_b64encode(digest.digest()[:16]).rstrip(b"=").decode("ascii")


_ROOM_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def is_room_id(text: str) -> bool:
    """Whether ``text`` is shaped like an id :func:`room_id_for` makes (22 characters of
    URL-safe base64); nothing else is ever a room."""
    return len(text) == 22 and _ROOM_ID_CHARS.issuperset(text)


def new_room(seats: int) -> Created:
    """Fresh secrets for a room of ``seats`` seats, and the id they make."""
    player, spectator = new_token(), new_token()
    return Created(room_id_for(seats, player, spectator), player, spectator)


@dataclass(slots=True)
class Seat:
    index: int
    name: str
    token_hash: bytes
    holder: Holder | None  # None: its player is away, the seat held for his token
    left_at: float = 0.0  # when it was left (the wall clock's, with a backplane)


class RoomState:
    """What decides who may enter a room and where he sits: its secrets (hashed), seats,
    spectators and expired seat tokens. :mod:`relay.rules` changes it; nothing else does."""

    __slots__ = (
        "capacity",
        "creator",
        "expired_tokens",
        "id",
        "player_hash",
        "seat_by_token",
        "seats",
        "spectator_hash",
        "spectators",
    )

    def __init__(
        self,
        room_id: str,
        player_hash: bytes,
        spectator_hash: bytes,
        capacity: int,
        *,
        creator: str,
    ) -> None:
        self.id = room_id
        self.creator = creator  # the address it counts against
        self.player_hash = player_hash
        self.spectator_hash = spectator_hash
        self.capacity = capacity
        self.seats: dict[int, Seat] = {}
        self.seat_by_token: dict[bytes, Seat] = {}
        # Expired seat token (hashed) -> when it expired, oldest first (see EXPIRED_TOKENS).
        self.expired_tokens: dict[bytes, float] = {}
        self.spectators: set[Holder] = set()

    def free_seat(self) -> int | None:
        return next((i for i in range(self.capacity) if i not in self.seats), None)

    def take_seat(self, name: str, token_hash: bytes, holder: Holder) -> Seat:
        index = self.free_seat()
        assert index is not None, "callers check free_seat() first"
        seat = Seat(index, name, token_hash, holder)
        self.seats[index] = seat
        self.seat_by_token[token_hash] = seat
        return seat

    def expire_seat(self, seat: Seat, now: float) -> None:
        del self.seats[seat.index]
        del self.seat_by_token[seat.token_hash]
        self.expired_tokens[seat.token_hash] = now
        self.forget_expired(now)

    def forget_expired(self, now: float) -> None:
        """Forget the expired seat tokens past :data:`EXPIRED_TOKENS` (oldest first) or older
        than :data:`EXPIRED_TOKEN_SECONDS`.

        >>> state = RoomState("r", b"p", b"s", 1, creator="192.0.2.1")
        >>> for n in range(EXPIRED_TOKENS + 5):
        ...     state.expired_tokens[bytes([n])] = float(n)
        >>> state.forget_expired(now=40.0)
        >>> len(state.expired_tokens), min(state.expired_tokens)
        (32, b'\\x05')
        >>> state.forget_expired(now=EXPIRED_TOKEN_SECONDS + 20.0)
        >>> len(state.expired_tokens)
        17
        """
        expired = self.expired_tokens
        while len(expired) > EXPIRED_TOKENS:
            del expired[next(iter(expired))]
        oldest = now - EXPIRED_TOKEN_SECONDS
        while expired and next(iter(expired.values())) < oldest:
            del expired[next(iter(expired))]

    def roster(self) -> tuple[Member, ...]:
        return tuple(
            Member(seat.index, seat.name, seat.holder is not None)
            for seat in sorted(self.seats.values(), key=lambda s: s.index)
        )

    def disconnected_seats(self) -> list[Seat]:
        return [seat for seat in self.seats.values() if seat.holder is None]

    def occupied(self) -> bool:
        """Someone is connected: a player in his seat, or a spectator."""
        return bool(self.spectators) or any(s.holder is not None for s in self.seats.values())

    # --- as bytes, for a backplane --------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The state as one msgpack array; :meth:`from_bytes` reads it back."""
        seats = [
            [s.index, s.name, s.token_hash, s.holder, s.left_at]
            for s in sorted(self.seats.values(), key=lambda s: s.index)
        ]
        fields: list[Any] = [
            self.capacity,
            self.creator,
            self.player_hash,
            self.spectator_hash,
            seats,
            [[token, at] for token, at in self.expired_tokens.items()],  # oldest first
            sorted(self.spectators, key=str),
        ]
        packed: bytes = msgpack.packb(fields, use_bin_type=True)
        return packed

    @classmethod
    def from_bytes(cls, room_id: str, data: bytes) -> RoomState:
        """The state :meth:`to_bytes` wrote (the backplane's own bytes, never a client's)."""
        capacity, creator, player, spectator, seats, expired, spectators = msgpack.unpackb(
            data, raw=False
        )
        state = cls(room_id, player, spectator, capacity, creator=creator)
        for index, name, token_hash, holder, left_at in seats:
            seat = Seat(index, name, token_hash, holder, left_at)
            state.seats[index] = seat
            state.seat_by_token[token_hash] = seat
        # (A state stored by an earlier relay lists bare hashes: taken as expired at 0,
        # the first to be forgotten.)
        state.expired_tokens = {
            entry if isinstance(entry, bytes) else entry[0]: (
                0.0 if isinstance(entry, bytes) else float(entry[1])
            )
            for entry in expired
        }
        state.spectators = set(spectators)
        return state


class Room(RoomState):
    """A room held in this process's memory: its state, and every event that went through it,
    numbered, with the newest kept for resumers."""

    __slots__ = (
        "_backlog",
        "_backlog_bytes",
        "_backlog_count",
        "_backlog_size",
        "_oldest",
        "_others",
        "audience",
        "empty_since",
        "epoch",
        "next_seq",
        "recreated",
        "watch_at",
        "watching",
    )

    def __init__(
        self,
        room_id: str,
        player_hash: bytes,
        spectator_hash: bytes,
        capacity: int,
        backlog: int,
        backlog_bytes: int,
        now: float,
        *,
        creator: str,
        recreated: bool = False,
    ) -> None:
        super().__init__(room_id, player_hash, spectator_hash, capacity, creator=creator)
        self.epoch = new_epoch()  # a room in memory never loses events: one epoch for life
        # Brought back after a relay lost it: its events begin there, not at its first match's
        # start, so a spectator joining it from its first event is not served the match whole.
        self.recreated = recreated
        self.next_seq = 0
        # The newest events, as many as both bounds allow: a resume reaches back this far.
        # A list read from _oldest on (a deque allocates a 64-slot block per room, half a
        # kilobyte for a room that holds a few events), compacted now and then.
        self._backlog: list[bytes] = []
        self._oldest = 0
        self._backlog_count = backlog
        self._backlog_bytes = backlog_bytes
        self._backlog_size = 0
        # Everyone connected, players and spectators: the recipients of every event.
        self.audience: tuple[ConnId, ...] = ()
        # The audience but a given sender, built once per sender and audience change.
        self._others: dict[ConnId, tuple[ConnId, ...]] = {}
        self.empty_since: float | None = now
        # A spectator's name to announce (relay.limits.WATCHING_EVERY), and from when.
        self.watching: str | None = None
        self.watch_at = now

    def stamp(self, frame_for: Callable[[int], bytes]) -> bytes:
        """Give the next sequence number to an event and keep its frame for resumers."""
        return self.record(frame_for(self.next_seq))

    def record(self, frame: bytes) -> bytes:
        """Keep the frame of the event numbered ``next_seq`` for resumers, and move on.

        :meth:`stamp` is the way in; the relay's hot path calls this directly, having built
        the frame with ``next_seq`` itself, to save a closure per message."""
        backlog = self._backlog
        backlog.append(frame)
        self._backlog_size += len(frame)
        while len(backlog) - self._oldest > self._backlog_count or (
            self._backlog_size > self._backlog_bytes and len(backlog) - self._oldest > 1
        ):
            self._backlog_size -= len(backlog[self._oldest])
            self._oldest += 1
        if self._oldest > len(backlog) // 2:  # what is dropped is at most half of the list
            del backlog[: self._oldest]
            self._oldest = 0
        self.next_seq += 1
        return frame

    def backlog_since(self, seq: int) -> list[bytes] | None:
        """Frames numbered ``seq`` onwards, or None if the backlog no longer reaches back."""
        kept = len(self._backlog) - self._oldest
        oldest = self.next_seq - kept
        if seq < oldest:
            return None
        return self._backlog[self._oldest + seq - oldest :]

    def forward(
        self, host: Host, conn: ConnId, seat: int, packed_payload: bytes, tell: bool
    ) -> list[Output]:
        """Numbered here (:class:`relay.shared.Hosted`)."""
        return host.forward_here(self, conn, seat, packed_payload, tell)

    def depart(self, host: Host, conn: ConnId, now: float) -> list[Output]:
        """Decided here (:class:`relay.shared.Hosted`)."""
        return host.depart_here(self, conn, now)

    def drop(self, host: Host, conn: ConnId) -> None:
        """Nothing to forget: the seat is its newer connection's (:class:`relay.shared.
        Hosted`)."""

    def audience_but(self, sender: ConnId) -> tuple[ConnId, ...]:
        """Who receives ``sender``'s messages: everyone connected except the sender."""
        others = self._others.get(sender)
        if others is None:
            others = tuple(c for c in self.audience if c != sender)
            self._others[sender] = others
        return others

    def refresh_audience(self, now: float) -> None:
        # In memory every holder is a connection id of this process.
        holders = [s.holder for s in self.seats.values() if s.holder is not None]
        holders += self.spectators
        self.audience = tuple(h for h in holders if isinstance(h, int))
        self._others.clear()
        if self.audience:
            self.empty_since = None
        elif self.empty_since is None:
            self.empty_since = now
