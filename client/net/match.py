"""One client's networked matches: relay events in, payloads to send and turns out.

:class:`NetMatch` is the shell around the room's sans-I/O pieces, one match after another:

- :mod:`client.net.roster` — who is in the room, and who sits where;
- :mod:`client.net.meetings` — the host proposes, every player answers with a signed join,
  the host seats them (:mod:`client.net.meeting`); a rematch asked for
  (:mod:`client.net.rematch`): the asks, the host's proposal, its withdrawal;
- :mod:`client.net.playing` — the match in progress: every game payload goes through this
  client's :class:`~protocol.session.MatchSession`, the authority on what happened, whose
  events :mod:`client.game.turn_cutter` cuts into turns for the screens; after a gap the relay
  could not fill, the hellos and transcripts of :mod:`client.net.catchup`; every fault
  named after its sender;
- :mod:`client.net.spectators` — the match so far for a spectator who came too late for the
  relay to replay it: the players' offers, the spectator's arrival;
- :class:`~client.net.durable.MatchLogs` — the match logs on disk, a new file per match,
  each handed to its session as the writer it logs through.

The shell routes every payload to the piece it is for and owns what those pieces leave
out: the dice chain and its secret, the time (every call says *now*, as the link or the
room's ticker read it), the listeners, and the payloads queued in :attr:`NetMatch.outbox`
for the relay link (:mod:`client.net.link`) to send.

Traffic needs no match label: a player stops talking in a match (game messages, hellos,
transcripts) when he joins the next one, and the host when he proposes it, so in the relay's
one order every message of a match comes before the next one's setup. Chat is the exception:
between two matches a line is said in the ended match (its log takes it), and the receivers
that already moved on take it as the ended match's too.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Literal

from client.game.score import RunningScore
from client.i18n import _, os_reason_of, path_shown, say_error
from client.net import wire
from client.net.durable import MatchLogs
from client.net.meeting import Meeting
from client.net.meetings import Action, Begin, Blame, JoinIt, Meetings, Send, TurnedAway
from client.net.outbox import ANSWER, OWN, TALK, Outgoing
from client.net.playing import Playing
from client.net.rematch import HOST_SEAT
from client.net.roster import Member, PresenceChange, Roster
from client.net.seatfile import chain_source
from client.net.spectators import Arrival, Offers, chosen
from client.net.view import MatchView
from protocol.chain import HashChain
from protocol.errors import LocalProtocolError, OutOfPlace, ProtocolError, RemoteProtocolError
from protocol.events import Event
from protocol.identity import KEY_BYTES, Identity, RandomSource
from protocol.logfile import LogContents
from protocol.messages import Chat, decode_message
from protocol.session import MatchSession
from protocol.setup import Join, MatchSetup, Proposal
from relay.fault import Fault

Role = Literal["host", "player", "spectator"]
Listener = Callable[[], None]
"""Told that the match changed (and nothing more: read what you show from the match)."""

__all__ = ["HOST_SEAT", "Listener", "Member", "NetMatch", "Outgoing", "Role"]


class NetMatch(MatchView):
    """This client's side of a room's networked matches, one after another (a host, a
    player or a spectator): the current one's meeting, session and log. What the screens
    read of it is :class:`~client.net.view.MatchView`'s."""

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
        self.meetings = Meetings(role, self.roster, random_source, self.identity.public_key)
        self.outbox: list[Outgoing] = []
        self.play = Playing(self.roster, self._send)
        # The play's, cleared in place when a rematch begins (the chat goes on).
        play = self.play
        self.turns, self.chats, self.offences = play.turns, play.chats, play.offences
        self.logs = MatchLogs(log_path, data_dir)  # --log: the first match's (then beside it)
        self.chain_secret: bytes | None = None  # every dice chain of this seat comes from it
        # The secret of the current match's chain (a rematch's joined meanwhile is not it):
        # what the seat file keeps.
        self.seat_secret: bytes | None = None
        self._chain: HashChain | None = None
        self._chain_source: RandomSource | None = None  # draws the chain, then its renewals
        self.in_relay_step = False  # the relay replayed what it kept since we (re)connected
        self.replaying = False  # the relay is replaying what it kept (welcome to caught up)
        # A seat file can take this seat back: leaving mid-match leaves the log as it is,
        # in the relay's order (what never came back comes back on resuming).
        self.resumable = False
        self.offers = Offers()  # a player's catch-ups for late spectators
        self.arrival: Arrival | None = None  # a late spectator's, until its catch-up came
        self._caught_up_from: int | None = None  # the relay seat whose catch-up he took
        self.unfollowed = False  # a late spectator given a false catch-up: he stops there
        self.resumed = False  # rebuilt from a seat file (see resume)
        # Resumed: the relay replays the room from its start, earlier matches included; what
        # comes before this match's setup is theirs.
        self._before_setup = False
        self._listeners: list[Listener] = []
        self.score: RunningScore | None = None  # the room's matches before this one
        # Why this client stopped following the room: something it could not handle (see
        # :meth:`cannot_handle`), or its own join turned away (a name taken before it).
        # Nothing more is taken once it is said; the link leaves the room on it.
        self.broken: str | None = None
        self.fault: Fault | None = None  # whose fault it is that the match stopped
        self._asked_setup = False  # back with no match, we asked the host for its setup

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
        match._begin(setup, began=now, present=False, log_path=log_path, resume_at=log.end)
        try:
            match.play.restore(log.records, now)
        except Exception as error:  # what its records say, as other machines sent them
            assert match.logs.writer is not None and match.session is not None
            match.logs.close(over=False)
            if not isinstance(error, ProtocolError):  # nobody foresaw it: which record
                record = len(match.session.records) + 1
                error = ValueError(
                    _("its record {record} is something this app cannot handle ({error})").format(
                        record=record, error=type(error).__name__
                    )
                )
            why = _("the match log does not replay: {error}").format(error=say_error(error))
            raise ValueError(why) from None
        assert match.session is not None
        # What the stopped program signed, each before it sent it: made again, byte for byte.
        match.session.signed_earlier(match.logs.earlier)
        match.resumed = True
        match._before_setup = True
        return match

    @property
    def chain(self) -> HashChain | None:
        """This seat's dice chain in the current match (None before it joined one)."""
        return self._chain

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
                case Begin(setup, began):  # replayed by the relay: set up before we came
                    self._begin(setup, began=began, present=not self.replaying)
                    if self._asked_setup and self.session is not None:
                        self._asked_setup = False  # it passed us by: its records did too
                        self.play.caught_up(began, wait_for=set())
                case Blame(relay_seat, text, fatal):
                    self.play.blame(relay_seat, text, fatal=fatal)
                    if fatal and self.broken is None:  # named, on screen; the link leaves on it
                        self.broken = _("the match stopped: {who}: {reason}").format(
                            who=self.play.who(relay_seat), reason=text
                        )
                        self.fault = Fault.PEER
                case TurnedAway(text):  # this client stops here; the link leaves on it
                    if self.broken is None:  # (its cure is the person's: another name)
                        self.broken, self.fault = text, Fault.INPUT

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
        epoch: int = 0,
    ) -> None:
        """The relay let us in (again): who is there. ``fresh``: a re-created room, whose
        seats are numbered anew (each player's signed hello says who is who again);
        ``epoch``: the relay's name for its numbering."""
        self.roster.welcomed(relay_seat, roster, now, fresh=fresh, epoch=epoch)
        self.replaying = True
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
        self.replaying = False
        self._before_setup = False  # the relay replayed all it had for us (or nothing)
        if self.role == "spectator" and announced and self.arrival is None:
            self.arrival = Arrival(now)
        if session is not None and not self.rematching:
            self.play.caught_up(now, wait_for=wait_for, complete=complete)
        if not complete and not self.meetings.meeting.begun:
            # Part of the meeting passed us by: its setup may seat joins we never heard, and
            # the host offers it again to those who may have missed it (us among them).
            self.meetings.meeting.missed = True
            self._carry_out(self.meetings.offer_again())
        if not complete and session is None and self.role != "spectator":
            self._asked_setup = True  # the match may have begun meanwhile: the host says
            self._send(wire.SetupAsk())
        self._changed()

    def presence(self, relay_seat: int, change: PresenceChange, name: str, now: int) -> None:
        self.roster.presence(relay_seat, change, name, now)
        self.catch_up.came(relay_seat)  # its next hello is news: answer it
        self._carry_out(self.meetings.came(relay_seat, change))
        arrival = self.arrival
        if arrival is not None and change == "left" and arrival.gone(relay_seat, self.play):
            self._arrival_over(now)
        self._changed()

    def spectator_came(self, now: int) -> None:
        """The relay announced a spectator it could not replay the match to: the lowest
        connected player sends him the match so far (see :mod:`client.net.spectators`)."""
        seat = self.seat
        if seat is not None and self.offers.came(chosen=chosen(self.roster, seat), now=now,
                                                 ready=self._may_offer()):  # fmt: skip
            self._offer()

    def _may_offer(self) -> bool:
        """Whether a catch-up sent now would hold all the room said before the spectator
        came: not while the next match is being set up (nothing more is said in this one);
        not while we are behind (a resumed seat lacks what the others hold); not while
        something of ours is on its way (what the room placed before him may be taken behind
        it, not logged yet, and he would never hear it)."""
        session = self.session
        return (self.seat is not None and session is not None and not self.rematching
                and self.in_step and not session.unlogged())  # fmt: skip

    def _settled(self, now: int) -> None:
        """The catch-up owed to a spectator announced while we could not send it."""
        if self._may_offer() and self.offers.settled(now):
            self._offer()

    def _offer(self) -> None:
        assert self.session is not None
        catch_up = self.offers.offer(self.session)  # one piece: nothing of ours between
        self.outbox.extend(Outgoing(data, lane=ANSWER, follows=index > 0)
                           for index, data in enumerate(catch_up))  # fmt: skip

    def cannot_handle(self, relay_seat: int | None, error: Exception, *, own: bool = False) -> str:
        """Anything this client did not foresee while it took what *relay_seat* sent (None:
        the relay's own words; ``own``: this seat's own action or timer, on what came
        before): the match stops here, naming the sender, its log made durable; returns
        the sentence every screen says (the link leaves the room on it). The known faults
        never come here: :meth:`receive` names them and goes on."""
        if self.broken is None:
            try:
                offence = self.play.cannot_handle(relay_seat, error, own=own)
            finally:
                if self.logs.writer is not None:
                    self.logs.writer.sync()  # every record taken so far survives what follows
            self.broken = _("the match stopped: {who}: {reason}").format(
                who=offence.named, reason=offence.text
            )
            self.fault = Fault.OURS if own else Fault.RELAY if relay_seat is None else Fault.PEER
            self._changed()
        return self.broken

    def receive(self, relay_seat: int, data: bytes, now: int) -> None:
        """One payload from ``relay_seat`` in the room's order (possibly our own, placed)."""
        if self.broken is not None:
            return
        if self.arrival is not None or self.unfollowed:
            if self.arrival is not None and self.arrival.receive(
                relay_seat, data, now, self.play, self._begin_watched
            ):
                self._arrival_over(now)
            self._changed()
            return
        if relay_seat == self.roster.me:
            self.offers.placed(data, now)
        try:
            payload = wire.decode(data)
        except wire.WireError as error:
            sent = _("sent something that is not Tablier traffic ({error})").format(error=error)
            self.play.blame(relay_seat, sent)
            self._changed()  # told now, not with whatever changes next
            return
        try:
            self._dispatch(relay_seat, payload, now)
        except OutOfPlace:
            self._out_of_place(relay_seat)
        except RemoteProtocolError as error:
            self.play.remote_error(relay_seat, error)
        except LocalProtocolError as error:  # e.g. traffic for a match that was stopped
            self.play.blame(relay_seat, say_error(error), fatal=False)
        self.play.grown(now)
        self.play.cut_turn()
        self._settled(now)
        self._changed()

    def tick(self, now: int) -> None:
        """The time passed (the room's ticker): a rematch proposal nobody completed is
        withdrawn, a resumed seat nobody answered within the time limit may act."""
        actions = self.meetings.tick(now)
        self._carry_out(actions)
        if actions:
            self._changed()
        if self.play.tick(now):
            self._changed()
        if not self.rematching:
            self.play.paced(now)
        if self._may_offer() and self.offers.due(now):
            self._offer()  # to a spectator who came too soon after the last catch-up
        self._settled(now)

    def _dispatch(self, relay_seat: int, payload: wire.Payload, now: int) -> None:
        if self._before_setup:  # resumed: the room replays earlier matches first
            self._before_setup = self.play.replayed(relay_seat, payload)
        elif not self.play.traffic(relay_seat, payload, now, rematching=self.rematching):
            self._carry_out(self.meetings.receive(relay_seat, payload, now, self._standing()))

    def _begin(
        self,
        setup: MatchSetup,
        *,
        began: int,
        present: bool = True,
        log_path: Path | None = None,
        resume_at: int | None = None,
    ) -> None:
        """The match *setup* begins, set up at *began* by our clock (the first turn's limit
        runs from there at the earliest, whatever start time the host wrote); not *present*
        at the setup, we came at *began* and judge the first turn by the start time, as the
        log's readers do (see :meth:`protocol.progress.Progress.claim_deadline`)."""
        if self.session is not None:
            self._leave_match()
        self._caught_up_from = None  # a new match: followed live from its setup
        self.meetings.begun(setup)
        try:
            log = self.logs.open(setup, path=log_path, resume_at=resume_at)
        except (OSError, LocalProtocolError) as error:  # our own disk: nobody else's fault
            self._own_log_failed(error)
            return
        self.play.begin(setup, identity=self.identity, chain=self._chain,
                        random_source=self._chain_source, log=log, began=began,
                        present=present, sent=self.logs.sent)  # fmt: skip
        seat = self.seat
        self.seat_secret = self.chain_secret if seat is not None else None
        if self.offers.begun() and seat is not None:
            self._offer()  # to a spectator announced while this match was being set up
        self._changed()

    def _own_log_failed(self, error: OSError | LocalProtocolError) -> None:
        """This app cannot write the log of the match beginning (a full disk, a data
        folder it may not write in, a file taken meanwhile): a local stop, said as ours —
        never blamed on whoever sent the message that began the match."""
        reason = os_reason_of(error) if isinstance(error, OSError) else say_error(error)
        where = path_shown(self.logs.path) if self.logs.path is not None else "?"
        if self.broken is None:
            self.fault = Fault.OURS
            self.broken = _("the match stopped: this app cannot write your log of it "
                            "({path}: {reason})").format(path=where, reason=reason)  # fmt: skip
            self._changed()

    def _begin_watched(self, setup: MatchSetup, now: int) -> None:
        """A late spectator begins the match its catch-up sets up (met before he came)."""
        self.meetings.meeting = Meeting(proposal=setup.proposal)
        self._begin(setup, began=now, present=False)

    def _leave_match(self) -> None:
        """A rematch begins: the ended match's log is complete (its last chat lines came
        before the new setup), and nothing of it is left to show."""
        assert self.session is not None and self.logs.writer is not None
        before = self.score or RunningScore.start(self.session.setup.names)
        self.score = before.after(self.session.ended)
        self.play.leave()
        self.logs.close(over=True)
        self.resumed = False

    def _arrival_over(self, now: int) -> None:
        """A late spectator's catch-up came (or cannot): what the room said meanwhile, in
        its order; refused, he follows the room no further."""
        assert self.arrival is not None
        arrival, self.arrival = self.arrival, None
        if arrival.refused:
            self.unfollowed = True
            return
        self._caught_up_from = arrival.source
        for relay_seat, data in arrival.held:
            self.receive(relay_seat, data, now)

    def _out_of_place(self, relay_seat: int) -> None:
        """A live record from *relay_seat* does not follow the match as we hold it: we may
        lack records before it, so it proves nothing against its signer, and nobody is named.
        A player asks the others for them (the session counted it refused). A late spectator
        cannot ask: he holds what his catch-up gave him and all the room said since, so a
        record its sender delivers or signed that does not follow is that sender's own
        word against his catch-up — short of the match: refused, naming him, and the
        spectator follows the room no further. Another's record names nobody (its signer may
        have signed another match: that proves nothing either)."""
        source, session = self._caught_up_from, self.session
        if self.seat is not None or source is None or session is None:
            return
        record = session.last_message
        signer = None if record is None else record.seat
        if relay_seat != source and self.roster.seat_of_member.get(source, -1) != signer:
            return
        self.play.blame(source, Arrival.short(), fatal=True)
        self.unfollowed = True

    # ----------------------------------------------------------------- the rematch

    def ask_rematch(self, now: int) -> None:
        """Ask for another match with the same players (see :meth:`Meetings.ask`)."""
        self._carry_out(self.meetings.ask(now, self._standing()))
        self._changed()

    def withdraw_rematch(self) -> None:
        """Host: take back the rematch he proposed (see :meth:`Meetings.withdraw`)."""
        self._carry_out(self.meetings.withdraw())
        self._changed()

    # ----------------------------------------------------------------- this seat's actions

    def act(self, action: Callable[[MatchSession], list[Event]]) -> None:
        """Run one of the session's actions (throw, play, chat…) and send what it says
        (see :meth:`Playing.act`)."""
        if self.play.act(action, rematching=self.rematching):
            self._changed()

    # ----------------------------------------------------------------- internals

    def _send(self, payload: wire.Payload) -> None:
        if self.role == "spectator":
            return  # the relay refuses whatever a spectator sends: catch-ups are the players'
        # Only a record the other seats answer by themselves need not ask for its place.
        tell = not (isinstance(payload, wire.Game) and MatchSession.answered_at_once(payload.data))
        self.outbox.append(Outgoing(wire.encode(payload), tell, _lane(payload)))

    def unsent(self, dropped: list[Outgoing]) -> None:
        """The link's outbox was full of answers to others and dropped these: a late
        spectator's catch-up among them is owed again once its spacing has passed (an
        asker's transcript is asked for again by the asker)."""
        if any(isinstance(wire.decode(item.data), wire.Spectate) for item in dropped):
            self.offers.lost()

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
        if self.logs.writer is not None:
            session = self.session
            if session is not None and (session.ended is not None or not self.resumable):
                session.flush_log()  # what never came back is logged too
            over = session is None or session.ended is not None or not self.resumable
            self.logs.close(over=over)


def _lane(payload: wire.Payload) -> int:
    """Which of :mod:`client.net.outbox`'s lanes a payload of ours goes in: what the match
    waits on first, then what people say and hellos, then answers to others."""
    match payload:
        case wire.Game(data):
            return TALK if isinstance(decode_message(data), Chat) else OWN
        case wire.Hello():
            return TALK
        case wire.Transcript() | wire.Spectate():
            return ANSWER
    return OWN
