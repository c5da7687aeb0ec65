"""The relay's sans-I/O core: connection events and frames in, frames and closes out.

:class:`RelayCore` holds every room and connection and decides everything: who may join,
what gets stamped and forwarded, what is refused and why, what expires. It never touches a
socket or a clock; the websockets shell (:mod:`relay.server`) feeds it events with the time
and carries out the :data:`Output` it returns, in order.
"""

from __future__ import annotations

import hmac
from collections import Counter
from dataclasses import dataclass, field

from relay.config import RelayConfig
from relay.envelope import (
    MAX_NAME_CHARS,
    Create,
    EnvelopeError,
    Error,
    ErrorCode,
    Join,
    Notice,
    NoticeCode,
    Presence,
    PresenceEvent,
    Send,
    Stamped,
    Welcome,
    decode_client_frame,
    encode,
    pack_payload,
    packed_send_payload,
    stamp,
)
from relay.limits import TokenBucket
from relay.rooms import ConnId, Room, Seat, new_room, new_token, room_id_for, token_hash

CLOSE_UNSUPPORTED_DATA = 1003
CLOSE_POLICY_VIOLATION = 1008
CLOSE_TRY_AGAIN_LATER = 1013


@dataclass(frozen=True, slots=True)
class Transmit:
    """Send these bytes, as one binary frame, to each of these connections."""

    to: tuple[ConnId, ...]
    data: bytes


@dataclass(frozen=True, slots=True)
class Close:
    conn: ConnId
    code: int
    reason: str


@dataclass(frozen=True, slots=True)
class Log:
    """Something an operator should see: one line per connection event or refusal."""

    conn: ConnId | None  # None for room events with no connection behind them
    event: str
    details: dict[str, str | int]


Output = Transmit | Close | Log

# Refusals: the websocket close that follows each (None: the connection stays open) and the
# sentence sent when the caller has nothing more specific to say.
_REFUSALS: dict[ErrorCode, tuple[int | None, str]] = {
    ErrorCode.BAD_ENVELOPE: (CLOSE_POLICY_VIOLATION, "That frame is not a relay envelope."),
    ErrorCode.TEXT_FRAME: (
        CLOSE_UNSUPPORTED_DATA,
        "The relay reads binary msgpack envelopes, not text frames.",
    ),
    ErrorCode.UNSUPPORTED_VERSION: (CLOSE_POLICY_VIOLATION, "Unsupported envelope version."),
    ErrorCode.FRAME_TOO_LARGE: (1009, "That frame is larger than this relay accepts."),
    ErrorCode.RATE_LIMITED: (
        CLOSE_POLICY_VIOLATION,
        "You sent messages faster than this relay allows, so it closed the connection.",
    ),
    ErrorCode.TOO_SLOW: (None, "You stopped reading; the relay dropped the connection."),
    ErrorCode.HANDSHAKE_TIMEOUT: (
        CLOSE_POLICY_VIOLATION,
        "The connection neither created nor joined a room in time.",
    ),
    ErrorCode.TOO_MANY_CONNECTIONS: (
        CLOSE_TRY_AGAIN_LATER,
        "Too many connections from your address; close some and try again.",
    ),
    ErrorCode.TOO_MANY_ROOMS: (
        CLOSE_TRY_AGAIN_LATER,
        "This relay holds as many rooms as it may; try again later or use another relay.",
    ),
    ErrorCode.TOO_MANY_FAILURES: (
        CLOSE_POLICY_VIOLATION,
        "Too many failed joins from your address; wait a minute and check your invite.",
    ),
    ErrorCode.BAD_SEATS: (CLOSE_POLICY_VIOLATION, "A room needs between 1 and {max} seats."),
    ErrorCode.BAD_NAME: (
        CLOSE_POLICY_VIOLATION,
        f"A display name is 1 to {MAX_NAME_CHARS} printable characters.",
    ),
    ErrorCode.BAD_RESUME: (
        CLOSE_POLICY_VIOLATION,
        "You asked to resume from a sequence number this room has not reached.",
    ),
    ErrorCode.UNKNOWN_ROOM: (
        CLOSE_POLICY_VIOLATION,
        "There is no such room on this relay: it may have expired, or the invite is mistyped.",
    ),
    ErrorCode.BAD_TOKEN: (
        CLOSE_POLICY_VIOLATION,
        "That token does not open this room; check the invite.",
    ),
    ErrorCode.SEAT_EXPIRED: (
        CLOSE_POLICY_VIOLATION,
        "Your seat was given up after you were away too long; join again with the invite.",
    ),
    ErrorCode.ROOM_FULL: (CLOSE_POLICY_VIOLATION, "Every seat in this room is taken."),
    ErrorCode.SPECTATORS_FULL: (
        CLOSE_POLICY_VIOLATION,
        "This room has as many spectators as it allows.",
    ),
    ErrorCode.NOT_JOINED: (
        CLOSE_POLICY_VIOLATION,
        "Join a room before sending messages.",
    ),
    ErrorCode.ALREADY_JOINED: (
        CLOSE_POLICY_VIOLATION,
        "This connection is already in a room; open another connection for another room.",
    ),
    ErrorCode.SPECTATOR_CANNOT_SEND: (
        None,
        "Spectators can watch but not send; your message was not forwarded.",
    ),
    ErrorCode.REPLACED: (
        CLOSE_POLICY_VIOLATION,
        "Your seat was reclaimed by a newer connection with your token.",
    ),
}


