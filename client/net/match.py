"""One client's networked matches: relay events in, payloads to send and turns out.

:class:`NetMatch` is the shell around the room's sans-I/O pieces, one match after another:

- :mod:`client.net.roster` — who is in the room, and who sits where;
- :mod:`client.net.meeting` — the host proposes, every player answers with a signed join,
  the host seats them;
- the match itself — every game payload goes through this client's
  :class:`~protocol.session.MatchSession`, the authority on what happened, whose events
  :mod:`client.net.turns` cuts into turns for the screens;
- :mod:`client.net.catchup` — after a gap the relay could not fill, hellos and transcripts;
- :mod:`client.net.spectators` — the match so far for a spectator who came too late for the
  relay to replay it;
- :mod:`client.net.rematch` — the asks for a rematch, the host's proposal, its withdrawal.

The shell owns what those pieces leave out: the match log on disk (a new file per match),
the time (every call says *now*, as the link or the room's ticker read it), and the payloads
queued in :attr:`NetMatch.outbox` for the relay link (:mod:`client.net.link`) to send.

Traffic needs no match label: a player stops talking in a match (game messages, hellos,
transcripts) when he joins the next one, and the host when he proposes it, so in the relay's
one order every message of a match comes before the next one's setup. Chat is the exception:
between two matches a line is said in the ended match (its log takes it), and the receivers
that already moved on take it as the ended match's too.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from client.game.driver import Offence
from client.game.local import free_log_path
from client.game.score import RunningScore
from client.game.turn import Turn
from client.i18n import _
from client.net import wire
from client.net.catchup import CatchUp, Waiting
from client.net.durable import DeferredSyncLog
from client.net.meeting import Meeting
from client.net.meetings import Action, Begin, Blame, JoinIt, Meetings, Send, Standing
from client.net.rematch import HOST_SEAT, RematchVote
from client.net.roster import Member, PresenceChange, Roster
from client.net.seatfile import chain_source
from client.net.spectators import Arrival, Offers, catch_up, misplaced, sender
from client.net.turns import TurnCutter
from protocol.chain import HashChain
from protocol.codec import unpack_transcript
from protocol.errors import BadTime, LocalProtocolError, ProtocolError, RemoteProtocolError
from protocol.events import ChatReceived, Event, MatchEnded
from protocol.identity import KEY_BYTES, Identity, RandomSource
from protocol.logfile import LogContents, default_log_path
from protocol.session import MatchSession
from protocol.setup import Join, MatchSetup, Proposal

Role = Literal["host", "player", "spectator"]
Listener = Callable[[], None]
"""Told that the match changed (and nothing more: read what you show from the match)."""

__all__ = ["HOST_SEAT", "Listener", "Member", "NetMatch", "Role"]


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
        self.roster = Roster(name)
        self.meetings = Meetings(role, self.roster, random_source)
        self.session: MatchSession | None = None
        self.outbox: list[bytes] = []
        self.turns: deque[Turn] = deque()
        self.chats: deque[ChatReceived] = deque()
        self.offences: list[Offence] = []
        self.log_path: Path | None = None  # the current match's log
        self._log_choice = log_path  # --log: the first match's log (the next ones go beside it)
        self._data_dir = data_dir
        self._log: DeferredSyncLog | None = None
        self.chain_secret: bytes | None = None  # every dice chain of this seat comes from it
        # The secret of the current match's chain (a rematch's joined meanwhile is not it):
        # what the seat file keeps.
        self.seat_secret: bytes | None = None
        self._chain: HashChain | None = None
        self._chain_source: RandomSource | None = None  # draws the chain, then its renewals
        self.in_relay_step = False  # the relay replayed what it kept since we (re)connected
        # A seat file can take this seat back: leaving mid-match leaves the log as it is,
        # in the relay's order (what never came back comes back on resuming).
        self.resumable = False
        self._cutter: TurnCutter | None = None
        self.catch_up = CatchUp()
        self.offers = Offers()  # a player's catch-ups for late spectators
        self.arrival: Arrival | None = None  # a late spectator's, until its catch-up came
        self.unfollowed = False  # a late spectator given a false catch-up: he stops there
        self.resumed = False  # rebuilt from a seat file (see resume)
        # Resumed: the relay replays the room from its start, earlier matches included; what
        # comes before this match's setup is theirs.
        self._before_setup = False
        self._listeners: list[Listener] = []
        self.score: RunningScore | None = None  # the room's matches before this one

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
            raise ValueError(_("the match log is not this seat's match"))
        match = cls(role, name, random_source=random_source, identity=identity, data_dir=data_dir)
        match.meetings.meeting = Meeting(proposal=setup.proposal)
        match.meetings.spectator_token = spectator_token
        match._new_chain(chain_secret)
        assert match._chain is not None
        if match._chain.tip != setup.tips[setup.public_keys.index(identity.public_key)]:
            raise ValueError(_("the seat's dice chain is not the one committed in the match log"))
        match._begin(setup, log_path=log_path, resume_at=log.end)
        assert match.session is not None and match._log is not None
        try:
            match._take(match.session.restore(log.records, now))
        except ProtocolError as error:
            match._log.close()
            why = _("the match log does not replay: {error}").format(error=error)
            raise ValueError(why) from None
        match._cut_turn()
        match.resumed = True
        match._before_setup = True
        return match

    # ----------------------------------------------------------------- what the UI reads

    @property
    def seat(self) -> int | None:
        return None if self.session is None else self.session.seat

    @property
    def setup(self) -> MatchSetup | None:
        """The match last begun in the room (the current one, or the one that ended)."""
        return self.meetings.setup

    @property
    def meeting(self) -> Meeting:
        return self.meetings.meeting

    @property
    def spectator_token(self) -> str | None:
        return self.meetings.spectator_token

    @property
    def rematch(self) -> RematchVote | None:
        return self.meetings.vote

    @property
    def rematching(self) -> bool:
        """The next match in the room is proposed and its players are joining."""
        return self.meetings.rematching

    def _standing(self) -> Standing:
        return Standing(self.seat, self.ended)

    @property
    def started(self) -> bool:
        return self.session is not None

    @property
    def in_step(self) -> bool:
        """The relay replayed what it kept and nobody's word is awaited: this seat may act
        (a late spectator: the match so far came)."""
        return self.in_relay_step and self.catch_up.in_step and self.arrival is None

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

    @property
    def members(self) -> dict[int, Member]:
        return self.roster.members

    def member_for_seat(self, seat: int) -> Member | None:
        return self.roster.member_for_seat(seat)

    def who(self, relay_seat: int) -> str:
        """A relay member named for a person: the match's name when we know it."""
        return self.roster.who(relay_seat, None if self.setup is None else self.setup.names)

    def waiting(self) -> Waiting | None:
        """Resumed: whose word this seat waits for before it may act, since when."""
        return self.catch_up.waiting()

    def waiting_note(self, now: int) -> str | None:
        """Resumed and waiting for the others' word: whom for, how long, what can be done
        (a late spectator: for whom to send the match so far)."""
        if self.arrival is not None:  # a late spectator, its catch-up not there yet
            first = self._expected_sender()
            return self.arrival.note(None if first is None else self.who(first), now)
        waiting, setup = self.catch_up.waiting(), self.setup
        if waiting is None or setup is None:
            return None
        return waiting.note(setup.names, setup.proposal.time_limit_ms, now)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call *listener* after every change; returns what unsubscribes it."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    # ----------------------------------------------------------------- the meeting

    def propose(self, proposal: Proposal, spectator_token: str) -> None:
        """Host: offer the match to the room, then join it first."""
        self._carry_out(self.meetings.propose(proposal, spectator_token))

    def _join(self, proposal: Proposal) -> None:
        self._new_chain(self.random_source(KEY_BYTES))
        assert self._chain is not None
        join = Join.create(proposal, self.identity, self.name, self._chain.tip)
        self._send(wire.JoinMsg(join.encode()))

    def _carry_out(self, actions: list[Action]) -> None:
        """Do what the meetings decided, in order."""
        for action in actions:
            match action:
                case Send(payload):
                    self._send(payload)
                case JoinIt(proposal):
                    self._join(proposal)
                case Begin(setup):
                    self._begin(setup)
                case Blame(relay_seat, text):
                    self._offence(relay_seat, text)

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
        self.roster.welcomed(relay_seat, roster, now, fresh=fresh)
        if fresh:
            self.catch_up.renumbered()
        self._changed()

    def caught_up(self, now: int, *, complete: bool = True, announced: bool = False) -> None:
        """The relay replayed all it kept: say how far we are, so peers fill any gap.

        ``complete``: it kept everything since we left (not a resync, not a re-created room).
        When it did not, a seat back from a stopped app cannot know from the relay whether
        its last messages before the stop got out: only the peers can say, so it is in step
        (may act) once every other seat said how far it is. ``announced``: it kept too
        little to replay (a resync), so it announced a spectator to the players, one of
        whom sends him the match so far (a re-created room announces nobody: the players
        fill in each other, and a spectator, with transcripts)."""
        session = self.session
        wait_for: set[int] = set()
        if self.resumed and not self.in_step and not complete and session and not session.ended:
            wait_for = set(range(session.setup.seats)) - {session.seat}
        self.in_relay_step = True
        self._before_setup = False  # the relay replayed all it had for us (or nothing)
        if self.role == "spectator" and announced and self.arrival is None:
            self.arrival = Arrival(now)
        if session is not None and not self.rematching:
            self._send_all(self.catch_up.caught_up(
                session.seat, len(session.records), heard_by=self.roster.connected(),
                wait_for=wait_for, now=now,
            ))  # fmt: skip
        self._changed()

    def presence(self, relay_seat: int, change: PresenceChange, name: str, now: int) -> None:
        self.roster.presence(relay_seat, change, name, now)
        self.catch_up.came(relay_seat)  # its next hello is news: answer it
        arrival = self.arrival
        if arrival is not None and arrival.source == relay_seat and change == "left":
            self._refuse_catch_up(relay_seat, arrival.left(self._held_records()))
        self._changed()

    def spectator_came(self) -> None:
        """The relay announced a spectator it could not replay the match to: the lowest
        connected player sends him the match so far (see :mod:`client.net.spectators`)."""
        session = self.session
        if session is None or session.seat is None:
            return
        me = self.roster.me
        assert me is not None  # seated
        playing = {**self.roster.seat_of_member, me: session.seat}
        chosen = sender(self.roster.connected(), playing) == self.roster.me
        if self.offers.came(chosen=chosen, ready=not self.rematching):
            self._offer()

    def _offer(self) -> None:
        session = self.session
        assert session is not None
        # Only the logged records: our own still on their way take their place in the
        # relay's order, where the spectator receives them too.
        records = session.records[: len(session.records) - session.unlogged()]
        payloads = [wire.encode(p) for p in catch_up(session.setup.encode(), records)]
        self.offers.sent(payloads[0], payloads[-1])
        self.outbox.extend(payloads)

    def receive(self, relay_seat: int, data: bytes, now: int) -> None:
        """One payload from ``relay_seat`` in the room's order (possibly our own, placed)."""
        if self.arrival is not None or self.unfollowed:
            if not self.unfollowed:
                self._arriving(relay_seat, data, now)
            self._changed()
            return
        if relay_seat == self.roster.me and self.offers.placed(data):
            self._offer()  # a spectator came while our last catch-up was being placed
        try:
            payload = wire.decode(data)
        except wire.WireError as error:
            sent = _("sent something that is not Tablier traffic ({error})").format(error=error)
            self._offence(relay_seat, sent)
            return
        try:
            self._dispatch(relay_seat, payload, now)
        except RemoteProtocolError as error:
            self._remote_error(relay_seat, error)
        except LocalProtocolError as error:  # e.g. traffic for a match that was stopped
            self._offence(relay_seat, str(error), fatal=False)
        if self.session is not None:
            self.catch_up.grown(len(self.session.records))
        self._cut_turn()
        self._changed()

    def tick(self, now: int) -> None:
        """The time passed (the room's ticker): a rematch proposal nobody completed is
        withdrawn, a resumed seat nobody answered within the time limit may act."""
        actions = self.meetings.tick(now)
        self._carry_out(actions)
        if actions:
            self._changed()
        waiting, session = self.catch_up.waiting(), self.session
        limit = None if session is None else session.setup.proposal.time_limit_ms
        if waiting is not None and limit is not None and now - waiting.since >= limit:
            self.catch_up.stop_waiting()
            self._changed()

    def _dispatch(self, relay_seat: int, payload: wire.Payload, now: int) -> None:
        mine = relay_seat == self.roster.me
        if self._before_setup:
            self._replayed(relay_seat, payload)
            return
        match payload:
            case wire.Game(data):
                if self.session is None:
                    if not mine:
                        self._offence(relay_seat, _("sent game traffic before the match began"))
                    return
                if self.session.stopped is None:
                    sender = self._sender(relay_seat)
                    self._take(self.session.receive_bytes(data, now, sender=sender))
            case wire.ProposalMsg(data, token):
                proposal, standing = Proposal.decode(data), self._standing()
                self._carry_out(self.meetings.proposed(relay_seat, proposal, token, now, standing))
            case wire.JoinMsg(data):
                self._carry_out(self.meetings.joined(relay_seat, Join.decode(data)))
            case wire.SetupMsg(data):
                self._carry_out(self.meetings.started(relay_seat, data))
            case wire.Rematch(match_id):
                self._carry_out(self.meetings.asked(relay_seat, match_id, now, self._standing()))
            case wire.RematchWithdrawn(match_id):
                self._carry_out(self.meetings.withdrawn(relay_seat, match_id))
            case wire.Hello(seat, have):
                self._hello(relay_seat, seat, have)
            case wire.Spectate(setup) if not mine and self.setup is not None:
                if setup != self.setup.encode():  # (its records we check as transcripts)
                    self._offence(relay_seat, Arrival.another_match())
            case wire.Transcript(start, data):
                session = self.session
                if mine or session is None or session.stopped is not None or self.rematching:
                    return
                if start <= len(session.records):
                    sender = self._sender(relay_seat)
                    self._take(session.receive_transcript(data, now, sender=sender))
                else:  # a gap before it: ask from where we are
                    heard_by = self.roster.connected()
                    self._send_all(self.catch_up.gap(session.seat, len(session.records), heard_by))

    def _sender(self, relay_seat: int) -> int | None:
        """The match seat of the relay member who sent a payload (None: not known), so
        that the session blames a forged message on whoever sent it."""
        if relay_seat == self.roster.me and self.session is not None:
            return self.session.seat
        return self.roster.seat_of_member.get(relay_seat)

    def _replayed(self, relay_seat: int, payload: wire.Payload) -> None:
        """Resumed, the room replayed from its start: until this match's setup goes by, the
        traffic is earlier matches' (only who sits where is worth keeping: a rematch keeps
        the players' keys)."""
        match payload:
            case wire.SetupMsg(data):
                self._before_setup = MatchSetup.decode(data) != self.setup
            case wire.JoinMsg(data) if self.setup is not None:
                key = Join.decode(data).public_key
                if key in self.setup.public_keys:
                    self.roster.seat_of_member[relay_seat] = self.setup.public_keys.index(key)
            case wire.Hello(seat, _) if self.setup is not None and 0 <= seat < self.setup.seats:
                self.roster.seat_of_member[relay_seat] = seat

    def _begin(
        self, setup: MatchSetup, *, log_path: Path | None = None, resume_at: int | None = None
    ) -> None:
        if self.session is not None:
            self._leave_match()
        self.meetings.begun(setup)
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
        self._cutter = TurnCutter(self.session.state)
        self.seat_secret = self.chain_secret if seat is not None else None
        if self.offers.begun() and seat is not None:
            self._offer()  # to a spectator announced while this match was being set up
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
        before = self.score or RunningScore.start(self.session.setup.names)
        self.score = before.after(self.session.ended)
        self.session.flush_log()
        self._log.close()
        self.turns.clear()
        self.offences.clear()
        self.catch_up = CatchUp()
        self.resumed = False

    def _hello(self, relay_seat: int, seat: int, have: int) -> None:
        session = self.session
        if session is None or not 0 <= seat < session.setup.seats:
            return
        self.roster.seat_of_member[relay_seat] = seat
        if relay_seat == self.roster.me or self.rematching:
            return
        answer = self.catch_up.heard(
            relay_seat, seat=seat, have=have, my_seat=session.seat, records=session.records,
            heard_by=self.roster.connected(),
        )  # fmt: skip
        if answer and session.seat is not None:
            # Our messages that wait on one it was missing reach it in no transcript: again
            # (whoever has them drops the copy).
            answer.extend(wire.Game(raw) for raw in session.held(session.seat))
        self._send_all(answer)

    # ----------------------------------------------------------------- a late spectator

    def _arriving(self, relay_seat: int, data: bytes, now: int) -> None:
        """A late spectator, its catch-up not complete: take the catch-up, hold the rest."""
        arrival = self.arrival
        assert arrival is not None
        try:
            payload: wire.Payload | None = wire.decode(data)
        except wire.WireError:
            payload = None  # said when it is taken, in its place
        if arrival.source is None and isinstance(payload, wire.Spectate):
            self._take_offer(relay_seat, payload)
        elif arrival.source == relay_seat and isinstance(payload, wire.Transcript):
            self._take_catch_up(relay_seat, payload, now)
        else:
            held = arrival.hold(relay_seat, data)
            if arrival.source == relay_seat:  # its catch-up is over, short of what it said
                self._refuse_catch_up(relay_seat, arrival.dropped(self._held_records()))
            elif not held:  # the one who should have sent it did not
                expected = self._expected_sender()
                self._refuse_catch_up(relay_seat if expected is None else expected,
                                      arrival.overflow())  # fmt: skip
            return
        if self.arrival is not None and arrival.complete(self._held_records()):
            self._arrived(now)

    def _take_offer(self, relay_seat: int, offer: wire.Spectate) -> None:
        assert self.arrival is not None
        try:
            setup = MatchSetup.decode(offer.setup)
        except ProtocolError as error:
            self._offence(relay_seat, self.arrival.bad_setup(error.reason), fatal=True)
            return
        if setup != self.setup:
            self.meetings.meeting = Meeting(proposal=setup.proposal)
            self._begin(setup)
        self.arrival.take(relay_seat, offer.have)

    def _take_catch_up(self, relay_seat: int, part: wire.Transcript, now: int) -> None:
        """Records of the catch-up we take: each new one checked where it stands first (a
        record out of its place is the sender's doing), then as a live one is."""
        arrival, session = self.arrival, self.session
        assert arrival is not None and session is not None
        if part.start > len(session.records):
            self._refuse_catch_up(relay_seat, arrival.skipped(part.start, len(session.records)))
            return
        try:
            records = unpack_transcript(part.data)
            for index, record in enumerate(records, part.start):
                if index < len(session.records):
                    continue  # held already (an earlier catch-up's)
                if misplaced(session.progress, record):
                    self._refuse_catch_up(relay_seat, arrival.out_of_place(index))
                    return
                self._take(session.receive_bytes(record, now))
        except RemoteProtocolError as error:
            if error.fatal or isinstance(error, BadTime):
                # Signed, at its place, against the rules: its signer's fault; or dated
                # ahead of our clock: one of two clocks is wrong, as it would be live.
                self._remote_error(None, error)
                self._arrived(now)
            else:  # not signed by the seat it names, as it came: the sender's doing
                self._refuse_catch_up(relay_seat, arrival.false(error.reason))
            return
        self._cut_turn()

    def _expected_sender(self) -> int | None:
        """Whom a late spectator expects its catch-up from, and names when none comes: the
        lowest connected relay seat (:func:`~client.net.spectators.sender` when every
        connected seat plays)."""
        return min(self.roster.connected(), default=None)

    def _held_records(self) -> int:
        return 0 if self.session is None else len(self.session.records)

    def _refuse_catch_up(self, relay_seat: int, text: str) -> None:
        """The catch-up is not the match, by its sender's doing: say so, and follow the
        room no further (what came after it could not be checked against the match)."""
        self._offence(relay_seat, text, fatal=True)
        self.arrival = None
        self.unfollowed = True

    def _arrived(self, now: int) -> None:
        """The catch-up came (or cannot): what the room said meanwhile, in its order."""
        assert self.arrival is not None
        held, self.arrival = self.arrival.held, None
        for relay_seat, data in held:
            self.receive(relay_seat, data, now)

    # ----------------------------------------------------------------- the rematch

    def ask_rematch(self, now: int) -> None:
        """Ask for another match with the same players (see :meth:`Meetings.ask`)."""
        self._carry_out(self.meetings.ask(now, self._standing()))
        self._changed()

    def withdraw_rematch(self) -> None:
        """Host: take back the rematch he proposed (see :meth:`Meetings.withdraw`)."""
        self._carry_out(self.meetings.withdraw())
        self._changed()

    def rematch_note(self) -> str | None:
        """Where a rematch stands, in words for the end screen (None: nobody asked)."""
        return self.meetings.note(self._standing())

    # ----------------------------------------------------------------- this seat's actions

    def act(self, action: Callable[[MatchSession], list[Event]]) -> None:
        """Run one of the session's actions (throw, play, chat…) and send what it says."""
        if self.session is None:
            raise LocalProtocolError(_("the match has not started yet"))
        if self.rematching:  # we joined the next match: nothing more is said in this one
            raise LocalProtocolError(_("the rematch is being set up: its board opens in a moment"))
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

    def _send_all(self, payloads: list[wire.Payload]) -> None:
        for payload in payloads:
            self._send(payload)

    def _flush_session(self) -> None:
        if self.session is not None:
            for data in self.session.data_to_send():
                self._send(wire.Game(data))

    def _take(self, events: list[Event]) -> None:
        self._flush_session()
        if self._cutter is not None:
            self._cutter.take(events)
            self.chats.extend(self._cutter.chats)
            self._cutter.chats.clear()

    def _cut_turn(self) -> None:
        """Hand the screens a turn once its dice are known, a play is made, or it ends."""
        if self.session is not None and self._cutter is not None:
            self._cutter.cut(self.session.state)
            self.turns.extend(self._cutter.turns)
            self._cutter.turns.clear()

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
        if session is not None and session.ended is not None and self._cutter is not None:
            self._take([])
            if not self._cutter.has_end():
                self._cutter.take([session.ended])

    def _offence(self, relay_seat: int, text: str, *, fatal: bool = False) -> None:
        self.offences.append(Offence(self.who(relay_seat), text, fatal))

    def notify(self) -> None:
        """Tell the listeners something changed (the link's status or failure, say)."""
        self._changed()

    def forget_listeners(self) -> None:
        """Tell nobody anything more (the room is going away)."""
        self._listeners.clear()

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    def close(self) -> None:
        if self._log is not None:
            session = self.session
            if session is not None and (session.ended is not None or not self.resumable):
                session.flush_log()  # what never came back is logged too
            self._log.close()
