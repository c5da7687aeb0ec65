"""One client's networked matches, sans-I/O: relay events in, payloads to send and turns out.

:class:`NetMatch` is the meeting in the room and then the match: the host proposes, every
player answers with a signed join, the host seats them (:mod:`client.net.meeting`), and from
then on every game payload goes through this client's :class:`~protocol.session.MatchSession`,
the authority on what happened. Nothing here touches a socket or a clock: the relay link
(:mod:`client.net.link`) feeds it what the relay delivers, with the time, and sends what it
queues in :attr:`NetMatch.outbox`.

Catching up. After a reconnection the link replays what the relay kept; when the relay kept
too little (or restarted and lost the room), the player says :class:`~client.net.wire.Hello`
with how many records it holds, and whoever holds more answers with the missing records as a
:class:`~client.net.wire.Transcript`, every one of them signature-checked again here.
Duplicates (a redelivery, two peers answering) are dropped by the session, so nothing is
shown or logged twice.

Rematches. Once a match is over, each player may ask for another (:class:`~client.net.wire.
Rematch`); when every player has, the host proposes it in the same room, the players join it
as they joined the first, and the new match gets a new session and a new log (the ended
one's stays as it is).
Traffic needs no match label: a player stops talking in a match (game messages, hellos,
transcripts) when he joins the next one, and the host when he proposes it, so in the relay's
one order every message of a match comes before the next one's setup.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from client.game.driver import Offence
from client.game.local import free_log_path
from client.game.turn import Turn
from client.net import wire
from client.net.durable import DeferredSyncLog
from client.net.meeting import Meeting, Refused
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
# The host joins his proposal first, and a rematch seats everyone as before: his seat is 0.
HOST_SEAT = 0


@dataclass(slots=True)
class Member:
    """Someone seated in the relay's room (before or during the match)."""

    relay_seat: int
    name: str
    connected: bool = True
    since: int = 0  # ms: when ``connected`` last changed
    expired: bool = False