_NOT_THIS_ROOM = (
    "Those tokens are not the ones this room was created with: a room comes back only with "
    "its own invite."
)


@dataclass(slots=True)
class Session:
    """One websocket connection: in the lobby until it joins a room as a player or spectator."""

    conn: ConnId
    ip: str
    opened_at: float
    bucket: TokenBucket
    room: Room | None = None
    seat: Seat | None = None
    closing: bool = False


@dataclass(slots=True)
class Stats:
    connections_total: int = 0
    messages_forwarded: int = 0
    bytes_forwarded: int = 0
    refusals: Counter[str] = field(default_factory=Counter)


class RelayCore:
    """Every room and connection of one relay, and all the rules."""

    def __init__(self, config: RelayConfig) -> None:
        self.config = config
        self.rooms: dict[str, Room] = {}
        self.sessions: dict[ConnId, Session] = {}
        self.stats = Stats()
        self._per_ip: Counter[str] = Counter()
        self._upgrading_per_ip: Counter[str] = Counter()  # connections not upgraded yet
        self._rooms_per_ip: Counter[str] = Counter()  # live rooms, by the creator's address
        self._failures: dict[str, TokenBucket] = {}
        # Senders whose latest message no later event has reached yet (conn -> its number),
        # and the same as it stood at the previous confirm(): see confirm().
        self._unplaced: dict[ConnId, int] = {}
        self._unplaced_before: dict[ConnId, int] = {}

    # --- events from the shell -----------------------------------------------------------

    def admit(self, ip: str) -> Log | None:
        """A TCP connection arrived from ``ip``: None lets it go on to its HTTP upgrade, a
        :class:`Log` says it is refused (the shell closes the socket: without a websocket yet,
        there is nothing to carry an error). Each admitted one is counted until
        :meth:`upgraded_or_gone`, so one address cannot hold many half-open connections (each
        costs memory until the handshake timeout) any more than many joined ones.

        The shell asks only where the peer's address is the client's own: behind a proxy every
        connection comes from the proxy, which holds the slow clients itself.
        """
        if self._upgrading_per_ip[ip] >= self.config.max_connections_per_ip:
            self.stats.refusals[ErrorCode.TOO_MANY_CONNECTIONS] += 1
            return Log(None, "refused", {"code": ErrorCode.TOO_MANY_CONNECTIONS, "ip": ip})
        self._upgrading_per_ip[ip] += 1
        return None

    def upgraded_or_gone(self, ip: str) -> None:
        """An admitted connection finished its upgrade (it is counted by :meth:`open` from now
        on) or closed before it."""
        self._upgrading_per_ip[ip] -= 1
        if self._upgrading_per_ip[ip] <= 0:
            del self._upgrading_per_ip[ip]

    def open(self, conn: ConnId, ip: str, now: float) -> list[Output]:
        """A websocket connection completed its HTTP handshake."""
        session = Session(conn, ip, now, TokenBucket(self.config.rate, self.config.burst, now))
        self.sessions[conn] = session
        self._per_ip[ip] += 1
        self.stats.connections_total += 1
        out: list[Output] = [Log(conn, "open", {"ip": ip})]
        if self._per_ip[ip] > self.config.max_connections_per_ip:
            out += self._refuse(session, ErrorCode.TOO_MANY_CONNECTIONS)
        return out

    def receive(self, conn: ConnId, data: bytes, now: float) -> list[Output]:
        """A binary frame arrived."""
        session = self.sessions.get(conn)
        if session is None or session.closing:
            return []
        if not session.bucket.take(now):
            return self._refuse(session, ErrorCode.RATE_LIMITED)
        packed = packed_send_payload(data) if len(data) <= self.config.max_frame else None
        if packed is not None:
            return self._forward(session, packed)
        try:
            message = decode_client_frame(data, self.config.max_frame)
        except EnvelopeError as exc:
            return self._refuse(session, exc.code, exc.text)
        if isinstance(message, Send):
            return self._forward(session, pack_payload(message.payload))
        if isinstance(message, Join):
            return self._join(session, message, now)
        return self._create(session, message, now)

    def receive_text(self, conn: ConnId) -> list[Output]:
        session = self.sessions.get(conn)
        if session is None or session.closing:
            return []
        return self._refuse(session, ErrorCode.TEXT_FRAME)

    def refused_by_transport(self, conn: ConnId, code: ErrorCode) -> list[Output]:
        """The shell refused without the core: the websocket layer closed on an oversized
        frame, or a member stopped reading and was cut off."""
        self.stats.refusals[code] += 1
        return [Log(conn, "refused", {"code": code})]

    def closed(self, conn: ConnId, now: float) -> list[Output]:
        """The connection is gone, whoever closed it."""
        session = self.sessions.pop(conn, None)
        if session is None:
            return []
        self._per_ip[session.ip] -= 1
        if self._per_ip[session.ip] <= 0:
            del self._per_ip[session.ip]
        self._unplaced.pop(conn, None)
        out: list[Output] = [Log(conn, "close", {})]
        room, seat = session.room, session.seat
        if room is None:
            return out
        if seat is None:
            room.spectators.discard(conn)
        else:
            seat.conn = None
            seat.left_at = now
        room.refresh_audience(now)
        if seat is not None:
            out += self._presence(room, seat, PresenceEvent.LEFT)
        return out

    def tick(self, now: float) -> list[Output]:
        """Expire what has waited too long: handshakes, seats, idle rooms, failure records."""
        out: list[Output] = []
        deadline = now - self.config.handshake_timeout
        for session in list(self.sessions.values()):
            if session.room is None and not session.closing and session.opened_at <= deadline:
                out += self._refuse(session, ErrorCode.HANDSHAKE_TIMEOUT)
        for room in list(self.rooms.values()):
            out += self._expire_room(room, now)
        for ip, bucket in list(self._failures.items()):
            if bucket.full(now):
                del self._failures[ip]
        return out

    def confirm(self) -> list[Output]:
        """Tell each sender that has heard nothing since its last message what number it got.

        A sender learns its messages' numbers from the gaps in the next event it receives;
        only when no event followed since the previous call does it get a ``stamped``. Called
        every few tens of milliseconds, so a busy room costs nothing and a quiet sender hears
        within two periods.
        """
        unplaced, before = self._unplaced, self._unplaced_before
        due = [(conn, seq) for conn, seq in unplaced.items() if before.get(conn) == seq]
        for conn, _ in due:
            del unplaced[conn]
        self._unplaced_before = dict(unplaced)
        return [Transmit((conn,), encode(Stamped(seq))) for conn, seq in due]

    def shutdown(self) -> list[Output]:
        """Tell everyone the relay is going away, so clients reconnect later or elsewhere."""
        notice = Notice(
            NoticeCode.RELAY_RESTARTING,
            "The relay is restarting; reconnect in a moment to resume where you were.",
        )
        return [Transmit(tuple(self.sessions), encode(notice))]

    # --- what clients ask ----------------------------------------------------------------

    def _forward(self, session: Session, packed_payload: bytes) -> list[Output]:
        room, seat = session.room, session.seat
        if room is None:
            return self._refuse(session, ErrorCode.NOT_JOINED)
        if seat is None:
            return self._refuse(session, ErrorCode.SPECTATOR_CANNOT_SEND)
        # The hot path: one frame, built once around the payload bytes as they came and kept
        # for resumers (Room.record rather than Room.stamp, to spare a closure per message),
        # handed as the same bytes to every other member. The sender gets no copy: the gap
        # it leaves in the numbers the sender sees next is its place (see confirm()).
        seq = room.next_seq
        frame = room.record(stamp(seq, seat.index, packed_payload))
        others = room.audience_but(session.conn)
        unplaced = self._unplaced
        unplaced[session.conn] = seq
        for conn in others:
            unplaced.pop(conn, None)  # this frame places whatever it sent before
        if not others:
            return []
        stats = self.stats
        stats.messages_forwarded += len(others)
        stats.bytes_forwarded += len(frame) * len(others)
        return [Transmit(others, frame)]

    def _create(self, session: Session, message: Create, now: float) -> list[Output]:
        if session.room is not None:
            return self._refuse(session, ErrorCode.ALREADY_JOINED)
        if not 1 <= message.seats <= self.config.max_seats:
            text = _REFUSALS[ErrorCode.BAD_SEATS][1].format(max=self.config.max_seats)
            return self._refuse(session, ErrorCode.BAD_SEATS, text)
        again = message.again
        if again is not None:
            # The proof is the id itself: only tokens that hash to it bring a room back, so
            # knowing a room's id (as a spectator or anyone shown an invite's id does) is not
            # enough to take it over. Checking needs no relay state and tells a failed prover
            # nothing he could not compute himself, so it is not counted as a guess.
            if again.room_id != room_id_for(
                message.seats, again.player_token, again.spectator_token
            ):
                return self._refuse(
                    session, ErrorCode.BAD_TOKEN, _NOT_THIS_ROOM, room=again.room_id
                )
            if (room := self.rooms.get(again.room_id)) is not None:
                # Another member re-created it first: the same secrets get the same answer.
                log = Log(session.conn, "recreated", {"room": room.id[:8], "seats": room.capacity})
                return [log, Transmit((session.conn,), encode(again))]
        if len(self.rooms) >= self.config.max_rooms:
            return self._refuse(session, ErrorCode.TOO_MANY_ROOMS)
        if self._rooms_per_ip[session.ip] >= self.config.max_rooms_per_ip:
            text = (
                f"Your address already holds {self.config.max_rooms_per_ip} rooms on this "
                "relay; finish a game or wait for an empty room to expire."
            )
            return self._refuse(session, ErrorCode.TOO_MANY_ROOMS, text)
        # A re-created room (one this relay lost in a restart) keeps its old secrets.
        created = again or new_room(message.seats)
        room_id = created.room_id
        self.rooms[room_id] = Room(
            room_id,
            token_hash(created.player_token),
            token_hash(created.spectator_token),
            message.seats,
            self.config.backlog,
            self.config.backlog_bytes,
            now,
            creator=session.ip,
        )
        self._rooms_per_ip[session.ip] += 1
        event = "created" if again is None else "recreated"
        return [
            Log(session.conn, event, {"room": room_id[:8], "seats": message.seats}),
            Transmit((session.conn,), encode(created)),
        ]

    def _join(self, session: Session, message: Join, now: float) -> list[Output]:
        if session.room is not None:
            return self._refuse(session, ErrorCode.ALREADY_JOINED)
        if self._throttled(session, now):
            return self._refuse(session, ErrorCode.TOO_MANY_FAILURES)
        room = self.rooms.get(message.room_id)
        if room is None:
            return self._failed_join(session, ErrorCode.UNKNOWN_ROOM, now, message.room_id)
        name = message.name.strip()
        if not (1 <= len(name) <= MAX_NAME_CHARS and name.isprintable()):
            return self._refuse(session, ErrorCode.BAD_NAME)
        if message.resume_from is not None and message.resume_from > room.next_seq:
            return self._refuse(session, ErrorCode.BAD_RESUME)

        # The roster and next_seq the newcomer gets describe the room just before its own
        # arrival, which reaches it (and everyone) as the presence event numbered next_seq.
        roster, next_seq = room.roster(), room.next_seq
        digest = token_hash(message.token)
        out: list[Output] = []
        seat_token: str | None = None
        event: PresenceEvent | None = None
        if hmac.compare_digest(digest, room.player_hash):
            if room.free_seat() is None:
                return self._refuse(session, ErrorCode.ROOM_FULL)
            seat_token = new_token()
            seat: Seat | None = room.take_seat(name, token_hash(seat_token), session.conn)
            event = PresenceEvent.JOINED
        elif hmac.compare_digest(digest, room.spectator_hash):
            if len(room.spectators) >= self.config.max_spectators:
                return self._refuse(session, ErrorCode.SPECTATORS_FULL)
            seat = None
            room.spectators.add(session.conn)
        elif (seat := room.seat_by_token.get(digest)) is not None:
            seat_token = message.token
            if seat.conn is not None:
                out += self._replace(seat.conn)
            seat.conn = session.conn
            event = PresenceEvent.RECONNECTED
        elif digest in room.expired_tokens:
            return self._refuse(session, ErrorCode.SEAT_EXPIRED)
        else:
            return self._failed_join(session, ErrorCode.BAD_TOKEN, now, message.room_id)

        session.room, session.seat = room, seat
        replay = None if message.resume_from is None else room.backlog_since(message.resume_from)
        welcome = Welcome(
            seat=None if seat is None else seat.index,
            seat_token=seat_token,
            seats=room.capacity,
            next_seq=next_seq,
            resync=message.resume_from is not None and replay is None,
            members=roster,
        )
        role = "spectator" if seat is None else f"seat {seat.index}"
        out.append(Log(session.conn, "joined", {"room": room.id[:8], "as": role}))
        out.append(Transmit((session.conn,), encode(welcome)))
        out.extend(Transmit((session.conn,), frame) for frame in replay or ())
        room.refresh_audience(now)
        if seat is not None and event is not None:
            out += self._presence(room, seat, event)
        return out

    def _throttled(self, session: Session, now: float) -> bool:
        failures = self._failures.get(session.ip)
        return failures is not None and not failures.ready(now)

    def _failed_join(
        self, session: Session, code: ErrorCode, now: float, room_id: str
    ) -> list[Output]:
        """Count failures per address, so guessing room ids or tokens stays hopeless."""
        rate = self.config.join_failures_per_minute
        bucket = self._failures.setdefault(session.ip, TokenBucket(rate / 60.0, rate, now))
        bucket.take(now)
        return self._refuse(session, code, room=room_id)

    def _replace(self, old_conn: ConnId) -> list[Output]:
        """A player reconnected while its old connection still looked alive: drop the old one."""
        old = self.sessions[old_conn]
        out = [] if old.closing else self._refuse(old, ErrorCode.REPLACED)
        old.room = old.seat = None
        self._unplaced.pop(old_conn, None)
        return out

    # --- expiry --------------------------------------------------------------------------

    def _expire_room(self, room: Room, now: float) -> list[Output]:
        out: list[Output] = []
        for seat in room.disconnected_seats():
            if seat.left_at + self.config.seat_grace <= now:
                out.append(Log(None, "seat_expired", {"room": room.id[:8], "seat": seat.index}))
                out += self._presence(room, seat, PresenceEvent.SEAT_EXPIRED)
                room.expire_seat(seat)
        if room.empty_since is not None and room.empty_since + self.config.room_idle <= now:
            del self.rooms[room.id]
            self._rooms_per_ip[room.creator] -= 1
            if self._rooms_per_ip[room.creator] <= 0:
                del self._rooms_per_ip[room.creator]
            out.append(Log(None, "room_expired", {"room": room.id[:8]}))
        return out

    # --- helpers -------------------------------------------------------------------------

    def _presence(self, room: Room, seat: Seat, event: PresenceEvent) -> list[Output]:
        index, name = seat.index, seat.name
        frame = room.stamp(lambda seq: encode(Presence(seq, index, event, name)))
        for conn in room.audience:
            self._unplaced.pop(conn, None)
        return [Transmit(room.audience, frame)] if room.audience else []

    def _refuse(
        self, session: Session, code: ErrorCode, text: str | None = None, *, room: str = ""
    ) -> list[Output]:
        """Refuse with ``code``; ``room`` is the room id the client named, if any (cut to 8
        characters in the log, like every room id there: enough to find a room, not to join)."""
        close_code, default_text = _REFUSALS[code]
        self.stats.refusals[code] += 1
        details: dict[str, str | int] = {"code": code, "ip": session.ip}
        if room:
            details["room"] = room[:8]
        out: list[Output] = [
            Log(session.conn, "refused", details),
            Transmit((session.conn,), encode(Error(code, text or default_text))),
        ]
        if close_code is not None:
            session.closing = True
            out.append(Close(session.conn, close_code, code))
        return out
