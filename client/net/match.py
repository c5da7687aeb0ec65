"""One client's networked matches: relay events in, payloads to send and turns out.

:class:`NetMatch` is the shell around the room's sans-I/O pieces, one match after another:

- :mod:`client.net.roster` — who is in the room, and who sits where;
- :mod:`client.net.meeting` — the host proposes, every player answers with a signed join,
  the host seats them;
- the match itself — every game payload goes through this client's
  :class:`~protocol.session.MatchSession`, the authority on what happened, whose events
  :mod:`client.net.turns` cuts into turns for the screens;
- :mod:`client.net.catchup` — after a gap the relay could not fill, hellos and transcripts;
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
from client.game.turn import Turn
from client.net import wire
from client.net.catchup import CatchUp, Waiting
from client.net.durable import DeferredSyncLog
from client.net.meeting import Meeting, Refused
from client.net.rematch import HOST_SEAT, RematchVote
from client.net.roster import Member, PresenceChange, Roster
from client.net.seatfile import chain_source
from client.net.turns import TurnCutter
from protocol.chain import HashChain
from protocol.clock import seconds
from protocol.errors import LocalProtocolError, ProtocolError, RemoteProtocolError
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
        self.meeting = Meeting()  # the current match's, or the next one's once it is proposed
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
        self.in_relay_step = False  # the relay replayed what it kept since we (re)connected
        # A seat file can take this seat back: leaving mid-match leaves the log as it is,
        # in the relay's order (what never came back comes back on resuming).
        self.resumable = False
        self._cutter: TurnCutter | None = None
        self.catch_up = CatchUp()
        self.resumed = False  # rebuilt from a seat file (see resume)
        # Resumed: the relay replays the room from its start, earlier matches included; what
        # comes before this match's setup is theirs.
        self._before_setup = False
        self.rematch: RematchVote | None = None  # once the match ended
        self._ended_meeting: Meeting | None = None  # back to it when a rematch is withdrawn
        self._listeners: list[Listener] = []

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
    def in_step(self) -> bool:
        """The relay replayed what it kept and nobody's word is awaited: this seat may act."""
        return self.in_relay_step and self.catch_up.in_step

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
        """Resumed and waiting for the others' word: whom for, how long, what can be done."""
        waiting, setup = self.catch_up.waiting(), self.setup
        if waiting is None or setup is None:
            return None
        names = ", ".join(setup.names[seat] for seat in waiting.seats)
        waited = now - waiting.since
        left = setup.proposal.time_limit_ms - waited
        return (
            f"Back in your seat: waiting for {names} to say how far the match went "
            f"(for {seconds(waited)}), so that nothing you sent before stopping is said "
            f"twice. Wait, or leave with esc (your seat is kept); if nobody answers within "
            f"{seconds(left)}, the board opens and you can claim the match."
        )

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
        self.roster.welcomed(relay_seat, roster, now, fresh=fresh)
        if fresh:
            self.catch_up.renumbered()
        self._changed()

    def caught_up(self, now: int, *, complete: bool = True) -> None:
        """The relay replayed all it kept: say how far we are, so peers fill any gap.

        ``complete``: it kept everything since we left (not a resync, not a re-created room).
        When it did not, a seat back from a stopped app cannot know from the relay whether
        its last messages before the stop got out: only the peers can say, so it is in step
        (may act) once every other seat said how far it is."""
        session = self.session
        wait_for: set[int] = set()
        if self.resumed and not self.in_step and not complete and session and not session.ended:
            wait_for = set(range(session.setup.seats)) - {session.seat}
        self.in_relay_step = True
        self._before_setup = False  # the relay replayed all it had for us (or nothing)
        if session is not None and not self.rematching:
            self._send_all(self.catch_up.caught_up(
                session.seat, len(session.records), heard_by=self.roster.connected(),
                wait_for=wait_for, now=now,
            ))  # fmt: skip
        self._changed()

    def presence(self, relay_seat: int, change: PresenceChange, name: str, now: int) -> None:
        self.roster.presence(relay_seat, change, name, now)
        self.catch_up.came(relay_seat)  # its next hello is news: answer it
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

    def tick(self, now: int) -> None:
        """The time passed (the room's ticker): a rematch proposal nobody completed is
        withdrawn, a resumed seat nobody answered within the time limit may act."""
        vote = self.rematch
        if self.role == "host" and self.rematching and vote is not None and vote.expired(now):
            self.withdraw_rematch()
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
                        self._offence(relay_seat, "sent game traffic before the match began")
                    return
                if self.session.stopped is None:
                    sender = self._sender(relay_seat)
                    self._take(self.session.receive_bytes(data, now, sender=sender))
            case wire.ProposalMsg(data, token):
                self._proposed(relay_seat, Proposal.decode(data), token, now)
            case wire.JoinMsg(data):
                self._add_join(relay_seat, Join.decode(data))
            case wire.SetupMsg(data):
                self._start(relay_seat, data)
            case wire.Rematch(match_id):
                self._rematch_asked(relay_seat, match_id, now)
            case wire.RematchWithdrawn(match_id):
                self._withdrawn(relay_seat, match_id)
            case wire.Hello(seat, have):
                self._hello(relay_seat, seat, have)
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
        traffic is earlier matches' (only who sits where is worth keeping)."""
        match payload:
            case wire.SetupMsg(data):
                self._before_setup = MatchSetup.decode(data) != self.setup
            case wire.Hello(seat, _) if self.setup is not None and 0 <= seat < self.setup.seats:
                self.roster.seat_of_member[relay_seat] = seat

    def _proposed(self, relay_seat: int, proposal: Proposal, token: str, now: int) -> None:
        setup = self.setup
        if setup is not None and self.meeting.begun and proposal != setup.proposal:
            if self.roster.seat_of_member.get(relay_seat) != HOST_SEAT:
                self._offence(relay_seat, "proposed a rematch, which only the host does")
                return
            if self.ended is None:
                self._offence(relay_seat, "proposed a rematch before the match ended")
                return
            self._ended_meeting = self.meeting
            self.meeting = Meeting(previous=setup)
        try:
            opened = self.meeting.offered(relay_seat, proposal)
        except Refused as refusal:
            if self._ended_meeting is not None:
                self.meeting, self._ended_meeting = self._ended_meeting, None
            self._offence(relay_seat, str(refusal))
            return
        if opened:
            self.spectator_token = token
            if self.rematch is not None:
                self.rematch.proposed(now)
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
        self.roster.seat_of_member.update(self.meeting.seats_of_senders(setup))
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
        self.offences.clear()
        self.rematch = None
        self._ended_meeting = None
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

    # ----------------------------------------------------------------- the rematch

    @property
    def rematching(self) -> bool:
        """The next match in the room is proposed and its players are joining."""
        return self.setup is not None and self.meeting.previous is self.setup

    def _away(self) -> list[int]:
        """The match's other players not in the room now."""
        assert self.setup is not None
        return [s for s in range(self.setup.seats) if s != self.seat and not self.roster.here(s)]

    def _vote(self) -> RematchVote:
        assert self.setup is not None
        if self.rematch is None:
            self.rematch = RematchVote(self.setup.names)
        return self.rematch

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
        vote = self._vote()
        missing = vote.missing(self._away())
        if missing is not None:
            raise LocalProtocolError(missing)
        vote.ask(self.seat)
        self._send(wire.Rematch(setup.match_id))
        self._propose_when_all_asked(now)
        self._changed()

    def withdraw_rematch(self) -> None:
        """Host: the rematch he proposed is off (a player left, say); everyone is back
        between the two matches. LocalProtocolError when there is none to withdraw."""
        if self.role != "host" or not self.rematching or self.setup is None:
            raise LocalProtocolError("only the host withdraws the rematch he proposed")
        self._send(wire.RematchWithdrawn(self.setup.match_id))
        self._back_between_matches()

    def _withdrawn(self, relay_seat: int, match_id: bytes) -> None:
        if relay_seat == self.roster.me or self.setup is None or match_id != self.setup.match_id:
            return  # ours, done when sent; or an earlier match's
        if self.roster.seat_of_member.get(relay_seat) != HOST_SEAT:
            self._offence(relay_seat, "withdrew a rematch, which only the host does")
            return
        if self.rematching:
            self._back_between_matches()

    def _back_between_matches(self) -> None:
        assert self._ended_meeting is not None
        self.meeting, self._ended_meeting = self._ended_meeting, None
        self._vote().withdraw()
        self._changed()

    def rematch_note(self) -> str | None:
        """Where a rematch stands, in words for the end screen (None: nobody asked)."""
        if self.setup is None or self.ended is None:
            return None
        joined = len(self.meeting.joins) if self.rematching else None
        return self._vote().note(my_seat=self.seat, away=self._away(), joined=joined)

    def _rematch_asked(self, relay_seat: int, match_id: bytes, now: int) -> None:
        setup, seat = self.setup, self.roster.seat_of_member.get(relay_seat)
        if setup is None or match_id != setup.match_id or seat is None or self.rematching:
            return  # an earlier match's, or already answered
        if self.ended is None:
            self._offence(relay_seat, "asked for a rematch while the match is still being played")
            return
        self._vote().ask(seat)
        self._propose_when_all_asked(now)

    def _propose_when_all_asked(self, now: int) -> None:
        """Host: every player of the match asked, none is gone: the rematch it is."""
        setup, ended, vote = self.setup, self.ended, self.rematch
        if (
            self.role == "host"
            and setup is not None
            and ended is not None
            and ended.reason != "stopped"
            and not self.rematching
            and vote is not None
            and vote.all_asked
            and not self._away()
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
        self._ended_meeting = self.meeting
        self.meeting = Meeting(previous=self.setup)
        self._vote().proposed(now)
        self.propose(proposal, self.spectator_token)

    # ----------------------------------------------------------------- this seat's actions

    def act(self, action: Callable[[MatchSession], list[Event]]) -> None:
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
