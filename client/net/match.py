"""One client's networked match, sans-I/O: relay events in, payloads to send and turns out.

:class:`NetMatch` is the meeting in the room and then the match: the host proposes, every
player answers with a signed join, the host seats them (:mod:`protocol.setup`), and from then
on every game payload goes through this client's :class:`~protocol.session.MatchSession`,
the authority on what happened. Nothing here touches a socket or a clock: the relay link
(:mod:`client.net.link`) feeds it what the relay delivers, with the time, and sends what it
queues in :attr:`NetMatch.outbox`.

Catching up. After a reconnection the link replays what the relay kept; when the relay kept
too little (or restarted and lost the room), the player says :class:`~client.net.wire.Hello`
with how many records it holds, and whoever holds more answers with the missing records as a
:class:`~client.net.wire.Transcript`, every one of them signature-checked again here.
Duplicates (a redelivery, two peers answering) are dropped by the session, so nothing is
shown or logged twice.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from client.local_game import Turn
from client.net import wire
from client.net.durable import DeferredSyncLog
from client.net.seatfile import chain_source
from protocol.chain import HashChain
from protocol.codec import pack
from protocol.errors import LocalProtocolError, ProtocolError, RemoteProtocolError
from protocol.events import ChatReceived, DiceRolled, Ignored, MatchEnded, PlayMade
from protocol.identity import KEY_BYTES, Identity, RandomSource
from protocol.logfile import LogContents, default_log_path
from protocol.session import MatchSession
from protocol.setup import Join, MatchSetup, Proposal

Role = Literal["host", "player", "spectator"]


@dataclass(slots=True)
class Member:
    """Someone seated in the relay's room (before or during the match)."""

    relay_seat: int
    name: str
    connected: bool = True
    since: int = 0  # ms: when ``connected`` last changed
    expired: bool = False


@dataclass(frozen=True, slots=True)
class Offence:
    """Something a peer did wrong, in words naming them; ``fatal`` when it stopped the match."""

    who: str
    text: str
    fatal: bool


@dataclass(slots=True)
class Lobby:
    """The meeting before the match: the proposal and the joins, in the order they came."""

    proposal: Proposal | None = None
    proposer: int | None = None  # relay seat that sent the proposal (the host)
    joins: list[Join] = field(default_factory=list)
    join_senders: list[int] = field(default_factory=list)


