"""The relay's sans-I/O core: connection events and frames in, frames and closes out.

:class:`RelayCore` holds every room and connection and decides everything: who may join,
what gets stamped and forwarded, what is refused and why, what expires. It never touches a
socket or a clock; the websockets shell (:mod:`relay.server`) feeds it events with the time
and carries out the :data:`~relay.outputs.Output` it returns, in order.

Three pieces of it have a module each: what it returns (:mod:`relay.outputs`), the ledger of
what each address and seat may still spend (:mod:`relay.budgets`), and, with a backplane,
its side of the rooms the backplane holds (:mod:`relay.shared_core`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from relay.budgets import Budgets
from relay.config import RelayConfig
from relay.envelope import (
    WATCHING_SEAT,
    Create,
    EnvelopeError,
    Error,
    ErrorCode,
    Join,
    Kind,
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
from relay.limits import WATCHING_EVERY, TokenBucket
from relay.outputs import Close, Log, Output, Transmit, joined
from relay.refusals import REFUSALS
from relay.rooms import ConnId, Room, Seat, new_room, room_id_for, token_hash
from relay.rules import (
    Admitted,
    admit,
    can_replay,
    display_name,
    expire_seats,
    knows,
    leave,
)
from relay.shared import (
    Bring,
    BringResult,
    Enter,
    EnterResult,
    Event,
    Hosted,
    LocalRoom,
)
from relay.shared_core import SharedRooms

_NOT_THIS_ROOM = (
    "Those tokens are not the ones this room was created with: a room comes back only with "
    "its own invite."
)


_CREATED_ALREADY = (
    "This connection already asked for a room; open another connection for another room."
)


@dataclass(slots=True)
class Session:
    """One websocket connection: in the lobby until it joins a room as a player or spectator."""

    conn: ConnId
    ip: str
    opened_at: float
    bucket: TokenBucket
    # Its address's bytes (--max-bytes-per-ip), shared by its sessions; None: no bound.
    sending: TokenBucket | None
    room: Hosted | None = None  # a Room (in memory) or a LocalRoom (through a backplane)
    seat: Seat | None = None
    closing: bool = False
    waiting: bool = False  # a backplane is deciding its create or join
    created: bool = False  # it asked for a room (once a connection)


@dataclass(slots=True)
class Stats:
    connections_total: int = 0
    messages_forwarded: int = 0
    bytes_forwarded: int = 0
    refusals: Counter[str] = field(default_factory=Counter)


class RelayCore:
    """Every connection of one relay process, its rooms, and all the rules.

    Rooms live in this process's memory unless ``process`` is given: then a backplane holds
    them (shared by every relay process; this one is known there by ``process``), the core
    asks it through :mod:`relay.shared` requests among its outputs, and keeps for each room
    only its own members' view (:class:`relay.shared.LocalRoom`).
    """

    def __init__(self, config: RelayConfig, *, process: str | None = None) -> None:
        self.config = config
        self.process = process
        self.rooms: dict[str, Room] = {}
        self.backplane = SharedRooms(self)  # its answers, about the rooms it holds
        self.shared = self.backplane.rooms  # (with a backplane) this process's view of each
        self.sessions: dict[ConnId, Session] = {}
        self.stats = Stats()
        self.budgets = Budgets(config)  # what each address and each seat may still spend
        # The rate a welcome announces: rounded down, so a client keeping to it keeps to ours.
        self._rate_per_minute = max(1, int(config.rate * 60))

    def holder(self, conn: ConnId) -> str:
        """How a connection of this process is named in a shared room's state."""
        return f"{self.process}/{conn}"

    def local_conn(self, holder: object) -> ConnId | None:
        """The connection a holder names, if it is one of this process's."""
        if isinstance(holder, str):
            process, _, conn = holder.rpartition("/")
            if process == self.process and conn.isdigit():
                return int(conn)
        return None

    # --- events from the shell -----------------------------------------------------------

    def admit(self, ip: str, *, per_address: bool = True) -> Log | None:
        """A TCP connection arrived from ``ip``: None lets it go on to its HTTP upgrade, a
        :class:`Log` says it is refused (the shell closes the socket: without a websocket yet,
        there is nothing to carry an error). Each admitted one is counted until
        :meth:`upgraded_or_gone`: against ``--max-half-open`` in all, so that a crowd of
        addresses cannot hold the relay's memory with connections that never upgrade, and,
        ``per_address``, against its address's ``--max-connections-per-ip`` together with the
        address's open websockets, so one address holds at most that many of both kinds, and
        one more: that one, if it upgrades, is refused by :meth:`open` with a sentence (the
        limit's, which an honest client can show) rather than cut off without a word.

        Behind a trusted proxy (``per_address`` False) every connection comes from the proxy,
        which holds the slow clients itself: only the global count applies, and
        :meth:`open` counts each client's address once its upgrade names it.
        """
        why = self.budgets.admit(ip, per_address=per_address)
        if why is None:
            return None
        self.stats.refusals[ErrorCode.TOO_MANY_CONNECTIONS] += 1
        details: dict[str, str | int] = {"code": ErrorCode.TOO_MANY_CONNECTIONS, "ip": ip}
        details["why"] = why
        return Log(None, "refused", details)

    def refused_upgrade(self, ip: str, why: str) -> Log:
        """An admitted connection's HTTP upgrade broke a bound of the shell's
        (relay.limits.UPGRADE_REQUEST_BYTES): the shell answers it HTTP 431 and closes it."""
        self.stats.refusals[ErrorCode.BAD_ENVELOPE] += 1
        return Log(None, "refused", {"code": ErrorCode.BAD_ENVELOPE, "ip": ip, "why": why})

    def upgraded_or_gone(self, ip: str, *, per_address: bool = True) -> None:
        """An admitted connection finished its upgrade (it is counted by :meth:`open` from now
        on) or closed before it."""
        self.budgets.upgraded_or_gone(ip, per_address=per_address)

    def open(self, conn: ConnId, ip: str, now: float) -> list[Output]:
        """A websocket connection completed its HTTP handshake."""
        config, sending = self.config, self.budgets.opened(ip, now)
        session = Session(conn, ip, now, TokenBucket(config.rate, config.burst, now), sending)
        self.sessions[conn] = session
        self.stats.connections_total += 1
        out: list[Output] = [Log(conn, "open", {"ip": ip})]
        # The one over the cap that admit lets through to be told why (behind a proxy, each
        # one over: the proxy's connections are not counted per address at admission).
        if self.budgets.over(ip):
            out += self.refuse(
                session, ErrorCode.TOO_MANY_CONNECTIONS, why="address", at_once=True
            )
        return out

    def receive(self, conn: ConnId, data: bytes, now: float) -> list[Output]:
        """A binary frame arrived."""
        session = self.sessions.get(conn)
        if session is None or session.closing:
            return []
        if not session.bucket.take(now):
            return self.refuse(session, ErrorCode.RATE_LIMITED)
        if session.sending is not None and not session.sending.spend(now, len(data)):
            text = (
                "Your address sent more bytes than this relay allows, so it closed this connection."
            )
            return self.refuse(session, ErrorCode.RATE_LIMITED, text, why="address")
        packed = packed_send_payload(data) if len(data) <= self.config.max_frame else None
        if packed is not None:
            return self._forward(session, packed, tell=data[2] == Kind.SEND_TELL)
        try:
            message = decode_client_frame(data, self.config.max_frame)
        except EnvelopeError as exc:
            return self.refuse(session, exc.code, exc.text)
        if isinstance(message, Send):
            return self._forward(session, pack_payload(message.payload), tell=message.tell)
        if session.room is not None or session.waiting:
            return self.refuse(session, ErrorCode.ALREADY_JOINED)
        if isinstance(message, Join):
            return self._join(session, message, now)
        if session.created:
            # One create a connection (relay.client.create_room opens one for each): else one
            # connection could re-create a room over and over, each a line and a reply.
            return self.refuse(session, ErrorCode.ALREADY_JOINED, _CREATED_ALREADY)
        session.created = True
        return self._create(session, message, now)

    def receive_control(self, conn: ConnId, now: float) -> list[Output]:
        """A ping or a pong arrived (websockets answered a ping already): it costs a token
        like a message, so that a flood of them is refused as one of messages is."""
        session = self.sessions.get(conn)
        if session is None or session.closing or session.bucket.take(now):
            return []
        return self.refuse(session, ErrorCode.RATE_LIMITED, why="control")

    def receive_too_early(self, conn: ConnId) -> list[Output]:
        """More frames came before the connection was open than the shell holds
        (relay.limits.EARLY_FRAME_COST): more than a burst, before it could send anything."""
        session = self.sessions.get(conn)
        if session is None or session.closing:
            return []
        return self.refuse(session, ErrorCode.RATE_LIMITED, why="early")

    def receive_text(self, conn: ConnId) -> list[Output]:
        session = self.sessions.get(conn)
        if session is None or session.closing:
            return []
        return self.refuse(session, ErrorCode.TEXT_FRAME)

    def receive_fragment(self, conn: ConnId) -> list[Output]:
        """A fragment of a message: an envelope is always one whole binary frame."""
        session = self.sessions.get(conn)
        if session is None or session.closing:
            return []
        text = "An envelope is one binary frame; fragmented messages are refused."
        return self.refuse(session, ErrorCode.BAD_ENVELOPE, text)

    def refused_by_transport(self, conn: ConnId, code: ErrorCode) -> list[Output]:
        """The shell refused without the core: the websocket layer closed on an oversized
        frame, or a member stopped reading and was cut off."""
        self.stats.refusals[code] += 1
        session = self.sessions.get(conn)
        return [Log(conn, "refused", {"code": code, "ip": "" if session is None else session.ip})]

    def closed(self, conn: ConnId, now: float) -> list[Output]:
        """The connection is gone, whoever closed it."""
        session = self.sessions.pop(conn, None)
        if session is None:
            return []
        self.budgets.closed(session.ip)
        out: list[Output] = [Log(conn, "close", {"ip": session.ip})]
        if session.room is None:
            return out
        return [*out, *session.room.depart(self, conn, now)]

    def depart_here(self, room: Room, conn: ConnId, now: float) -> list[Output]:
        """A member of a room held here is gone (:meth:`relay.rooms.Room.depart`)."""
        out: list[Output] = []
        seat = leave(room, conn, now)
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
                out += self.refuse(session, ErrorCode.HANDSHAKE_TIMEOUT)
        for room in list(self.rooms.values()):
            out += self._expire_room(room, now)
        self.budgets.forget_quiet(now)
        return [*out, *self.backplane.due(now)]

    def shutdown(self) -> list[Output]:
        """Tell everyone the relay is going away, so clients reconnect later or elsewhere."""
        notice = Notice(
            NoticeCode.RELAY_RESTARTING,
            "The relay is restarting; reconnect in a moment to resume where you were.",
        )
        return [Transmit(tuple(self.sessions), encode(notice))]

    # --- what a backplane answers (relay.shared_core) ----------------------------------------

    def entered(self, conn: ConnId, result: EnterResult, now: float) -> list[Output]:
        """The backplane decided an :class:`~relay.shared.Enter`."""
        return self.backplane.entered(conn, result, now)

    def brought(self, conn: ConnId, result: BringResult) -> list[Output]:
        """The backplane decided a :class:`~relay.shared.Bring`."""
        return self.backplane.brought(conn, result)

    def delivered(self, room_id: str, events: list[Event], now: float) -> list[Output]:
        """The backplane's reader read these events of a shared room, in order."""
        return self.backplane.delivered(room_id, events, now)

    def lost_backplane(self, reason: str) -> list[Output]:
        """The backplane cannot be reached (:meth:`SharedRooms.lost_backplane
        <relay.shared_core.SharedRooms.lost_backplane>`)."""
        return self.backplane.lost_backplane(reason)

    def let_go(self, room_id: str, holder: str, reason: str) -> list[Output]:
        """The backplane did not number this member's message (:meth:`SharedRooms.let_go
        <relay.shared_core.SharedRooms.let_go>`)."""
        return self.backplane.let_go(room_id, holder, reason)

    def resync(self, room_id: str) -> list[Output]:
        """Every member here of this room reconnects and resumes (:meth:`SharedRooms.resync
        <relay.shared_core.SharedRooms.resync>`)."""
        return self.backplane.resync(room_id)

    def forget_member(self, local: LocalRoom, conn: ConnId) -> None:
        """A member of a shared room is no longer one here (:class:`relay.shared.Host`)."""
        self.backplane.forget_member(local, conn)

    # --- what clients ask ----------------------------------------------------------------

    def _forward(self, session: Session, packed_payload: bytes, *, tell: bool) -> list[Output]:
        """Number a member's payload and hand it to every other member; ``tell``: the sender
        asked to be told the number at once (:attr:`relay.envelope.Send.tell`)."""
        room, seat = session.room, session.seat
        if room is None:
            return self.refuse(session, ErrorCode.NOT_JOINED)
        if seat is None:
            return self.refuse(session, ErrorCode.SPECTATOR_CANNOT_SEND)
        # Numbered here (forward_here), or by the backplane and delivered by its reader.
        return room.forward(self, session.conn, seat.index, packed_payload, tell)

    def forward_here(
        self, room: Room, conn: ConnId, seat: int, packed_payload: bytes, tell: bool
    ) -> list[Output]:
        """Number a payload of a room held here (:meth:`relay.rooms.Room.forward`)."""
        # The hot path: one frame, built once around the payload bytes as they came and kept
        # for resumers (Room.record rather than Room.stamp, to spare a closure per message),
        # handed as the same bytes to every other member. The sender gets no copy: the gap
        # it leaves in the numbers the sender sees next is its place, or a stamped if asked.
        seq = room.next_seq
        frame = room.record(stamp(seq, seat, packed_payload))
        others = room.audience_but(conn)
        out: list[Output] = []
        if others:
            stats = self.stats
            stats.messages_forwarded += len(others)
            stats.bytes_forwarded += len(frame) * len(others)
            out.append(Transmit(others, frame))
        if tell:
            out.append(Transmit((conn,), encode(Stamped(seq))))
        return out

    def _create(self, session: Session, message: Create, now: float) -> list[Output]:
        if not 1 <= message.seats <= self.config.max_seats:
            text = REFUSALS[ErrorCode.BAD_SEATS][1].format(max=self.config.max_seats)
            return self.refuse(session, ErrorCode.BAD_SEATS, text)
        again = message.again
        if again is not None and again.room_id != room_id_for(
            message.seats, again.player_token, again.spectator_token
        ):
            # The proof is the id itself: only tokens that hash to it bring a room back, so
            # knowing a room's id (as a spectator or anyone shown an invite's id does) is not
            # enough to take it over. Checking needs no relay state and tells a failed prover
            # nothing he could not compute himself, so it is not counted as a guess.
            return self.refuse(session, ErrorCode.BAD_TOKEN, _NOT_THIS_ROOM, room=again.room_id)
        # A re-created room (one this relay lost in a restart) keeps its old secrets.
        created = again or new_room(message.seats)
        if self.process is not None:
            session.waiting = True
            return [Bring(session.conn, session.ip, message, created)]
        if (room := self.rooms.get(created.room_id)) is not None:
            # Another member re-created it first: the same secrets get the same answer.
            details: dict[str, str | int] = {
                "room": room.id[:8],
                "seats": room.capacity,
                "ip": session.ip,
            }
            log = Log(session.conn, "recreated", details)
            return [log, Transmit((session.conn,), encode(created))]
        if len(self.rooms) >= self.config.max_rooms:
            return self.refuse(session, ErrorCode.TOO_MANY_ROOMS, why="rooms")
        if not self.budgets.may_create(session.ip):
            text = self.rooms_per_ip_text()
            return self.refuse(session, ErrorCode.TOO_MANY_ROOMS, text, why="address")
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
            recreated=again is not None,
        )
        self.budgets.created(session.ip)
        event = "created" if again is None else "recreated"
        return [
            Log(
                session.conn, event, {"room": room_id[:8], "seats": message.seats, "ip": session.ip}
            ),
            Transmit((session.conn,), encode(created)),
        ]

    def rooms_per_ip_text(self) -> str:
        return (
            f"Your address already holds {self.config.max_rooms_per_ip} rooms on this "
            "relay; finish a game or wait for an empty room to expire."
        )

    def sit(self, session: Session, room_id: str, now: float) -> None:
        """A player took his seat: from now on his sends are paced by the seat's bucket
        (:meth:`relay.budgets.Budgets.sit`)."""
        if session.seat is not None:
            seat = session.seat.index
            session.bucket = self.budgets.sit(room_id, seat, session.bucket, now)

    def _join(self, session: Session, message: Join, now: float) -> list[Output]:
        # Every join costs its address, first: a crowd of joins, even failing ones, each
        # loading a room (from Redis, with a backplane) and replaying it, is refused here.
        if not self.budgets.join(session.ip, now):
            text = "Too many joins from your address; wait a moment and try again."
            return self.refuse(session, ErrorCode.TOO_MANY_CONNECTIONS, text, why="joins")
        if self.process is not None:  # the backplane counts failures, across processes
            name = display_name(message.name)
            if name is None:
                return self.refuse(session, ErrorCode.BAD_NAME)
            session.waiting = True
            holder = self.holder(session.conn)
            return [Enter(session.conn, holder, session.ip, message, name)]
        if self.budgets.throttled(session.ip, now):
            return self.refuse(session, ErrorCode.TOO_MANY_FAILURES)
        # The name before the room, as with a backplane: a bad name's refusal says nothing of
        # whether the room exists (after the lookup it told a live room from an unknown one,
        # uncounted: a free probe).
        name = display_name(message.name)
        if name is None:
            return self.refuse(session, ErrorCode.BAD_NAME)
        room = self.rooms.get(message.room_id)
        if room is None:
            return self._failed_join(session, ErrorCode.UNKNOWN_ROOM, now, message.room_id)
        if not knows(room, message.token):  # before anything the room's state would tell
            return self._failed_join(session, ErrorCode.BAD_TOKEN, now, message.room_id)
        replayable = message.resume_from is not None and can_replay(
            message.resume_from, message.epoch, room.epoch, 0, room.next_seq
        )
        if isinstance(replayable, ErrorCode):
            return self.refuse(session, replayable)
        # The roster and next_seq the newcomer gets describe the room just before its own
        # arrival, which reaches it (and everyone) as the presence event numbered next_seq.
        next_seq = room.next_seq
        reclaimed = room.seat_by_token.get(token_hash(message.token))
        # A reclaim costs a token of the seat's send bucket (sit): with none left it is
        # refused before the seat changes hands, so that a loop of reclaims cannot make the
        # room's members hear a departure and a return each time, past the rate.
        if reclaimed is not None and not self.budgets.may_reclaim(room.id, reclaimed.index, now):
            return self.refuse(session, ErrorCode.RATE_LIMITED, why="reclaim")
        admitted = admit(
            room, message.token, name, session.conn, max_spectators=self.config.max_spectators
        )
        if admitted == ErrorCode.BAD_TOKEN:
            return self._failed_join(session, ErrorCode.BAD_TOKEN, now, message.room_id)
        if isinstance(admitted, ErrorCode):
            return self.refuse(session, admitted)
        out: list[Output] = []
        if isinstance(admitted.replaced, int):
            out += self.drop_replaced(admitted.replaced)
        session.room, session.seat = room, admitted.seat
        self.sit(session, room.id, now)
        replay = None
        if message.resume_from is not None and replayable:
            replay = room.backlog_since(message.resume_from)
        if admitted.seat is None and room.recreated and message.epoch != room.epoch:
            # A spectator new to a re-created room: what it kept starts after the match did
            # (players fill each other in; he is announced, and one of them sends it).
            replay = None
        welcome = self.welcome(admitted, room.capacity, next_seq, room.epoch)
        welcome = replace(welcome, resync=message.resume_from is not None and replay is None)
        out.append(Log(session.conn, "joined", joined(room.id, admitted, session.ip)))
        out.append(Transmit((session.conn,), encode(welcome)))
        out.extend(Transmit((session.conn,), frame) for frame in replay or ())
        self.budgets.charge_replay(session.ip, len(replay or ()), now)
        room.refresh_audience(now)
        if admitted.seat is not None and admitted.event is not None:
            out += self._presence(room, admitted.seat, admitted.event)
        elif welcome.resync:  # a spectator the backlog cannot serve: the players will
            room.watching = room.watching or name
            out += self._announce_watching(room, now)
        return out

    def _announce_watching(self, room: Room, now: float) -> list[Output]:
        """Announce the spectators waiting for the match so far (one ``watching`` event for
        all who came), at most once in relay.limits.WATCHING_EVERY seconds a room."""
        if room.watching is None or now < room.watch_at:
            return []
        name, room.watching = room.watching, None
        room.watch_at = now + WATCHING_EVERY
        return self._stamp_presence(room, WATCHING_SEAT, PresenceEvent.WATCHING, name)

    def welcome(self, admitted: Admitted, capacity: int, next_seq: int, epoch: int) -> Welcome:
        seat = admitted.seat
        return Welcome(
            seat=None if seat is None else seat.index,
            seat_token=admitted.seat_token,
            seats=capacity,
            next_seq=next_seq,
            resync=False,
            members=admitted.roster,
            epoch=epoch,
            rate_per_minute=self._rate_per_minute,
            burst=self.config.burst,
        )

    def _failed_join(
        self, session: Session, code: ErrorCode, now: float, room_id: str
    ) -> list[Output]:
        """Count failures per address, so guessing room ids or tokens stays hopeless."""
        self.budgets.failed(session.ip, now)
        return self.refuse(session, code, room=room_id)

    def drop_replaced(self, old_conn: ConnId | None) -> list[Output]:
        """A player reconnected while its old connection still looked alive: drop the old one
        (if it is one of ours, still open)."""
        old = None if old_conn is None else self.sessions.get(old_conn)
        if old is None:
            return []
        out = [] if old.closing else self.refuse(old, ErrorCode.REPLACED)
        if old.room is not None:
            old.room.drop(self, old.conn)
        old.room = old.seat = None
        return out

    # --- expiry --------------------------------------------------------------------------

    def _expire_room(self, room: Room, now: float) -> list[Output]:
        out: list[Output] = self._announce_watching(room, now)
        for seat in expire_seats(room, now, self.config.seat_grace):
            out.append(Log(None, "seat_expired", {"room": room.id[:8], "seat": seat.index}))
            out += self._presence(room, seat, PresenceEvent.SEAT_EXPIRED)
        if room.empty_since is not None and room.empty_since + self.config.room_idle <= now:
            del self.rooms[room.id]
            self.budgets.expired(room.creator)
            out.append(Log(None, "room_expired", {"room": room.id[:8]}))
        return out

    # --- helpers -------------------------------------------------------------------------

    def _presence(self, room: Room, seat: Seat, event: PresenceEvent) -> list[Output]:
        return self._stamp_presence(room, seat.index, event, seat.name)

    def _stamp_presence(
        self, room: Room, index: int, event: PresenceEvent, name: str
    ) -> list[Output]:
        frame = room.stamp(lambda seq: encode(Presence(seq, index, event, name)))
        return [Transmit(room.audience, frame)] if room.audience else []

    def refuse(
        self,
        session: Session,
        code: ErrorCode,
        text: str | None = None,
        *,
        room: str = "",
        why: str = "",
        at_once: bool = False,
    ) -> list[Output]:
        """Refuse with ``code``; ``room`` is the room id the client named, if any (cut to 8
        characters in the log, like every room id there: enough to find a room, not to join);
        ``why``, for the operator, which limit it met where a code covers several."""
        close_code, default_text = REFUSALS[code]
        self.stats.refusals[code] += 1
        details: dict[str, str | int] = {"code": code, "ip": session.ip}
        if room:
            details["room"] = room[:8]
        if why:
            details["why"] = why
        out: list[Output] = [
            Log(session.conn, "refused", details),
            Transmit((session.conn,), encode(Error(code, text or default_text))),
        ]
        if close_code is not None:
            session.closing = True
            out.append(Close(session.conn, close_code, code, at_once))
        return out
