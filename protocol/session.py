"""The match session: one player's (or a spectator's) sans-I/O view of a match.

Bytes from peers and the caller's clock go in (:meth:`MatchSession.receive_bytes`); events and
bytes to send come out (:meth:`MatchSession.data_to_send`). Every message is signature-checked
against its seat's key, every dice share against that seat's chain, every Jacquet play
against our own engine and the sender's state hash, every record's history against ours
(:mod:`protocol.progress`). A signed fault stops the match with a typed
:class:`~protocol.errors.RemoteProtocolError` naming its signer; a message that proves
nothing against anyone is dropped, naming who sent it (:mod:`protocol.gate`).

Order (:mod:`protocol.referee`). The shares of a throw are accepted in one canonical order —
the thrower's first, then the other seats' in seat order — whatever order they arrive in
(early ones wait in a small buffer), so every client accepts, and logs, the same records in
the same order. A spectator replaying a log (``strict=True``) accepts only that order.

Networked (``echoed=True``), the relay puts every message of the room in one order and
delivers it to every member, the sender included; the session's result and its log follow
that order whatever the timing (:mod:`protocol.ordering`): this seat's shares, plays and
``seen`` messages change its game at once, its resignations and claims when they come back,
and one placed before this seat's records still on their way ends the match before them. A
chat line is logged where it comes in; a game record once it and every record before it in
the canonical order came in.

>>> from protocol.local import LocalMatch
>>> from protocol.identity import seeded_source
>>> match = LocalMatch.create("goose", {}, names=("Ann", "Bob"), now=0,
...                           random_source=seeded_source("session-doc"))
>>> events = match.throw(match.awaiting.seat, now=1_000)
>>> [type(event).__name__ for event in events][:4]
['ShareRevealed', 'ShareRevealed', 'DiceRolled', 'LotThrown']
>>> a, b = match.sessions
>>> a.records == b.records and len(a.records) == 2
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from engine.awaiting import ChoosePlay, Finished, MissTurn, ThrowDice
from engine.clause import N_, Clause
from engine.errors import EngineError
from protocol.bounds import MAX_CHAT_CHARS
from protocol.chain import HashChain, Reveals
from protocol.clock import duration, late_after
from protocol.codec import pack, unpack_transcript
from protocol.errors import (
    LocalProtocolError,
    MalformedMessage,
    OutOfPlace,
    RemoteProtocolError,
)
from protocol.events import Event, Ignored
from protocol.gate import Gate
from protocol.identity import Identity, RandomSource, verify_signature
from protocol.messages import (
    Chat,
    Claim,
    GameMessage,
    Play,
    Resign,
    Seen,
    Share,
    decode_message,
    seal,
)
from protocol.names import chat_problem
from protocol.progress import Refusal
from protocol.referee import RecordSink, Referee
from protocol.setup import MatchSetup

if TYPE_CHECKING:
    from engine.jacquet import Play as JacquetPlay


class MatchSession(Referee):
    """One seat's session (``seat=None``: a spectator, or a verifier with ``strict=True``).

    ``check_signatures=False`` (a verifier in a hurry, :mod:`protocol.verify`) leaves the
    signatures of game records unchecked as they come, but checks a record's before blaming
    its seat for anything (:func:`protocol.verify.vouched` checks the rest afterwards).
    ``began``: a live member's clock when the match was set up (the first turn's limit runs
    from there at the earliest; see :meth:`protocol.progress.Progress.deadline`).
    ``arrived``: instead, for a member who was not there at the setup (a seat back from its
    log, a late spectator), his clock when he came: he judges the first turn by the start
    time, and claims it only the whole limit after he came
    (:meth:`protocol.progress.Progress.claim_deadline`).
    """

    def __init__(
        self,
        setup: MatchSetup,
        *,
        seat: int | None,
        identity: Identity | None = None,
        chain: HashChain | None = None,
        random_source: RandomSource | None = None,
        log: RecordSink | None = None,
        strict: bool = False,
        echoed: bool = False,
        verify: Callable[[bytes, bytes, bytes], bool] = verify_signature,
        check_signatures: bool = True,
        began: int | None = None,
        arrived: int | None = None,
    ) -> None:
        if seat is not None:
            if not 0 <= seat < setup.seats:
                raise LocalProtocolError(Clause.of(N_("there is no seat {seat} in a match of "
                                                      "{seats} seats"), seat=seat,
                                                   seats=setup.seats))  # fmt: skip
            if identity is None or identity.public_key != setup.public_keys[seat]:
                raise LocalProtocolError(Clause.of(N_("seat {seat} needs the identity it joined "
                                                      "with"), seat=seat))  # fmt: skip
            if chain is None or chain.tip != setup.tips[seat]:
                raise LocalProtocolError(Clause.of(N_("seat {seat} needs the chain it committed "
                                                      "to"), seat=seat))  # fmt: skip
        super().__init__(setup, seat=seat, log=log, strict=strict)
        if began is not None:  # live: the first turn's limit runs from here at the earliest
            self.progress.began = began
        if arrived is not None:  # came after the setup: his own first claim waits from here
            self.progress.arrived = arrived
        self.match_id = setup.match_id
        self.game = setup.proposal.rules
        self.last_message: GameMessage | None = None
        self._identity = identity
        self._reveals = None if chain is None else Reveals(chain, random_source)
        self._echoed = echoed
        self._gate = Gate(setup, seat=seat, verify=verify, check_signatures=check_signatures)
        self._outbox: list[bytes] = []
        self._seen_sent = -1  # the position our last ``seen`` named
        # Resumed: our shares and plays the program that stopped signed but did not log (it
        # may have sent them), by (kind, seat, throw): made again, they are these bytes.
        self._earlier: dict[tuple[int, int, int], bytes] = {}
        self._restoring = False

    # ----------------------------------------------------------------- what callers read

    @property
    def awaiting(self) -> ThrowDice | ChoosePlay | Finished:
        """The engine's question, or ``Finished()`` once the match ended for any reason."""
        if self.ended is not None:
            return Finished()
        awaiting = self.state.awaiting
        assert not isinstance(awaiting, MissTurn)  # applied automatically
        return awaiting

    def deadline(self) -> int:
        """Time (ms) after which the seats still awaited can be claimed abandoned."""
        return self.progress.deadline()

    def claim_deadline(self) -> int:
        """Time (ms) after which this seat may claim the seats still awaited (see
        :meth:`protocol.progress.Progress.claim_deadline`)."""
        return self.progress.claim_deadline()

    def unlogged(self) -> int:
        """Networked: how many accepted records wait for this seat's echo to be logged."""
        return self._flight.unlogged()

    @property
    def ending_on_its_way(self) -> bool:
        """Networked: whether our resignation or claim is on its way to its place (nothing
        else can be done until it comes back)."""
        return bool(self._flight.deferred)

    def flush_log(self) -> None:
        """Log whatever still waits for an echo (the match is being left: lose nothing)."""
        self._flight.flush()

    @staticmethod
    def answered_at_once(raw: bytes) -> bool:
        """Networked: whether the other seats answer this record of ours by themselves, so
        that their answer shows where the relay placed it: a thrower's dice share, which
        their clients answer with their own shares as soon as it comes. After any other
        record the room may wait on a person (to throw, to play, to read a chat line), and
        this seat asks the relay for the record's place rather than have its log, its
        resignation or its claim wait for him (:attr:`relay.envelope.Send.tell`).

        >>> from protocol.identity import seeded_source
        >>> from protocol.local import LocalMatch
        >>> match = LocalMatch.create("goose", {}, names=("Ann", "Bob"), now=0,
        ...                           random_source=seeded_source("answered-doc"))
        >>> thrower = match.awaiting.seat
        >>> _ = match.sessions[thrower].throw(now=1_000)
        >>> [share] = match.sessions[thrower].data_to_send()
        >>> _ = match.sessions[thrower].chat("Bonne chance", now=1_001)
        >>> [line] = match.sessions[thrower].data_to_send()
        >>> MatchSession.answered_at_once(share), MatchSession.answered_at_once(line)
        (True, False)
        """
        message = decode_message(raw)
        return isinstance(message, Share) and message.state is not None

    def data_to_send(self) -> list[bytes]:
        """Drain the outbox: this seat's messages, each to be sent to every peer."""
        out, self._outbox = self._outbox, []
        return out

    def transcript_from(self, index: int) -> bytes:
        """Records ``index`` onward, for a peer that lost them (see :meth:`receive_transcript`)."""
        if not 0 <= index <= len(self.records):
            raise LocalProtocolError(Clause.of(N_("there is no record {index} (have {have})"),
                                               index=index, have=len(self.records)))  # fmt: skip
        return pack(self.records[index:])

    def signature_holds(self, message: GameMessage) -> bool:
        """Whether *message* is signed by the key of the seat it names."""
        return self._gate.signature_holds(message)

    # ----------------------------------------------------------------- this seat's actions

    def throw(self, now: int) -> list[Event]:
        """Take the awaited throw: reveal this seat's next link first."""
        self._check_can_act()
        awaiting = self.awaiting
        if not isinstance(awaiting, ThrowDice) or awaiting.seat != self.seat or self.progress.links:
            raise LocalProtocolError(Clause.of(N_("it is not your throw")), seat=self.seat)
        state = self.progress.state_digest(self.state)
        return self._act(self._make_share(now, state=state))

    def play(self, play: JacquetPlay, now: int) -> list[Event]:
        """Jacquet: play *play* (an engine Play) with the dice thrown."""
        self._check_can_act()
        awaiting = self.awaiting
        if not isinstance(awaiting, ChoosePlay) or awaiting.seat != self.seat:
            raise LocalProtocolError(Clause.of(N_("it is not your turn to play")), seat=self.seat)
        notation = self.game.format_play(play)
        try:
            transition = self.game.play(self.state, notation)
        except EngineError as error:
            raise LocalProtocolError(error.reason, seat=self.seat) from None
        self._prepared = (notation, transition)  # checked once: the progress reuses it
        after = self.progress.state_digest(transition.state)
        history = self.progress.digest
        return self._act(Play(self._me, self.throw_index - 1, now, notation, after, b"", history))

    def chat(self, text: str, now: int) -> list[Event]:
        """Send a signed chat line (printable text, at most 500 characters)."""
        self._check_can_act(allow_ended=True)
        if not text or len(text) > MAX_CHAT_CHARS or not text.isprintable():
            raise LocalProtocolError(Clause.of(N_("a chat line is 1 to {most} printable "
                                                  "characters"), most=MAX_CHAT_CHARS),
                                     seat=self.seat)  # fmt: skip
        problem = chat_problem(text)
        if problem is not None:
            raise LocalProtocolError(problem, seat=self.seat)
        return self._act(Chat(self._me, self._chats[self._me], now, text, b""))

    def resign(self, now: int) -> list[Event]:
        """Resign the match (signed and logged)."""
        self._check_can_act()
        progress = self.progress
        return self._act(Resign(self._me, progress.position, now, b"", progress.digest))

    def claim_abandonment(self, accused: int, now: int) -> list[Event]:
        """Claim that *accused*, awaited past the time limit, abandoned the match."""
        self._check_can_act()
        if accused not in self.awaited_seats() or accused == self.seat:
            raise LocalProtocolError(Clause.of(N_("seat {seat} is not the one the match is "
                                                  "waiting for"), seat=accused))  # fmt: skip
        deadline = self.claim_deadline()
        if now < deadline:
            raise LocalProtocolError(Clause.of(N_("seat {seat} still has {left} to answer"),
                                               seat=accused,
                                               left=duration(deadline - now)))  # fmt: skip
        progress = self.progress
        claim = Claim(self._me, progress.position, now, accused, b"", progress.digest)
        return self._act(claim)

    # ----------------------------------------------------------------- what peers send

    def receive_bytes(self, data: bytes, now: int, *, sender: int | None = None) -> list[Event]:
        """Handle one wire message; return the events it caused, in order.

        *sender* is the seat of the connection the message came from (the relay says who
        sent each frame), or None when that is not known (a record of a log or of a peer's
        transcript). A message that proves nothing against the seat it names — bytes that
        are not a message, a signature that does not verify, a message signed for a seat
        other than its sender's, a time ahead of *now* by more than the clock tolerance — is
        dropped: the error raised is not ``fatal``, names the sender (``seat``) and the match
        goes on. A signed message that breaks the rules at its place stops the match
        (:attr:`stopped`), naming the seat that signed it; one out of place (it follows
        records we lack, maybe) is refused, an :class:`~protocol.errors.OutOfPlace` naming
        nobody, and counted in :attr:`refused` (see :mod:`protocol.errors`).
        """
        if self.stopped is not None:
            raise LocalProtocolError(Clause.of(N_("the match was stopped: {error}"),
                                               error=self.stopped.message))  # fmt: skip
        raw = bytes(data)
        own = raw in self._flight.own
        message = self._gate.admit(raw, sender=sender, own=own)
        self.last_message = message
        if own:
            if not self._flight.came_back(raw):
                return [Ignored("our own message, echoed back")]
        elif not self._strict:
            self._gate.on_time(message, now)
        try:
            if message.seat == self.seat and isinstance(message, Share):
                assert self._reveals is not None
                self._reveals.adopt(message.link, message.renew)
            self._handle(message, raw)
        except Refusal as refusal:
            raise self._gate.blame(message, refusal.error) from None
        except RemoteProtocolError as error:
            error = self._gate.blame(message, error)
            if error.fatal:
                self._stop(error, raw)
            raise error from None
        self._see(now)
        return self._take_events()

    def halt(self, error: RemoteProtocolError) -> None:
        """Stop the match here on *error*, which no check of this session raised (the client
        failed on what a peer sent): what was accepted is logged, nothing more is taken."""
        if self.stopped is None:
            self._stop(error, None)

    def restore(
        self,
        records: Sequence[bytes],
        now: int,
        *,
        each: Callable[[list[Event]], object] | None = None,
    ) -> list[Event]:
        """Take this seat back after its program stopped: replay its log's *records*.
        *each* is handed every record's events as it is taken (the session's state is then
        that record's), so that a screen can be handed the match turn by turn.

        Every record is checked as a live message is; this seat's own ones (made by the
        program that stopped) against its own key and chain, which moves past them. Nothing
        is logged again. From then on, this seat's own messages that this session did not
        make (sent just before the stop, coming back from the relay or in a peer's
        transcript) are accepted the same way. Messages that only repeat logged ones (the
        automatic dice reveals, made again byte for byte) are not left to send.
        """
        if self.seat is None or self.records:
            raise LocalProtocolError(Clause.of(N_("only a fresh seated session can be "
                                                  "restored")))  # fmt: skip
        self._gate.restored = self._restoring = True
        log, self._log = self._log, None
        try:
            events: list[Event] = []
            for record in records:
                taken = self.receive_bytes(record, now)
                if each is not None:
                    each(taken)
                events.extend(taken)
        finally:
            self._log = log
            self._restoring = False
        self._outbox = [raw for raw in self._outbox if self._flight.on_its_way(raw)]
        return events

    def signed_earlier(self, records: Sequence[bytes]) -> None:
        """Resumed (after :meth:`restore`): *records* are what the program that stopped
        signed for this seat, each before it was sent. Those of its shares and plays not in
        the match (sent maybe, placed maybe, the others' copies maybe all this seat will
        ever see of them) are what this seat sends again when it makes the same share or
        play — the same throw, from the same history — byte for byte: a seat never signs
        two different records for one throw, which would prove it cheated (the others stop
        the match naming it). Anything else in *records* (not this seat's, not signed by
        it, already taken) is left alone."""
        taken = set(self.records)
        for raw in records:
            if raw in taken:
                continue
            try:
                message = self._gate.admit(raw, sender=None, own=False)
            except RemoteProtocolError:
                continue  # not a record signed by this seat: nothing it could be held to
            if message.seat == self.seat and isinstance(message, Share | Play):
                self._earlier.setdefault((message.KIND, message.seat, message.n), raw)

    def receive_transcript(
        self,
        data: bytes,
        now: int,
        *,
        sender: int | None = None,
        each: Callable[[list[Event]], object] | None = None,
    ) -> list[Event]:
        """Resync: check and replay records a peer sent (from :meth:`transcript_from`);
        *each* is handed every record's events as it is taken (as :meth:`restore`'s).

        Records already held are skipped — byte for byte, before any decoding or signature
        check, as are copies within the transcript: a peer that packs one record a hundred
        times into a transcript costs a lookup each, not a signature check each. Every other
        one goes through the same checks as a live message, so a lying peer cannot slip
        anything in; one that changes nothing (a claim overtaken, a record after the end)
        ends the reading, so that a transcript costs at most one signature check that took
        nothing. *sender* is the seat that sent the transcript: a record in it that
        proves nothing against the seat it names (not a message, not signed by that seat, or
        one that cannot stand, or one out of its place after the records before it: we
        may lack nothing, the transcript says we do not) drops the rest of the transcript,
        naming *sender*, never the record's signer.
        """
        try:
            records = unpack_transcript(data)
        except MalformedMessage as error:
            raise MalformedMessage(error.reason, seat=sender, fatal=False) from None
        events: list[Event] = []
        taken: set[bytes] = set()
        for record in records:
            if record in taken or (
                not self._strict and self.holds(record) and record not in self._flight.own
            ):
                continue  # (one of ours goes on: its coming back may place it)
            taken.add(record)
            try:
                received = self.receive_bytes(record, now)
            except RemoteProtocolError as error:
                if error.fatal:  # a signed fault at its place: its signer is to blame
                    raise
                # Unsigned, or not at its place after the records before it: whoever sent
                # the transcript put it there (an honest one holds what we lack, in order).
                kind = RemoteProtocolError if isinstance(error, OutOfPlace) else type(error)
                raise kind(Clause.of(N_("in a transcript: {error}"), error=error.reason),
                           seat=sender, fatal=False) from None  # fmt: skip
            kept: list[Event] = [e for e in received if not isinstance(e, Ignored)]
            if each is not None:
                each(kept)
            events.extend(kept)
            if record not in self._flight.own and any(isinstance(e, Ignored) for e in received):
                # A record that changed nothing and is not one held (a claim the match had
                # moved past, a record after the end): nothing an honest transcript of what
                # we lack holds, and each cost a signature check. The rest is not read.
                break
        return events

    # ----------------------------------------------------------------- internals

    @property
    def _me(self) -> int:
        assert self.seat is not None
        return self.seat

    def _check_can_act(self, *, allow_ended: bool = False) -> None:
        say = Clause.of
        if self.seat is None:
            raise LocalProtocolError(say(N_("a spectator cannot act in the match")))
        if self.stopped is not None:
            raise LocalProtocolError(say(N_("the match was stopped: {error}"),
                                         error=self.stopped.message))  # fmt: skip
        if self.ended is not None and not allow_ended:
            raise LocalProtocolError(say(N_("the match is over")))
        if self._flight.deferred and not allow_ended:  # what comes next depends on its place
            raise LocalProtocolError(say(N_("your last message is on its way to the others: a "
                                            "moment")))  # fmt: skip

    def _sign(self, message: GameMessage) -> tuple[GameMessage, bytes]:
        assert self._identity is not None
        signed, raw = self._signed_earlier(message) or self._seal(message)
        self._flight.own.add(raw)
        self._outbox.append(raw)
        if self._echoed:  # in effect at its place in the relay's order, or at once?
            deferred = isinstance(message, Resign | Claim)
            self._flight.sent(raw, chat=isinstance(message, Chat), deferred=deferred)
        return signed, raw

    def _seal(self, message: GameMessage) -> tuple[GameMessage, bytes]:
        assert self._identity is not None
        signed = seal(message, self._identity, self.match_id)
        return signed, signed.encode()

    def _signed_earlier(self, message: GameMessage) -> tuple[GameMessage, bytes] | None:
        """The share or play the program that stopped signed for the same throw, from the
        same history (and, a share, with the same link), if any (see
        :meth:`signed_earlier`): it goes again instead of a new signature."""
        if not self._earlier or not isinstance(message, Share | Play):
            return None
        raw = self._earlier.pop((message.KIND, message.seat, message.n), None)
        if raw is None:
            return None
        earlier = decode_message(raw)
        if not isinstance(earlier, Share | Play) or earlier.history != message.history or (
            isinstance(earlier, Share) and isinstance(message, Share)
            and (earlier.link, earlier.renew, earlier.state) != (message.link, message.renew,
                                                                  message.state)
        ):  # fmt: skip
            return None  # made elsewhere in the match: it can stand nowhere now
        return earlier, raw

    def _act(self, message: GameMessage) -> list[Event]:
        signed, raw = self._sign(message)
        if raw in self._flight.deferred:
            return []
        try:
            self._handle(signed, raw)
        except Refusal as refusal:
            error = refusal.error
            raise LocalProtocolError(error.reason, seat=self.seat) from None
        except RemoteProtocolError as error:
            self._stop(error, None)
            raise
        return self._take_events()

    def _make_share(self, now: int, *, state: bytes | None = None) -> Share:
        assert self._reveals is not None
        link, renew = self._reveals.next()
        history = self.progress.share_history()
        return Share(self._me, self.throw_index, now, link, renew, b"", state, history)

    def _thrown(self, thrower: int) -> None:
        """Every other seat reveals its next link as soon as the thrower's share is in."""
        if self.seat is not None and self.seat != thrower:
            self._auto_reveal()

    def _auto_reveal(self) -> None:
        signed, raw = self._sign(self._make_share(self.progress.floor))
        self._seen[(signed.KIND, signed.seat, signed.n)] = raw
        self._held.add(raw)
        self._pending.append((signed, raw))

    def _see(self, now: int) -> None:
        """Networked: when the record that made it our turn came late, say when we saw it
        (our time limit then runs from here; see :class:`~protocol.messages.Seen`)."""
        progress = self.progress
        if (
            not self._echoed
            or self._restoring
            or self.ended is not None
            or self.seat is None
            or progress.human_turn() != self.seat
            or self._flight.deferred
            or self._seen_sent == progress.position
            or progress.seen_at == progress.position
            or now - progress.floor <= late_after(self.setup.proposal.time_limit_ms)
            or now > progress.deadline()
        ):
            return
        self._seen_sent = progress.position
        # It stands: it is our turn, and nothing of ours is on its way but what led to it.
        signed, raw = self._sign(Seen(self._me, progress.position, now, b"", progress.digest))
        self._handle(signed, raw)
