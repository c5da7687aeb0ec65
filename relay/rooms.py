"""One room: its seats, its sequenced event stream and the backlog kept for resuming clients."""

from __future__ import annotations

import hashlib
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from relay.envelope import Member

ConnId = int


def token_hash(token: str) -> bytes:
    """The relay keeps only this; a leaked memory dump or log reveals no usable token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def new_room_id() -> str:
    return secrets.token_urlsafe(16)  # 128 bits, URL-safe


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


@dataclass(slots=True)
class Seat:
    index: int
    name: str
    token_hash: bytes
    conn: ConnId | None
    left_at: float = 0.0


class Room:
    """Seats and spectators of one room, and every event that went through it, numbered."""

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
    ) -> None:
        self.id = room_id
        self.creator = creator  # the address it counts against
        self.player_hash = player_hash
        self.spectator_hash = spectator_hash
        self.capacity = capacity
        self.seats: dict[int, Seat] = {}
        self.seat_by_token: dict[bytes, Seat] = {}
        self.expired_tokens: set[bytes] = set()
        self.spectators: set[ConnId] = set()
        self.next_seq = 0
        # The newest events, as many as both bounds allow: a resume reaches back this far.
        self._backlog: deque[bytes] = deque()
        self._backlog_count = backlog
        self._backlog_bytes = backlog_bytes
        self._backlog_size = 0
        # Everyone connected, players and spectators: the recipients of every event.
        self.audience: tuple[ConnId, ...] = ()
        # The audience but a given sender, built once per sender and audience change.
        self._others: dict[ConnId, tuple[ConnId, ...]] = {}
        self.empty_since: float | None = now

    def stamp(self, frame_for: Callable[[int], bytes]) -> bytes:
        """Give the next sequence number to an event and keep its frame for resumers."""
        return self.record(frame_for(self.next_seq))

    def record(self, frame: bytes) -> bytes:
        """Keep the frame of the event numbered ``next_seq`` for resumers, and move on.

        :meth:`stamp` is the way in; the relay's hot path calls this directly, having built
        the frame with ``next_seq`` itself, to save a closure per message."""
        self._backlog.append(frame)
        self._backlog_size += len(frame)
        while len(self._backlog) > self._backlog_count or (
            self._backlog_size > self._backlog_bytes and len(self._backlog) > 1
        ):
            self._backlog_size -= len(self._backlog.popleft())
        self.next_seq += 1
        return frame

    def backlog_since(self, seq: int) -> list[bytes] | None:
        """Frames numbered ``seq`` onwards, or None if the backlog no longer reaches back."""
        oldest = self.next_seq - len(self._backlog)
        if seq < oldest:
            return None
        return list(self._backlog)[seq - oldest :]

    def free_seat(self) -> int | None:
        return next((i for i in range(self.capacity) if i not in self.seats), None)

    def take_seat(self, name: str, token_hash: bytes, conn: ConnId) -> Seat:
        index = self.free_seat()
        assert index is not None, "callers check free_seat() first"
        seat = Seat(index, name, token_hash, conn)
        self.seats[index] = seat
        self.seat_by_token[token_hash] = seat
        return seat

    def expire_seat(self, seat: Seat) -> None:
        del self.seats[seat.index]
        del self.seat_by_token[seat.token_hash]
        self.expired_tokens.add(seat.token_hash)

    def roster(self) -> tuple[Member, ...]:
        return tuple(
            Member(seat.index, seat.name, seat.conn is not None)
            for seat in sorted(self.seats.values(), key=lambda s: s.index)
        )

    def audience_but(self, sender: ConnId) -> tuple[ConnId, ...]:
        """Who receives ``sender``'s messages: everyone connected except the sender."""
        others = self._others.get(sender)
        if others is None:
            others = tuple(c for c in self.audience if c != sender)
            self._others[sender] = others
        return others

    def refresh_audience(self, now: float) -> None:
        players = tuple(seat.conn for seat in self.seats.values() if seat.conn is not None)
        self.audience = players + tuple(self.spectators)
        self._others.clear()
        if self.audience:
            self.empty_since = None
        elif self.empty_since is None:
            self.empty_since = now

    def disconnected_seats(self) -> list[Seat]:
        return [seat for seat in self.seats.values() if seat.conn is None]