class NetMatch:
    """This client's side of one networked match (a host, a player or a spectator)."""

    def __init__(
        self,
        role: Role,
        name: str,
        *,
        random_source: RandomSource,
        identity: Identity | None = None,
        log_path: Path | None = None,
        data_dir: Path | None = None,
    ) -> None:
        self.role = role
        self.name = name
        self.random_source = random_source
        self.identity = identity or Identity.generate(random_source)
        self.lobby = Lobby()
        self.members: dict[int, Member] = {}
        self.seat_of_member: dict[int, int] = {}  # relay seat -> match seat
        self.my_relay_seat: int | None = None
        self.setup: MatchSetup | None = None
        self.session: MatchSession | None = None
        self.spectator_token: str | None = None
        self.outbox: list[bytes] = []
        self.turns: deque[Turn] = deque()
        self.chats: deque[ChatReceived] = deque()
        self.offences: list[Offence] = []
        self.log_path = log_path
        self._data_dir = data_dir
        self._log: DeferredSyncLog | None = None
        self.chain_secret: bytes | None = None  # every dice chain of this seat comes from it
        self._chain: HashChain | None = None
        self._chain_source: RandomSource | None = None  # draws the chain, then its renewals
        self._joined = False
        self.in_step = False  # the relay replayed what it kept since we (re)connected
        # A seat file can take this seat back: leaving mid-match leaves the log as it is,
        # in the relay's order (what never came back comes back on resuming).
        self.resumable = False
        self._events: list[Any] = []
        self._shown: Any = None  # the state the last cut turn ended on
        self._hello_have: int | None = None
        self._answered: set[int] = set()  # relay seats whose hello we answered since they came
        self.resumed = False  # rebuilt from a seat file (see resume)
        self._unheard: set[int] = set()  # resumed: seats yet to say where they stand
        self.listeners: list[Callable[[], None]] = []

    @classmethod
    def resume(
        cls,
        role: Role,
        name: str,
        *,
        identity: Identity,
        chain_secret: bytes,
        spectator_token: str,
        log: LogContents,
        log_path: Path,
        random_source: RandomSource,
        now: int,
    ) -> NetMatch:
        """This seat back after its program stopped: the match rebuilt from its log (every
        record checked again, ours against our key and chain), the log taken up where its
        good records end. ``ValueError`` says why when the log is not this seat's match."""
        setup = log.setup
        if identity.public_key not in setup.public_keys:
            raise ValueError("the match log is not this seat's match")
        match = cls(role, name, random_source=random_source, identity=identity, log_path=log_path)
        match.lobby.proposal = setup.proposal
        match.spectator_token = spectator_token
        match._joined = True
        match._new_chain(chain_secret)
        assert match._chain is not None
        if match._chain.tip != setup.tips[setup.public_keys.index(identity.public_key)]:
            raise ValueError("the seat's dice chain is not the one committed in the match log")
        match._begin(setup, resume_at=log.end)
        assert match.session is not None and match._log is not None
        try:
            match._take(match.session.restore(log.records, now))
        except ProtocolError as error:
            match._log.close()
            raise ValueError(f"the match log does not replay: {error}") from None
        match._cut_turn()
        match.resumed = True
        return match

    # ----------------------------------------------------------------- what the UI reads

    @property
    def seat(self) -> int | None:
        return None if self.session is None else self.session.seat

    @property
    def started(self) -> bool:
        return self.session is not None

    @property
    def names(self) -> tuple[str, ...]:
        if self.setup is not None:
            return self.setup.names
        return tuple(join.name for join in self.lobby.joins)

    @property
    def seats(self) -> int:
        proposal = self.lobby.proposal
        return 0 if proposal is None else proposal.seats

    @property
    def ended(self) -> MatchEnded | None:
        return None if self.session is None else self.session.ended

    def member_for_seat(self, seat: int) -> Member | None:
        for relay_seat, match_seat in self.seat_of_member.items():
            if match_seat == seat and relay_seat in self.members:
                return self.members[relay_seat]
        return None

    def who(self, relay_seat: int) -> str:
        """A relay member named for a person: the match's name when we know it."""
        seat = self.seat_of_member.get(relay_seat)
        if seat is not None and self.setup is not None:
            return self.setup.names[seat]
        member = self.members.get(relay_seat)
        return member.name if member else f"the player in seat {relay_seat + 1}"

    # ----------------------------------------------------------------- the meeting

    def propose(self, proposal: Proposal, spectator_token: str) -> None:
        """Host: offer the match to the room, then join it first."""
        self.lobby.proposal = proposal
        self.spectator_token = spectator_token
        self._send(wire.ProposalMsg(proposal.encode(), spectator_token))
        self._join_proposal(proposal)

    def _join_proposal(self, proposal: Proposal) -> None:
        if self._joined or self.role == "spectator":
            return
        self._joined = True
        self._new_chain(self.random_source(KEY_BYTES))
        assert self._chain is not None
        join = Join.create(proposal, self.identity, self.name, self._chain.tip)
        self._send(wire.JoinMsg(join.encode()))

    def _new_chain(self, secret: bytes) -> None:
        """This seat's chain, from a secret the seat file keeps (renewals come from it too)."""
        self.chain_secret = secret
        self._chain_source = chain_source(secret)
        self._chain = HashChain.generate(self._chain_source)

    # ----------------------------------------------------------------- relay events in

    def welcomed(
        self,
        relay_seat: int | None,
        roster: list[tuple[int, str, bool]],
        now: int,
        *,
        fresh: bool = False,
    ) -> None:
        """The relay let us in (again): who is there. ``fresh``: a re-created room, whose
        seats are numbered anew (each player's hello says who is who again)."""
        self.my_relay_seat = relay_seat
        if fresh:
            self.seat_of_member.clear()
            self._answered.clear()
        self.members = {
            seat: Member(seat, name, connected, now) for seat, name, connected in roster
        }
        if relay_seat is not None:
            self.members[relay_seat] = Member(relay_seat, self.name, True, now)
        self._changed()

    def caught_up(self, *, complete: bool = True) -> None:
        """The relay replayed all it kept: say how far we are, so peers fill any gap.

        ``complete``: it kept everything since we left (not a resync, not a re-created room).
        When it did not, a seat back from a stopped app cannot know from the relay whether
        its last messages before the stop got out: only the peers can say, so it is in step
        (may act) once every other seat said how far it is."""
        session = self.session
        if self.resumed and not self.in_step and not complete and session and not session.ended:
            self._unheard = set(range(session.setup.seats)) - {session.seat}
        self.in_step = not self._unheard
        self._hello_have = None
        self._say_hello()
        self._changed()

    def presence(self, relay_seat: int, event: str, name: str, now: int) -> None:
        """``event`` is joined, left, reconnected or expired."""
        member = self.members.get(relay_seat)
        if member is None or event == "joined":
            member = self.members[relay_seat] = Member(relay_seat, name, True, now)
        member.connected = event in ("joined", "reconnected")
        self._answered.discard(relay_seat)  # its next hello is news: answer it
        member.expired = event == "expired"
        member.since = now
        self._changed()

    def receive(self, relay_seat: int, data: bytes, now: int) -> None:
        """One payload from ``relay_seat`` in the room's order (possibly our own, placed)."""
        try:
            payload = wire.decode(data)
        except wire.WireError as error:
            self._offence(relay_seat, f"sent something that is not Tablier traffic ({error})")
            return
        try:
            self._dispatch(relay_seat, payload, now)
        except RemoteProtocolError as error:
            self._remote_error(relay_seat, error)
        except LocalProtocolError as error:  # e.g. traffic for a match that was stopped
            self._offence(relay_seat, str(error), fatal=False)
        self._cut_turn()
        self._changed()

    def _dispatch(self, relay_seat: int, payload: wire.Payload, now: int) -> None:
        mine = relay_seat == self.my_relay_seat
        match payload:
            case wire.Game(data):
                if self.session is None:
                    if not mine:
                        self._offence(relay_seat, "sent game traffic before the match began")
                    return
                if self.session.stopped is None:
                    self._take(self.session.receive_bytes(data, now))
            case wire.ProposalMsg(data, token):
                if self.lobby.proposal is None:
                    self.lobby.proposal = Proposal.decode(data)
                    self.lobby.proposer = relay_seat
                    self.spectator_token = token
                    self._join_proposal(self.lobby.proposal)
                elif self.lobby.proposer is None:
                    self.lobby.proposer = relay_seat  # our own proposal, in its place
            case wire.JoinMsg(data):
                self._add_join(relay_seat, data)
            case wire.SetupMsg(data):
                self._start(relay_seat, data)
            case wire.Hello(seat, have):
                self._hello(relay_seat, seat, have)
            case wire.Transcript(start, data):
                session = self.session
                if mine or session is None or session.stopped is not None:
                    return
                if start <= len(session.records):
                    self._take(session.receive_transcript(data, now))
                else:
                    self._say_hello()  # a gap before it: ask from where we are

    def _add_join(self, relay_seat: int, data: bytes) -> None:
        proposal = self.lobby.proposal
        if proposal is None or self.setup is not None:
            return
        join = Join.decode(data)
        join.check(proposal)
        if any(known.public_key == join.public_key for known in self.lobby.joins):
            return  # a resend after a reconnection
        if len(self.lobby.joins) >= proposal.seats:
            return
        self.lobby.joins.append(join)
        self.lobby.join_senders.append(relay_seat)
        if self.role == "host" and len(self.lobby.joins) == proposal.seats:
            setup = MatchSetup.create(proposal, self.lobby.joins)
            self._send(wire.SetupMsg(setup.encode()))
            self._begin(setup)

    def _start(self, relay_seat: int, data: bytes) -> None:
        if self.setup is not None:
            return
        if relay_seat != self.lobby.proposer:
            self._offence(relay_seat, "tried to start a match it did not propose")
            return
        setup = MatchSetup.decode(data)
        if setup.proposal != self.lobby.proposal:
            self._offence(relay_seat, "started a different match from the one proposed")
            return
        self._begin(setup)

    def _begin(self, setup: MatchSetup, *, resume_at: int | None = None) -> None:
        self.setup = setup
        keys = setup.public_keys
        for sender, join in zip(self.lobby.join_senders, setup.joins, strict=False):
            self.seat_of_member[sender] = keys.index(join.public_key)
        mine = self.identity.public_key
        seat = keys.index(mine) if mine in keys and self._chain is not None else None
        if self.log_path is None:
            self.log_path = default_log_path(setup, self._data_dir)
        self._log = DeferredSyncLog(self.log_path, setup, resume_at=resume_at)
        self.session = MatchSession(
            setup,
            seat=seat,
            identity=self.identity if seat is not None else None,
            chain=self._chain if seat is not None else None,
            random_source=self._chain_source,  # renewals: the same again after a restart
            log=self._log,
            echoed=True,  # our messages come back in the relay's order: the log follows it
        )
        self._shown = self.session.state
        self._changed()

    def _hello(self, relay_seat: int, seat: int, have: int) -> None:
        session = self.session
        if session is None or not 0 <= seat < session.setup.seats:
            return
        self.seat_of_member[relay_seat] = seat
        if relay_seat == self.my_relay_seat:
            return
        mine = len(session.records)
        if have < mine:
            self._send_transcript(have)
        if have <= mine and seat in self._unheard:
            self._unheard.discard(seat)
            self.in_step = not self._unheard
        if relay_seat not in self._answered:
            # Once each time it comes: a seat back from a stopped app waits to hear how far
            # every other seat is before it may act.
            self._answered.add(relay_seat)
            self._hello_have = None
            self._say_hello()
        elif have > mine:
            self._say_hello()  # ask for what we lack

    def _send_transcript(self, start: int) -> None:
        assert self.session is not None
        records = self.session.records
        while start < len(records):
            end, size = start, 0
            while end < len(records) and (
                end == start or size + len(records[end]) + 8 < wire.TRANSCRIPT_CHUNK
            ):
                size += len(records[end]) + 8
                end += 1
            self._send(wire.Transcript(start, pack(records[start:end])))
            start = end

    def _say_hello(self) -> None:
        session = self.session
        if session is None or session.seat is None:
            return
        have = len(session.records)
        if have != self._hello_have:
            self._hello_have = have
            self._send(wire.Hello(session.seat, have))

    # ----------------------------------------------------------------- this seat's actions

    def act(self, action: Callable[[MatchSession], list[Any]]) -> None:
        """Run one of the session's actions (throw, play, chat…) and send what it says."""
        if self.session is None:
            raise LocalProtocolError("the match has not started yet")
        try:
            events = action(self.session)
        except RemoteProtocolError as error:  # a peer's earlier fault surfaced by our move
            self._remote_error(None, error)
            return
        finally:
            self._flush_session()
        self._take(events)
        self._cut_turn()
        self._changed()

    # ----------------------------------------------------------------- internals

    def _send(self, payload: wire.Payload) -> None:
        self.outbox.append(wire.encode(payload))

    def _flush_session(self) -> None:
        if self.session is not None:
            for data in self.session.data_to_send():
                self._send(wire.Game(data))

    def _take(self, events: list[Any]) -> None:
        self._flush_session()
        for event in events:
            if isinstance(event, ChatReceived):
                self.chats.append(event)
            elif not isinstance(event, Ignored):
                self._events.append(event)

    def _cut_turn(self) -> None:
        """Hand the screens a turn once its dice are known, a play is made, or it ends."""
        session = self.session
        if session is None or not self._events:
            return
        anchors = [e for e in self._events if isinstance(e, DiceRolled | PlayMade | MatchEnded)]
        if not anchors:
            return
        seat = next((e.seat for e in anchors if isinstance(e, DiceRolled | PlayMade)), None)
        if seat is None:
            seat = anchors[0].seat if isinstance(anchors[0].seat, int) else 0
        events, self._events = tuple(self._events), []
        before, self._shown = self._shown, session.state
        self.turns.append(Turn(seat, before, session.state, events))

    def _remote_error(self, relay_seat: int | None, error: ProtocolError) -> None:
        session = self.session
        if error.seat is not None and session is not None:
            who = session.setup.names[error.seat]
        elif relay_seat is not None:
            who = self.who(relay_seat)
        else:
            who = "a peer"
        stopped = session is not None and session.stopped is not None
        self.offences.append(Offence(who, error.reason, fatal=stopped))
        if session is not None and session.ended is not None:
            self._take([])
            if not any(isinstance(e, MatchEnded) for e in self._events):
                self._events.append(session.ended)

    def _offence(self, relay_seat: int, text: str, *, fatal: bool = False) -> None:
        self.offences.append(Offence(self.who(relay_seat), text, fatal))

    def notify(self) -> None:
        """Tell the listeners something changed (the link's failure, say)."""
        self._changed()

    def _changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    def close(self) -> None:
        if self._log is not None:
            session = self.session
            if session is not None and (session.ended is not None or not self.resumable):
                session.flush_log()  # what never came back is logged too
            self._log.close()