class NetMatch:
    """This client's side of a room's networked matches, one after another (a host, a
    player or a spectator): the current one's meeting, session and log."""

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
        self.meeting = Meeting()  # the current match's, or the next one's once it is proposed
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
        self.log_path: Path | None = None  # the current match's log
        self._log_choice = log_path  # --log: the first match's log (the next ones go beside it)
        self._data_dir = data_dir
        self._log: DeferredSyncLog | None = None
        self.chain_secret: bytes | None = None  # every dice chain of this seat comes from it
        self._chain: HashChain | None = None
        self._chain_source: RandomSource | None = None  # draws the chain, then its renewals
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
        # Resumed: the relay replays the room from its start, earlier matches included; what
        # comes before this match's setup is theirs.
        self._before_setup = False
        self.rematch_askers: set[int] = set()  # match seats that asked one of the ended match
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
        data_dir: Path | None = None,
    ) -> NetMatch:
        """This seat back after its program stopped: the match rebuilt from its log (every
        record checked again, ours against our key and chain), the log taken up where its
        good records end. ``ValueError`` says why when the log is not this seat's match."""
        setup = log.setup
        if identity.public_key not in setup.public_keys:
            raise ValueError("the match log is not this seat's match")
        match = cls(role, name, random_source=random_source, identity=identity, data_dir=data_dir)
        match.meeting = Meeting(proposal=setup.proposal)
        match.spectator_token = spectator_token
        match._new_chain(chain_secret)
        assert match._chain is not None
        if match._chain.tip != setup.tips[setup.public_keys.index(identity.public_key)]:
            raise ValueError("the seat's dice chain is not the one committed in the match log")
        match._begin(setup, log_path=log_path, resume_at=log.end)
        assert match.session is not None and match._log is not None
        try:
            match._take(match.session.restore(log.records, now))
        except ProtocolError as error:
            match._log.close()
            raise ValueError(f"the match log does not replay: {error}") from None
        match._cut_turn()
        match.resumed = True
        match._before_setup = True
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
        return tuple(join.name for join in self.meeting.joins)

    @property
    def seats(self) -> int:
        proposal = self.meeting.proposal
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
        self.meeting.proposal = proposal
        self.spectator_token = spectator_token
        self._send(wire.ProposalMsg(proposal.encode(), spectator_token))
        self._join(proposal)

    def _join(self, proposal: Proposal) -> None:
        if self.role == "spectator":
            return
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
        self._before_setup = False  # the relay replayed all it had for us (or nothing)
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
        if self._before_setup:
            self._replayed(relay_seat, payload)
            return
        match payload:
            case wire.Game(data):
                if self.session is None:
                    if not mine:
                        self._offence(relay_seat, "sent game traffic before the match began")
                    return
                if self.session.stopped is None:
                    sender = self._sender(relay_seat)
                    self._take(self.session.receive_bytes(data, now, sender=sender))
            case wire.ProposalMsg(data, token):
                self._proposed(relay_seat, Proposal.decode(data), token)
            case wire.JoinMsg(data):
                self._add_join(relay_seat, Join.decode(data))
            case wire.SetupMsg(data):
                self._start(relay_seat, data)
            case wire.Rematch(match_id):
                self._rematch_asked(relay_seat, match_id, now)
            case wire.Hello(seat, have):
                self._hello(relay_seat, seat, have)
            case wire.Transcript(start, data):
                session = self.session
                if mine or session is None or session.stopped is not None or self.rematching:
                    return
                if start <= len(session.records):
                    sender = self._sender(relay_seat)
                    self._take(session.receive_transcript(data, now, sender=sender))
                else:
                    self._say_hello()  # a gap before it: ask from where we are

    def _sender(self, relay_seat: int) -> int | None:
        """The match seat of the relay member who sent a payload (None: not known), so
        that the session blames a forged message on whoever sent it."""
        if relay_seat == self.my_relay_seat and self.session is not None:
            return self.session.seat
        return self.seat_of_member.get(relay_seat)

    def _replayed(self, relay_seat: int, payload: wire.Payload) -> None:
        """Resumed, the room replayed from its start: until this match's setup goes by, the
        traffic is earlier matches' (only who sits where is worth keeping)."""
        match payload:
            case wire.SetupMsg(data):
                self._before_setup = MatchSetup.decode(data) != self.setup
            case wire.Hello(seat, _):
                self.seat_of_member[relay_seat] = seat

    def _proposed(self, relay_seat: int, proposal: Proposal, token: str) -> None:
        setup = self.setup
        if setup is not None and self.meeting.begun and proposal != setup.proposal:
            if self.seat_of_member.get(relay_seat) != HOST_SEAT:
                self._offence(relay_seat, "proposed a rematch, which only the host does")
                return
            if self.ended is None:
                self._offence(relay_seat, "proposed a rematch before the match ended")
                return
            self.meeting = Meeting(previous=setup)
        try:
            opened = self.meeting.offered(relay_seat, proposal)
        except Refused as refusal:
            self._offence(relay_seat, str(refusal))
            return
        if opened:
            self.spectator_token = token
            self._join(proposal)

    def _add_join(self, relay_seat: int, join: Join) -> None:
        try:
            full = self.meeting.add(relay_seat, join)
        except Refused as refusal:
            self._offence(relay_seat, str(refusal))
            return
        if full and self.role == "host":
            setup = self.meeting.seated()
            self._send(wire.SetupMsg(setup.encode()))
            self._begin(setup)

    def _start(self, relay_seat: int, data: bytes) -> None:
        if self.meeting.begun:
            return
        setup = MatchSetup.decode(data)
        try:
            self.meeting.check(relay_seat, setup)
        except Refused as refusal:
            self._offence(relay_seat, str(refusal))
            return
        self._begin(setup)

    def _begin(
        self, setup: MatchSetup, *, log_path: Path | None = None, resume_at: int | None = None
    ) -> None:
        if self.session is not None:
            self._leave_match()
        self.setup = setup
        self.meeting.begun = True
        self.seat_of_member.update(self.meeting.seats_of_senders(setup))
        keys = setup.public_keys
        mine = self.identity.public_key
        seat = keys.index(mine) if mine in keys and self._chain is not None else None
        self.log_path = log_path or self._new_log_path(setup)
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

    def _new_log_path(self, setup: MatchSetup) -> Path:
        """The first match's log where --log said (if it did); each rematch's beside it."""
        chosen = self._log_choice
        if chosen is None:
            return default_log_path(setup, self._data_dir)
        return chosen if self.session is None else free_log_path(chosen)

    def _leave_match(self) -> None:
        """A rematch begins: the ended match's log is complete (its last chat lines came
        before the new setup), and nothing of it is left to show."""
        assert self.session is not None and self._log is not None
        self.session.flush_log()
        self._log.close()
        self.turns.clear()
        self._events.clear()
        self.offences.clear()
        self.rematch_askers.clear()
        self._hello_have = None
        self.resumed = False
        self._unheard.clear()

    def _hello(self, relay_seat: int, seat: int, have: int) -> None:
        session = self.session
        if session is None or not 0 <= seat < session.setup.seats:
            return
        self.seat_of_member[relay_seat] = seat
        if relay_seat == self.my_relay_seat or self.rematching:
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
        if session is None or session.seat is None or self.rematching:
            return
        have = len(session.records)
        if have != self._hello_have:
            self._hello_have = have
            self._send(wire.Hello(session.seat, have))

    # ----------------------------------------------------------------- the rematch

    @property
    def rematching(self) -> bool:
        """The next match in the room is proposed and its players are joining."""
        return self.setup is not None and self.meeting.previous is self.setup

    def ask_rematch(self, now: int) -> None:
        """This player would like another match with the same players in this room. Every
        player says so to the others (again if asked again: someone away may be back); once
        all of them have, the host proposes it. Nobody is put into a match he did not ask
        for. LocalProtocolError says why not (the match still on, the host or another player
        gone…)."""
        setup, ended = self.setup, self.ended
        if self.seat is None or setup is None:
            raise LocalProtocolError("only the players ask for a rematch")
        if ended is None:
            raise LocalProtocolError("the match is still being played: a rematch comes after it")
        if ended.reason == "stopped":
            raise LocalProtocolError("the match was stopped: there is no rematch after that")
        if self.rematching:
            return
        missing = self._missing()
        if missing is not None:
            raise LocalProtocolError(missing)
        self.rematch_askers.add(self.seat)
        self._send(wire.Rematch(setup.match_id))
        self._propose_when_all_asked(now)
        self._changed()

    def rematch_note(self) -> str | None:
        """Where a rematch stands, in words for the end screen (None: nobody asked)."""
        setup = self.setup
        if setup is None or self.ended is None:
            return None
        host = setup.names[HOST_SEAT]
        missing = self._missing()
        if missing is not None:
            return f"{missing[0].upper()}{missing[1:]}."
        if self.rematching:
            joined = len(self.meeting.joins)
            return f"{host} proposed the rematch: {joined} of {setup.seats} players joined…"
        others = [seat for seat in range(setup.seats) if seat not in self.rematch_askers]
        if self.seat is not None and self.seat in self.rematch_askers:
            if not others:
                return f"Waiting for {host} to start the rematch…"
            waited = ", ".join(setup.names[seat] for seat in others)
            return f"Waiting for {waited} to want a rematch too…"
        if self.rematch_askers:
            askers = ", ".join(setup.names[seat] for seat in sorted(self.rematch_askers))
            return f"{askers} would like a rematch: press a to play again."
        return None

    def _missing(self) -> str | None:
        """Why there can be no rematch now: a player of the match has left the room."""
        assert self.setup is not None
        names = self.setup.names
        away = [
            seat
            for seat in range(self.setup.seats)
            if seat != self.seat
            and ((member := self.member_for_seat(seat)) is None or not member.connected)
        ]
        if HOST_SEAT in away:
            host = names[HOST_SEAT]
            return f"{host}, the host, has left the room: there is no rematch without the host"
        if away:
            gone = ", ".join(names[seat] for seat in away)
            return f"{gone} left the room: a rematch needs every player of the match"
        return None

    def _rematch_asked(self, relay_seat: int, match_id: bytes, now: int) -> None:
        setup, seat = self.setup, self.seat_of_member.get(relay_seat)
        if setup is None or match_id != setup.match_id or seat is None or self.rematching:
            return  # an earlier match's, or already answered
        if self.ended is None:
            self._offence(relay_seat, "asked for a rematch while the match is still being played")
            return
        self.rematch_askers.add(seat)
        self._propose_when_all_asked(now)

    def _propose_when_all_asked(self, now: int) -> None:
        """Host: every player of the match asked, none is gone: the rematch it is."""
        setup, ended = self.setup, self.ended
        if (
            self.role == "host"
            and setup is not None
            and ended is not None
            and ended.reason != "stopped"
            and not self.rematching
            and len(self.rematch_askers) == setup.seats
            and self._missing() is None
        ):
            self._propose_rematch(now)

    def _propose_rematch(self, now: int) -> None:
        """Host: the same match again, between the same players (a new id, fresh chains)."""
        assert self.setup is not None and self.spectator_token is not None
        before = self.setup.proposal
        proposal = Proposal.create(
            before.game,
            dict(before.options),
            seats=before.seats,
            start_time=now,
            random_source=self.random_source,
            time_limit_ms=before.time_limit_ms,
        )
        self.meeting = Meeting(previous=self.setup)
        self.propose(proposal, self.spectator_token)

    # ----------------------------------------------------------------- this seat's actions

    def act(self, action: Callable[[MatchSession], list[Any]]) -> None:
        """Run one of the session's actions (throw, play, chat…) and send what it says."""
        if self.session is None:
            raise LocalProtocolError("the match has not started yet")
        if self.rematching:  # we joined the next match: nothing more is said in this one
            raise LocalProtocolError("the rematch is being set up: its board opens in a moment")
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
        if self.role == "spectator":
            return  # the relay refuses whatever a spectator sends: catch-ups are the players'
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
