"""The core's side of the rooms a backplane holds: its answers, applied to this process's
members.

With a backplane (:mod:`relay.shared`), :class:`relay.core.RelayCore` asks it for each
create and join, and the shell brings back its answers and the events its reader reads.
:class:`SharedRooms` takes them in, sans-I/O like the core it belongs to: who is welcomed
and with what replay, which members hear an event, who must reconnect and resume because the
stream moved on without him or was numbered anew. It keeps, for each shared room one of this
process's connections is in, a :class:`~relay.shared.LocalRoom`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from relay.envelope import ErrorCode, PresenceEvent, Stamped, encode
from relay.outputs import Close, Log, Output, Transmit, joined
from relay.refusals import CLOSE_SERVICE_RESTART
from relay.rooms import ConnId
from relay.shared import BringResult, Check, EnterResult, Event, Full, Leave, LocalRoom

if TYPE_CHECKING:
    from relay.core import RelayCore


class SharedRooms:
    """The shared rooms this process serves members of (:attr:`RelayCore.shared
    <relay.core.RelayCore.shared>`), and what their backplane answers."""

    def __init__(self, core: RelayCore) -> None:
        self.core = core
        self.rooms: dict[str, LocalRoom] = {}

    def entered(self, conn: ConnId, result: EnterResult, now: float) -> list[Output]:
        """The backplane decided an :class:`~relay.shared.Enter`."""
        session = self.core.sessions.get(conn)
        if session is None or session.closing:
            # It went while the backplane let it in: its closing found no room to leave, so
            # what the room gave it (a seat, a spectator's place) is given back now.
            if isinstance(result, ErrorCode):
                return []
            return [Leave(result.room_id, self.core.holder(conn))]
        session.waiting = False
        if isinstance(result, ErrorCode):
            return self.core.refuse(session, result)
        out: list[Output] = []
        local = self.rooms.get(result.room_id)
        if local is not None and local.epoch != result.epoch:
            out += self.resync(result.room_id)  # the room's numbering started anew meanwhile
            local = None
        if local is None:
            local = LocalRoom(result.room_id, result.epoch, self.core.config.backlog_bytes)
            self.rooms[result.room_id] = local
        admitted = result.admitted
        # The connection his seat replaces (one of ours, still open) goes once he is counted
        # among the room's members here: were it the last, the room would go with it, and
        # with it the events this process keeps for arrivals.
        replaced = self.core.local_conn(admitted.replaced)
        session.room, session.seat = local, admitted.seat
        self.core.sit(session, result.room_id, now)
        welcome = self.core.welcome(admitted, result.capacity, result.next_seq, result.epoch)
        out.append(Log(conn, "joined", joined(result.room_id, admitted, session.ip)))
        out.append(Transmit((conn,), encode(replace(welcome, resync=result.resync))))
        out.extend(Transmit((conn,), frame) for frame in result.events)
        start = result.start + len(result.events)
        caught = local.catch_up(start)
        if caught is None:  # the stream moved on further than this process kept: resume
            closed = Close(conn, CLOSE_SERVICE_RESTART, "resume")
            return [*out, closed, *self.core.drop_replaced(replaced)]
        out.extend(Transmit((conn,), frame) for frame in caught)
        self.core.budgets.charge_replay(session.ip, len(result.events) + len(caught), now)
        local.expects[conn] = start + len(caught)
        if admitted.seat is not None:
            local.seat_of[conn] = admitted.seat.index
        for seat, seconds_ago in result.away:
            local.away[seat] = now + max(0.0, self.core.config.seat_grace - seconds_ago)
        return [*out, *self.core.drop_replaced(replaced)]

    def brought(self, conn: ConnId, result: BringResult) -> list[Output]:
        """The backplane decided a :class:`~relay.shared.Bring`."""
        session = self.core.sessions.get(conn)
        if session is None or session.closing:
            return []
        session.waiting = False
        if isinstance(result, Full):
            text = self.core.rooms_per_ip_text() if result.why == "address" else None
            return self.core.refuse(session, ErrorCode.TOO_MANY_ROOMS, text, why=result.why)
        if isinstance(result, ErrorCode):
            return self.core.refuse(session, result)
        created = result.created
        event = "recreated" if result.again else "created"
        return [
            Log(
                conn, event, {"room": created.room_id[:8], "seats": result.seats, "ip": session.ip}
            ),
            Transmit((conn,), encode(created)),
        ]

    def delivered(self, room_id: str, events: list[Event], now: float) -> list[Output]:
        """The backplane's reader read these events of a shared room, in order."""
        local = self.rooms.get(room_id)
        if local is None:
            return []
        out: list[Output] = []
        expects = local.expects
        for event in events:
            if event.epoch != local.epoch:
                # Its stream was lost and numbered anew (the backplane restarted): what each
                # member saw may be gone, so each resumes, and is told to resync if so.
                return [*out, *self.resync(room_id)]
            local.remember(event.seq, event.frame)
            if event.presence == PresenceEvent.WATCHING:
                sender = None  # news for the players; no seat changed
            elif event.presence is not None:
                # First who no longer holds his seat here (he gets the refusal, not the news).
                out += self._seat_changed(local, event, now)
                if local.id not in self.rooms:
                    break  # its last member here was let go
                sender = None
            else:
                sender = self.core.local_conn(event.holder)
            to, behind = [], []
            for conn, seq in expects.items():
                if seq == event.seq and conn != sender:
                    to.append(conn)
                elif seq < event.seq:
                    behind.append(conn)
            for conn in to:
                expects[conn] = event.seq + 1
            for conn in behind:  # it would miss events (never seen): it resumes instead
                out += self._let_go(local, conn, "resume")
                if local.id not in self.rooms:
                    return out
            if sender is not None and expects.get(sender) == event.seq:
                expects[sender] = event.seq + 1
                asked = local.tells.get(sender)
                if asked and asked.popleft():  # its appends come back in the order it made them
                    out.append(Transmit((sender,), encode(Stamped(event.seq))))
            if to:
                out.append(Transmit(tuple(to), event.frame))
                if event.presence is None:
                    self.core.stats.messages_forwarded += len(to)
                    self.core.stats.bytes_forwarded += len(event.frame) * len(to)
        return out

    def lost_backplane(self, reason: str) -> list[Output]:
        """The backplane cannot be reached: every member of a shared room here reconnects
        later (joins are refused with ``unavailable`` until it is back)."""
        out: list[Output] = [Log(None, "backplane_down", {"reason": reason})]
        for room_id in list(self.rooms):
            out += self.resync(room_id)
        return out

    def let_go(self, room_id: str, holder: str, reason: str) -> list[Output]:
        """The backplane did not number this member's message (``reason``: his seat was let
        go while this process could not hear it, or Redis refused or cannot be reached): he
        reconnects (1012) and resumes, and his app sends again what was not numbered. The
        backplane hears that he left, so that a seat he no longer comes back to expires."""
        local = self.rooms.get(room_id)
        conn = self.core.local_conn(holder)
        if local is None or conn is None or conn not in local.expects:
            return []  # gone already
        log = Log(conn, "let_go", {"room": room_id[:8], "reason": reason})
        return [log, *self._let_go(local, conn, reason), Leave(room_id, holder)]

    def resync(self, room_id: str) -> list[Output]:
        """Every member here of this room reconnects (close 1012) and resumes, because the
        backplane may have lost events they saw; the room is forgotten here until then."""
        local = self.rooms.pop(room_id, None)
        if local is None:
            return []
        out: list[Output] = [Log(None, "resync", {"room": room_id[:8]})]
        for conn in list(local.expects):
            session = self.core.sessions.get(conn)
            if session is not None and not session.closing:
                session.closing = True
                session.room = session.seat = None
                out.append(Close(conn, CLOSE_SERVICE_RESTART, "resync"))
        return out

    def forget_member(self, local: LocalRoom, conn: ConnId) -> None:
        """A member of a shared room is no longer one here (:class:`relay.shared.Host`)."""
        local.expects.pop(conn, None)
        local.seat_of.pop(conn, None)
        local.tells.pop(conn, None)
        if not local.expects:  # nobody here is in it any more: the reader lets it go
            del self.rooms[local.id]

    def _seat_changed(self, local: LocalRoom, event: Event, now: float) -> list[Output]:
        """A presence event of a shared room: note which seats are away (to ask when they
        expire), and drop a member of ours that no longer holds the seat it holds here."""
        if event.presence == PresenceEvent.LEFT:
            local.away[event.seat] = now + self.core.config.seat_grace
        else:
            local.away.pop(event.seat, None)
        out: list[Output] = []
        for conn, index in list(local.seat_of.items()):
            if index != event.seat:
                continue
            arrived = event.presence in (PresenceEvent.JOINED, PresenceEvent.RECONNECTED)
            if arrived and event.holder == self.core.holder(conn):
                continue  # its own arrival
            if event.presence == PresenceEvent.RECONNECTED:
                out += self.core.drop_replaced(conn)  # its player came back through another process
            else:  # let go while still here (this process's lease lapsed): it reconnects
                out += self._let_go(local, conn, "seat_lost")
        return out

    def _let_go(self, local: LocalRoom, conn: ConnId, reason: str) -> list[Output]:
        """Close a member with 1012: it reconnects and resumes (or resyncs) by itself."""
        self.forget_member(local, conn)
        session = self.core.sessions.get(conn)
        if session is None or session.closing:
            return []
        session.room = session.seat = None
        session.closing = True
        return [Close(conn, CLOSE_SERVICE_RESTART, reason)]

    def due(self, now: float) -> list[Output]:
        """Ask the backplane about the seats away long enough to have expired."""
        out: list[Output] = []
        for local in self.rooms.values():
            due = [seat for seat, at in local.away.items() if at <= now]
            for seat in due:  # asked again each second until the seat expires or is taken
                local.away[seat] = now + 1.0
            if due:
                out.append(Check(local.id))
        return out
