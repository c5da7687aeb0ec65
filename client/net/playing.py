"""The match in progress, sans-I/O: the room's game traffic in, turns, chat, faults and
payloads out.

:class:`Playing` holds this client's :class:`~protocol.session.MatchSession` for the match
being played (or the one that just ended): the authority on what happened. It takes the
room's traffic about that match — game messages, and the hellos and transcripts that fill a
gap (:mod:`client.net.catchup`) — and this seat's own actions, and hands on:

- the turns :mod:`client.game.turn_cutter` cuts for the screens, and the chat lines;
- every fault, as an :class:`~client.game.driver.Offence` named after whoever is to blame:
  the seat that signed a record against the rules, else the relay member who sent it;
- the payloads to send, through the *send* it is given (the shell's outbox).

Nothing here touches a file or a clock: the match log is the writer :meth:`Playing.begin`
is handed, and every call says *now*.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

from client.game.driver import Offence
from client.game.turn import Turn
from client.game.turn_cutter import TurnCutter
from client.i18n import _, ngettext, say
from client.net import wire
from client.net.catchup import ACT_MARGIN_MS, BEHIND_LIMIT_MS, CatchUp, hello_holds, sign_hello
from client.net.roster import Roster
from protocol.chain import HashChain
from protocol.clock import duration
from protocol.errors import LocalProtocolError, ProtocolError, RemoteProtocolError
from protocol.events import ChatReceived, Event
from protocol.identity import Identity, RandomSource
from protocol.messages import Play, Share, decode_message
from protocol.referee import RecordSink
from protocol.session import MatchSession
from protocol.setup import Join, MatchSetup

Send = Callable[[wire.Payload], None]


class Playing:
    """This client's side of the room's current match: its session and what it hands on."""

    def __init__(self, roster: Roster, send: Send) -> None:
        self.roster = roster
        self._send = send
        self.session: MatchSession | None = None  # the current match's, or the ended one's
        self.turns: deque[Turn] = deque()
        self.chats: deque[ChatReceived] = deque()
        self.offences: list[Offence] = []
        self.catch_up = CatchUp()
        self._cutter: TurnCutter | None = None
        self._identity: Identity | None = None  # this seat's: it signs our hellos
        self._refused_at: int | None = None  # records held when one was refused for room
        self._sent: RecordSink | None = None  # the sent file (see client.net.durable)
        self._counted = 0  # records whose signers the catch-up was told of

    def begin(
        self,
        setup: MatchSetup,
        *,
        identity: Identity,
        chain: HashChain | None,
        random_source: RandomSource | None,
        log: RecordSink,
        began: int,
        present: bool = True,
        sent: RecordSink | None = None,
    ) -> None:
        """The match *setup* begins: seated if *identity* joined it with *chain* (else a
        spectator's); *random_source* draws the chain's renewals; *log* takes its records;
        *began* is our clock as it was set up (its first turn's limit runs from there) or,
        not *present* at the setup (back from a log, a replay or a catch-up), when we came;
        *sent* takes each of our records before it is sent (the sent file)."""
        keys = setup.public_keys
        mine = identity.public_key
        seat = keys.index(mine) if mine in keys and chain is not None else None
        self._identity = identity if seat is not None else None
        self._sent = sent if seat is not None else None
        self.session = MatchSession(
            setup,
            seat=seat,
            identity=identity if seat is not None else None,
            chain=chain if seat is not None else None,
            random_source=random_source,  # renewals: the same again after a restart
            log=log,
            echoed=True,  # our messages come back in the relay's order: the log follows it
            # The first turn's limit runs from when we saw the match set up; one who came
            # later judges it by the start time (when the others saw it is not his to know).
            began=began if present else None,
            arrived=None if present else began,
        )
        self._cutter = TurnCutter(self.session.state)

    def restore(self, records: Sequence[bytes], now: int) -> None:
        """Resumed: the match's logged *records* taken again, every one checked (a
        ``ProtocolError`` if they do not replay), and cut into turns record by record as
        they were played: cut once at the end, the whole match was one turn, which the
        screen played back checker by checker as the first mover's (wrong pips, seconds
        of a stale prompt) before it showed where the match stands."""
        session = self.session
        assert session is not None

        session.restore(records, now, each=self._cut)
        self.take([])  # the chat lines, and what the replay left to send

    def _cut(self, events: list[Event]) -> None:
        """One record's *events*, a turn cut if they end one: a log or a transcript is
        handed to the screen turn by turn (nothing is sent meanwhile: the session sorts
        what it says once all are taken)."""
        if self._cutter is not None:
            self._cutter.take(events)
        self.cut_turn()

    def leave(self) -> MatchSession:
        """A rematch begins: the ended match's records all go to its log (its last chat
        lines came before the new setup), and nothing of it is left to show."""
        session = self.session
        assert session is not None
        session.flush_log()
        self.turns.clear()
        self.offences.clear()
        self.catch_up = CatchUp()
        self._refused_at = None
        self._counted = 0
        return session

    def who(self, relay_seat: int) -> str:
        """A relay member named for a person: the match's name when we know it."""
        session = self.session
        return self.roster.who(relay_seat, None if session is None else session.setup.names)

    # ----------------------------------------------------------------- this seat's actions

    def act(self, action: Callable[[MatchSession], list[Event]], *, rematching: bool) -> bool:
        """Run one of the session's actions (throw, play, chat…) and send what it says.
        False: a peer's earlier fault surfaced instead (it is among the offences)."""
        if self.session is None:
            raise LocalProtocolError(_("the match has not started yet"))
        if rematching:  # we joined the next match: nothing more is said in this one
            raise LocalProtocolError(_("the rematch is being set up: its board opens in a moment"))
        try:
            events = action(self.session)
        except RemoteProtocolError as error:  # a peer's earlier fault surfaced by our move
            self.remote_error(None, error)
            return False
        finally:
            self._flush()
        self.take(events)
        self.cut_turn()
        return True

    # ----------------------------------------------------------------- the room's traffic

    def traffic(
        self, relay_seat: int, payload: wire.Payload, now: int, *, rematching: bool
    ) -> bool:
        """A payload from *relay_seat*, taken if it is about the match being played (False:
        it is the meeting's). *rematching*: the next match is being set up, so nobody
        fills gaps in this one any more."""
        match payload:
            case wire.Game(data):
                self.game(relay_seat, data, now)
            case wire.Hello():
                self.hello(relay_seat, payload, now, rematching=rematching)
            case wire.Transcript():
                self.transcript(relay_seat, payload, now, rematching=rematching)
            case wire.Spectate(setup):  # (its records we check as transcripts)
                session, mine = self.session, relay_seat == self.roster.me
                if not mine and session is not None and setup != session.setup.encode():
                    self.blame(relay_seat, _("sent a late spectator another match than ours"))
            case _:
                return False
        return True

    def replayed(self, relay_seat: int, payload: wire.Payload) -> bool:
        """Resumed, the room replayed from its start: until this match's setup goes by (True
        while it has not), the traffic is earlier matches' (only who sits where is worth
        keeping: a rematch keeps the players' keys)."""
        setup = None if self.session is None else self.session.setup
        match payload:
            case wire.SetupMsg(data):
                return MatchSetup.decode(data) != setup
            case wire.JoinMsg(data) if setup is not None:  # signed: it binds who sent it
                key = Join.decode(data).public_key
                if key in setup.public_keys:
                    self.roster.bind(relay_seat, setup.public_keys.index(key))
        return True

    def game(self, relay_seat: int, data: bytes, now: int) -> None:
        """A game message from *relay_seat* (possibly our own, placed)."""
        session = self.session
        if session is None:
            if relay_seat != self.roster.me:
                self.blame(relay_seat, _("sent game traffic before the match began"))
            return
        if session.stopped is None:
            refused = session.refused
            try:
                self.take(session.receive_bytes(data, now, sender=self.sender(relay_seat)))
            finally:
                if session.refused != refused:
                    self._ask_again(session, refused=True)

    def transcript(
        self, relay_seat: int, part: wire.Transcript, now: int, *, rematching: bool
    ) -> None:
        """Records from *relay_seat* that fill a gap (ours, or another's it hears too)."""
        session = self.session
        mine = relay_seat == self.roster.me
        if mine or session is None or session.stopped is not None or rematching:
            return
        if part.start <= len(session.records):
            sender, refused = self.sender(relay_seat), session.refused
            try:  # (cut record by record: a transcript of many turns is as many turns)
                session.receive_transcript(part.data, now, sender=sender, each=self._cut)
            finally:
                self.take([])
                if session.refused != refused:
                    self._ask_again(session, refused=True)
        else:  # a gap before it: ask from where we are
            heard_by = self.roster.connected()
            self._send_all(self.catch_up.gap(session.seat, len(session.records), heard_by))

    def hello(self, relay_seat: int, said: wire.Hello, now: int, *, rematching: bool) -> None:
        """Relay seat *relay_seat* says it is match seat ``said.seat`` and holds ``said.have``
        records. Signed by that seat for this relay seat in the relay's current numbering,
        it binds the one to the other (:meth:`Roster.rebind`); said for another connection
        or numbering (a copy, or an old one), it binds nobody and asks for nothing."""
        session = self.session
        if session is None or relay_seat == self.roster.me or rematching:
            return
        setup = session.setup
        if said.relay_seat != relay_seat or said.epoch != self.roster.epoch:
            return
        if not (0 <= said.seat < setup.seats and hello_holds(said, setup)):
            self.blame(relay_seat, _("sent a hello not signed by the seat it names"))
            return
        self.roster.rebind(relay_seat, said.seat)
        answer = self.catch_up.heard(
            relay_seat, seat=said.seat, have=said.have, my_seat=session.seat,
            records=session.records, heard_by=self.roster.connected(), now=now,
            act_by=self._act_by(),
        )  # fmt: skip
        if answer and session.seat is not None:
            # Our messages that wait on one it was missing reach it in no transcript: again
            # (whoever has them drops the copy).
            answer.extend(wire.Game(raw) for raw in session.held(session.seat))
        self._send_all(answer)

    def caught_up(self, now: int, *, wait_for: set[int], complete: bool = True) -> None:
        """The relay replayed all it kept: say how far we are, so peers fill any gap
        (*wait_for*: the match seats whose word a resumed seat needs before it acts;
        ``complete``: the relay kept all this connection missed)."""
        session = self.session
        assert session is not None
        self._send_all(self.catch_up.caught_up(
            session.seat, len(session.records), heard_by=self.roster.connected(),
            wait_for=wait_for, complete=complete, now=now,
        ))  # fmt: skip

    def paced(self, now: int) -> None:
        """The time passed: send the transcripts owed once their spacing is over."""
        session = self.session
        if session is not None and session.stopped is None:
            self._send_all(self.catch_up.due(session.records, now))

    def grown(self, now: int) -> None:
        """The session took what came: the seats that said they held no more are heard,
        and a share or a play moves the match on for the others' word (see
        :data:`~client.net.catchup.BEHIND_LIMIT_MS`)."""
        session = self.session
        if session is not None:
            records = session.records
            moved_by = set()
            for raw in records[self._counted :]:  # (each checked by the session already)
                message = decode_message(raw)
                if isinstance(message, Share | Play):  # (a seen, a chat line: not moved on)
                    moved_by.add(message.seat)
            self._counted = len(records)
            self.catch_up.grown(len(records), now, moved_by=moved_by)
            if self._refused_at is not None and len(session.records) > self._refused_at:
                self._ask_again(session, refused=False)  # what it refused follows these

    def _ask_again(self, session: MatchSession, *, refused: bool) -> None:
        """The session refused a record that could not wait (it follows one we lack): ask
        the others for what we lack — now, and once more when we hold more (whoever took
        the refused record sends it in a transcript, and a seat its own held records)."""
        have = len(session.records)
        self._refused_at = have if refused else None
        self._send_all(self.catch_up.gap(session.seat, have, self.roster.connected()))

    def tick(self, now: int) -> bool:
        """True if this seat may act now, having waited long enough: resumed, for the
        others' word; behind, for records a peer said it holds (each bounded by
        :data:`~client.net.catchup.BEHIND_LIMIT_MS`, and by
        :data:`~client.net.catchup.ACT_MARGIN_MS` before this seat's own time limit runs
        out). A peer whose word held it back for the whole bound is named."""
        session = self.session
        if session is None:
            return False
        act_by = self._act_by()
        waiting = self.catch_up.waiting(act_by)
        stopped = waiting is not None and now >= waiting.until
        if stopped:
            self.catch_up.stop_waiting(now)
        changed, named = self.catch_up.give_up(now, act_by=act_by)
        for seat, claimed in named:
            text = ngettext(
                "said it holds {claimed} record and never sent those past the {held} here: "
                "waited {waited} for them, going on without",
                "said it holds {claimed} records and never sent those past the {held} here: "
                "waited {waited} for them, going on without",
                claimed,
            ).format(claimed=claimed, held=len(session.records),
                     waited=say(duration(BEHIND_LIMIT_MS)))  # fmt: skip
            self.offences.append(Offence(session.setup.names[seat], text, False, seat))
        return stopped or changed

    def _act_by(self) -> int | None:
        """When this seat acts whatever it still waits for: its own time limit, less
        :data:`~client.net.catchup.ACT_MARGIN_MS`, when the match awaits it (else None)."""
        session = self.session
        if session is None or session.seat is None or session.seat not in session.awaited_seats():
            return None
        return session.deadline() - ACT_MARGIN_MS

    def waiting_note(self, now: int) -> str | None:
        """Resumed and waiting for the others' word: whom for, how long, what can be done."""
        waiting, session = self.catch_up.waiting(self._act_by()), self.session
        if waiting is None or session is None:
            return None
        return waiting.note(session.setup.names, now)

    def sender(self, relay_seat: int) -> int | None:
        """The match seat of the relay member who sent a payload (None: not known), so
        that the session blames a forged message on whoever sent it."""
        if relay_seat == self.roster.me and self.session is not None:
            return self.session.seat
        return self.roster.seat_of_member.get(relay_seat)

    # ----------------------------------------------------------------- what it hands on

    def take(self, events: list[Event]) -> None:
        """The session's events: what it says goes out; chat lines to the screens at once,
        the rest held until :meth:`cut_turn` makes a turn of them."""
        self._flush()
        if self._cutter is not None:
            self._cutter.take(events)
            self.chats.extend(self._cutter.chats)
            self._cutter.chats.clear()

    def cut_turn(self) -> None:
        """Hand the screens a turn once its dice are known, a play is made, or it ends."""
        if self.session is not None and self._cutter is not None:
            self._cutter.cut(self.session.state)
            self.turns.extend(self._cutter.turns)
            self._cutter.turns.clear()

    def remote_error(self, relay_seat: int | None, error: ProtocolError) -> None:
        """A peer's fault: the seat that signed it if it says which, else *relay_seat*, who
        sent it (None: neither is known). A fault that stopped the match ends it here."""
        session = self.session
        seat: int | None = None
        if error.seat is not None and session is not None:
            who, seat = session.setup.names[error.seat], error.seat
        elif relay_seat is not None:
            who, seat = self.who(relay_seat), self.roster.seat_of_member.get(relay_seat)
        else:
            who = _("a peer")
        stopped = session is not None and session.stopped is not None
        self.offences.append(Offence(who, say(error.reason), fatal=stopped, seat=seat))
        if session is not None and session.ended is not None and self._cutter is not None:
            self.take([])
            if not self._cutter.has_end():
                self._cutter.take([session.ended])

    def cannot_handle(
        self, relay_seat: int | None, error: Exception, *, own: bool = False
    ) -> Offence:
        """What *relay_seat* sent (None: the relay's own words; ``own``: nobody's — this
        seat's own action or timer failed) made this app fail in a way nobody foresaw
        (*error*, of any type). Following the room further could only go wrong: the match
        stops here, naming the sender, its accepted records logged."""
        seat = None if relay_seat is None else self.roster.seat_of_member.get(relay_seat)
        name = type(error).__name__  # (never its text: the sender may have chosen it)
        if own:
            who, text = _("this app"), _("could not go on ({error})").format(error=name)
        else:
            who = _("the relay") if relay_seat is None else self.who(relay_seat)
            text = _("sent something this app cannot handle ({error})").format(error=name)
        offence = Offence(who, text, fatal=True, seat=seat)
        self.offences.append(offence)
        session = self.session
        if session is not None and session.ended is None:
            session.halt(RemoteProtocolError(text, seat=seat))
            ended = session.ended
            if self._cutter is not None and ended is not None:
                self.take([])
                if not self._cutter.has_end():
                    self._cutter.take([ended])
                self.cut_turn()
        return offence

    def blame(self, relay_seat: int, text: str, *, fatal: bool = False) -> None:
        """*relay_seat* sent what *text* says (``fatal``: we follow it no further)."""
        seat = self.roster.seat_of_member.get(relay_seat)
        self.offences.append(Offence(self.who(relay_seat), text, fatal, seat))

    def _flush(self) -> None:
        if self.session is not None:
            for data in self.session.data_to_send():
                if self._sent is not None:  # on disk first: back in the seat, sent again
                    self._sent.append(data)
                self._send(wire.Game(data))

    def _send_all(self, payloads: list[wire.Payload]) -> None:
        for payload in payloads:
            if isinstance(payload, wire.Hello):  # ours: signed for our connection
                payload = self._signed(payload)
            self._send(payload)

    def _signed(self, hello: wire.Hello) -> wire.Hello:
        session, identity = self.session, self._identity
        assert session is not None and identity is not None  # (a seat says hello)
        me = self.roster.me
        return sign_hello(hello, identity, session.setup, relay_seat=0 if me is None else me,
                          epoch=self.roster.epoch)  # fmt: skip
