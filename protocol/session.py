"""The match session: one player's (or a spectator's) sans-I/O view of a match.

Bytes from peers and the caller's clock go in (:meth:`MatchSession.receive_bytes`); events and
bytes to send come out (:meth:`MatchSession.data_to_send`). Every message is signature-checked
against its seat's key, every dice share against that seat's chain, every Jacquet play
against our own engine and the sender's state hash. The first fault stops the match with a
typed :class:`~protocol.errors.RemoteProtocolError` naming the seat.

Order. The shares of a throw are accepted in one canonical order — the thrower's first, then
the other seats' in seat order — whatever order they arrive in (early ones wait in a small
buffer), so every client accepts, and logs, the same records in the same order. A spectator
replaying a log (``strict=True``) accepts only that order.

Networked (``echoed=True``), the log follows the relay's one order of the room's messages,
which the relay delivers to every member, the sender included: this seat's own messages
change the game at once, but each is logged only when its echo comes back (or a peer's
transcript brings it), at the place a spectator of the relay's stream would log it. A chat
line is logged where it comes in; a game record once it and every record before it in the
canonical order came in. So a chat line said while a throw is on its way lands at the same
place in every client's log.

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
from typing import Any, Final, Protocol

from engine.awaiting import ChoosePlay, Finished, MissTurn, ThrowDice
from engine.canonical import state_hash
from engine.errors import EngineError
from protocol.chain import HashChain, link_follows
from protocol.codec import pack, unpack_transcript
from protocol.dice import derive_dice
from protocol.errors import (
    BadShare,
    BadSignature,
    Desync,
    IllegalPlay,
    LocalProtocolError,
    MalformedMessage,
    ProtocolError,
    RemoteProtocolError,
    TimedOut,
)
from protocol.events import (
    ChatReceived,
    DiceRolled,
    Ignored,
    MatchEnded,
    PlayMade,
    ShareRevealed,
)
from protocol.identity import Identity, RandomSource, verify_signature
from protocol.messages import (
    MAX_CHAT_CHARS,
    Chat,
    Claim,
    GameMessage,
    Play,
    Resign,
    Share,
    decode_message,
    seal,
    signed_data,
)
from protocol.setup import MatchSetup

CLOCK_TOLERANCE_MS: Final = 60_000
"""A live abandonment claim dated further than this in our future is refused."""


class RecordSink(Protocol):
    """Where accepted records go as they are accepted (a :class:`~protocol.logfile.LogWriter`)."""

    def append(self, record: bytes) -> None: ...


class MatchSession:
    """One seat's session (``seat=None``: a spectator, or a verifier with ``strict=True``)."""

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
    ) -> None:
        if seat is not None:
            if not 0 <= seat < setup.seats:
                raise LocalProtocolError(f"there is no seat {seat} in a {setup.seats}-seat match")
            if identity is None or identity.public_key != setup.public_keys[seat]:
                raise LocalProtocolError(f"seat {seat} needs the identity it joined with")
            if chain is None or chain.tip != setup.tips[seat]:
                raise LocalProtocolError(f"seat {seat} needs the chain it committed to")
        self.setup = setup
        self.seat = seat
        self.match_id = setup.match_id
        self.game = setup.proposal.rules
        self.state: Any = self.game.new_state(setup.proposal.engine_options())
        self.records: list[bytes] = []
        self.ended: MatchEnded | None = None
        self.stopped: RemoteProtocolError | None = None
        self.throw_index = 0
        self.turns = 0
        self.last_progress = setup.proposal.start_time
        self.last_message: GameMessage | None = None
        self._identity = identity
        self._chain = chain
        self._revealed = 0
        self._random_source = random_source
        self._log = log
        self._strict = strict
        self._keys = setup.public_keys
        self._names = setup.names
        self._orders = {
            thrower: (thrower, *(seat for seat in range(setup.seats) if seat != thrower))
            for thrower in range(setup.seats)
        }
        self._verify = verify
        self._prepared: tuple[str, Any] | None = None
        self._hashed: tuple[Any, bytes] | None = None
        self._expected: list[bytes] = list(setup.tips)
        self._links: dict[int, bytes] = {}
        self._chats = [0] * setup.seats
        self._seen: dict[tuple[int, int, int], bytes] = {}
        self._pending: list[tuple[GameMessage, bytes]] = []
        self._outbox: list[bytes] = []
        self._events: list[Any] = []
        self._echoed = echoed
        self._unechoed: dict[bytes, bool] = {}  # own records sent, not back yet -> is a chat
        self._held: list[bytes] = []  # game records accepted, not logged yet (canonical order)
        self._restored = False  # restore(): own messages from before a restart are accepted
        self._skip_missed_turns()

    # ----------------------------------------------------------------- what callers read

    @property
    def awaiting(self) -> ThrowDice | ChoosePlay | Finished:
        """The engine's question, or ``Finished()`` once the match ended for any reason."""
        if self.ended is not None:
            return Finished()
        awaiting = self.state.awaiting
        assert not isinstance(awaiting, MissTurn)  # applied automatically
        return awaiting  # type: ignore[no-any-return]

    def deadline(self) -> int:
        """Time (ms) after which the seats still awaited can be claimed abandoned."""
        return self.last_progress + self.setup.proposal.time_limit_ms

    def awaited_seats(self) -> tuple[int, ...]:
        """The seats whose message the match is waiting for (empty when it is over)."""
        awaiting = self.awaiting
        if isinstance(awaiting, ChoosePlay):
            return (awaiting.seat,)
        if isinstance(awaiting, ThrowDice):
            if not self._links:  # nobody may reveal before the thrower
                return (awaiting.seat,)
            return self._share_order(awaiting.seat)[len(self._links) :]
        return ()

    def unlogged(self) -> int:
        """Networked: how many accepted records wait for this seat's echo to be logged."""
        return len(self._held) + sum(self._unechoed.values())

    def flush_log(self) -> None:
        """Log whatever still waits for an echo (the match is being left: lose nothing)."""
        held, self._held = self._held, []
        chats = [raw for raw, chat in self._unechoed.items() if chat]
        self._unechoed.clear()
        for raw in [*held, *chats]:
            self._write(raw)

    def data_to_send(self) -> list[bytes]:
        """Drain the outbox: this seat's messages, each to be sent to every peer."""
        out, self._outbox = self._outbox, []
        return out

    def transcript_from(self, index: int) -> bytes:
        """Records ``index`` onward, for a peer that lost them (see :meth:`receive_transcript`)."""
        if not 0 <= index <= len(self.records):
            raise LocalProtocolError(f"there is no record {index} (have {len(self.records)})")
        return pack(self.records[index:])

    # ----------------------------------------------------------------- this seat's actions

    def throw(self, now: int) -> list[Any]:
        """Take the awaited throw: reveal this seat's next link first."""
        self._check_can_act()
        awaiting = self.awaiting
        if not isinstance(awaiting, ThrowDice) or awaiting.seat != self.seat or self._links:
            raise LocalProtocolError("it is not your throw", seat=self.seat)
        return self._act(self._make_share(now, state=self._hash(self.state)))

    def play(self, play: Any, now: int) -> list[Any]:
        """Jacquet: play *play* (an engine Play) with the dice thrown."""
        self._check_can_act()
        awaiting = self.awaiting
        if not isinstance(awaiting, ChoosePlay) or awaiting.seat != self.seat:
            raise LocalProtocolError("it is not your turn to play", seat=self.seat)
        notation = self.game.format_play(play)
        try:
            transition = self.game.play(self.state, notation)
        except EngineError as error:
            raise LocalProtocolError(str(error), seat=self.seat) from None
        self._prepared = (notation, transition)  # checked once: _try_play reuses it
        after = self._hash(transition.state)
        message = Play(self._me, self.throw_index - 1, now, notation, after, b"")
        return self._act(message)

    def chat(self, text: str, now: int) -> list[Any]:
        """Send a signed chat line (printable text, at most 500 characters)."""
        self._check_can_act(allow_ended=True)
        if not text or len(text) > MAX_CHAT_CHARS or not text.isprintable():
            raise LocalProtocolError(
                f"a chat line is 1 to {MAX_CHAT_CHARS} printable characters", seat=self.seat
            )
        return self._act(Chat(self._me, self._chats[self._me], now, text, b""))

    def resign(self, now: int) -> list[Any]:
        """Resign the match (signed and logged)."""
        self._check_can_act()
        return self._act(Resign(self._me, self.throw_index, now, b""))

    def claim_abandonment(self, accused: int, now: int) -> list[Any]:
        """Claim that *accused*, awaited past the time limit, abandoned the match."""
        self._check_can_act()
        if accused not in self.awaited_seats() or accused == self.seat:
            raise LocalProtocolError(f"seat {accused} is not the one the match is waiting for")
        if now < self.deadline():
            seconds = (self.deadline() - now + 999) // 1000
            raise LocalProtocolError(f"seat {accused} still has {seconds} s to answer")
        return self._act(Claim(self._me, self.throw_index, now, accused, b""))

    # ----------------------------------------------------------------- what peers send

    def receive_bytes(self, data: bytes, now: int, *, sender: int | None = None) -> list[Any]:
        """Handle one wire message; return the events it caused, in order.

        *sender* is the seat of the connection the message came from (the relay says who
        sent each frame), or None when that is not known (a record of a log or of a peer's
        transcript). A message that proves nothing against the seat it names — bytes that
        are not a message, a signature that does not verify, a message signed for a seat
        other than its sender's — is dropped: the error raised names the sender (``seat``)
        and the match goes on. A signed message that breaks the rules stops the match
        (:attr:`stopped`), naming the seat that signed it.
        """
        if self.stopped is not None:
            raise LocalProtocolError(f"the match was stopped: {self.stopped}")
        message = self._authenticated(data, sender)
        if message is None:
            self._came_back(bytes(data))
            return [Ignored("our own message, echoed back")]
        try:
            if message.seat == self.seat and isinstance(message, Share):
                self._adopt(message)
            self._handle(message, bytes(data), now)
        except RemoteProtocolError as error:
            self._stop(error, bytes(data))
            raise
        return self._take_events()

    def _authenticated(self, data: bytes, sender: int | None) -> GameMessage | None:
        """*data* decoded and signature-checked (None: our own message, echoed back).

        Raises, without stopping the match, when the message proves nothing against the seat
        it names; the error's ``seat`` is then *sender* (who sent it), not that seat.
        """
        try:
            message = decode_message(data)
        except RemoteProtocolError as error:
            raise type(error)(error.reason, seat=sender) from None
        self.last_message = message
        seat = message.seat
        if seat >= self.setup.seats:
            raise MalformedMessage(f"no seat {seat} in this match", seat=sender)
        if sender is not None and seat != sender:
            raise BadSignature(
                f"{self._names[sender]} sent a message in {self._names[seat]}'s name", seat=sender
            )
        if seat == self.seat:
            if self._seen.get(_key(message)) == bytes(data):
                return None
            if not self._restored:
                raise BadSignature("a message claims to come from our own seat", seat=sender)
        signed = signed_data(self.match_id, message.unsigned_fields())
        if not self._verify(self._keys[seat], message.signature, signed):
            source = "" if sender is None else f" from {self._names[sender]}"
            raise BadSignature(
                f"a message{source} claiming to be {self._names[seat]}'s "
                "is not signed by their key",
                seat=sender,
            )
        return message

    def restore(self, records: Sequence[bytes], now: int) -> list[Any]:
        """Take this seat back after its program stopped: replay its log's *records*.

        Every record is checked as a live message is; this seat's own ones (made by the
        program that stopped) against its own key and chain, which moves past them. Nothing
        is logged again. From then on, this seat's own messages that this session did not
        make (sent just before the stop, coming back from the relay or in a peer's
        transcript) are accepted the same way. Messages that only repeat logged ones (the
        automatic dice reveals, made again byte for byte) are not left to send.
        """
        if self.seat is None or self.records:
            raise LocalProtocolError("only a fresh seated session can be restored")
        self._restored = True
        log, self._log = self._log, None
        try:
            events = [event for record in records for event in self.receive_bytes(record, now)]
        finally:
            self._log = log
        self._outbox = [raw for raw in self._outbox if raw in self._unechoed]
        return events

    def receive_transcript(
        self, data: bytes, now: int, *, sender: int | None = None
    ) -> list[Any]:
        """Resync: check and replay records a peer sent (from :meth:`transcript_from`).

        Records already held are skipped; every other one goes through the same checks as a
        live message, so a lying peer cannot slip anything in. *sender* is the seat that sent
        the transcript: a record in it that proves nothing against the seat it names (not a
        message, not signed by that seat) drops the rest of the transcript, naming *sender*.
        """
        try:
            records = unpack_transcript(data)
        except MalformedMessage as error:
            raise MalformedMessage(error.reason, seat=sender) from None
        events: list[Any] = []
        for record in records:
            try:
                received = self.receive_bytes(record, now)
            except RemoteProtocolError as error:
                if self.stopped is not None:  # a signed fault: its signer is to blame
                    raise
                raise type(error)(f"in a transcript: {error.reason}", seat=sender) from None
            events.extend(e for e in received if not isinstance(e, Ignored))
        return events

    # ----------------------------------------------------------------- internals

    @property
    def _me(self) -> int:
        assert self.seat is not None
        return self.seat

    def _check_can_act(self, *, allow_ended: bool = False) -> None:
        if self.seat is None:
            raise LocalProtocolError("a spectator cannot act in the match")
        if self.stopped is not None:
            raise LocalProtocolError(f"the match was stopped: {self.stopped}")
        if self.ended is not None and not allow_ended:
            raise LocalProtocolError("the match is over")

    def _sign(self, message: GameMessage) -> tuple[GameMessage, bytes]:
        assert self._identity is not None
        signed = seal(message, self._identity, self.match_id)
        return signed, signed.encode()

    def _act(self, message: GameMessage) -> list[Any]:
        signed, raw = self._sign(message)
        self._outbox.append(raw)
        if self._echoed:
            self._unechoed[raw] = isinstance(message, Chat)
        try:
            self._handle(signed, raw, message.time)
        except RemoteProtocolError as error:
            self._stop(error, None)
            raise
        return self._take_events()

    def _make_share(self, now: int, *, state: bytes | None = None) -> Share:
        link, renew = self._next_link()
        return Share(self._me, self.throw_index, now, link, renew, b"", state)

    def _next_link(self) -> tuple[bytes, bytes | None]:
        """This seat's next link, and the new tip when it was the chain's last (renewed)."""
        assert self._chain is not None
        last = self._revealed + 1 == len(self._chain)
        if last and self._random_source is None:
            raise LocalProtocolError("renewing the dice chain needs a random source")
        link = self._chain.link(self._revealed)
        self._revealed += 1
        renew = None
        if last:
            assert self._random_source is not None
            self._chain = HashChain.generate(self._random_source)
            self._revealed = 0
            renew = self._chain.tip
        return link, renew

    def _adopt(self, share: Share) -> None:
        """A share this seat made before a restart: the chain moves past its link as it did
        then (a renewal draws the same chain again from the same random source)."""
        assert self._chain is not None
        if share.link != self._chain.link(self._revealed):
            return  # not our next link: _handle refuses it as a replay or a forgery
        _, renew = self._next_link()
        if renew != share.renew:
            raise LocalProtocolError(
                "this seat's renewed dice chain cannot be rebuilt: "
                "the random source differs from the one that renewed it"
            )

    def _hash(self, state: Any) -> bytes:
        """``state_hash(state)``, remembered for the last state: a Jacquet play's resulting
        state is hashed once for the play and reused for the next thrower's share."""
        if self._hashed is None or self._hashed[0] is not state:
            self._hashed = (state, state_hash(state))
        return self._hashed[1]

    def _take_events(self) -> list[Any]:
        events, self._events = self._events, []
        return events

    def _stop(self, error: RemoteProtocolError, record: bytes | None) -> None:
        self.flush_log()  # what we accepted, then the offending record last
        if record is not None:
            self._write(record)
        self.stopped = error
        self.ended = MatchEnded("stopped", seat=error.seat, error=error)
        self._events = []  # the caller gets the error; ``ended`` says the rest
        self._pending.clear()

    def _record(self, raw: bytes, *, chat: bool = False) -> None:
        """Log an accepted record, or hold it until it and what comes before it came back."""
        if raw in self._unechoed:
            if not chat:
                self._held.append(raw)
        elif self._held and not chat:
            self._held.append(raw)
        else:
            self._write(raw)

    def _came_back(self, raw: bytes) -> None:
        """Our own record came back through the relay: its place in the log is here."""
        if raw not in self._unechoed:
            return
        if self._unechoed.pop(raw):
            self._write(raw)
        while self._held and self._held[0] not in self._unechoed:
            self._write(self._held.pop(0))

    def _write(self, raw: bytes) -> None:
        self.records.append(raw)
        if self._log is not None:
            self._log.append(raw)

    def _handle(self, message: GameMessage, raw: bytes, now: int) -> None:
        key = _key(message)
        previous = self._seen.get(key)
        if previous is not None:
            if previous == raw and not self._strict:
                self._events.append(Ignored("a message already received"))
                return
            raise _equivocation(message, replayed=previous == raw)
        if self.ended is not None and not isinstance(message, Chat):
            if self._strict:
                raise IllegalPlay("a game message after the end of the match", seat=message.seat)
            self._events.append(Ignored("the match is already over"))
            return
        self._seen[key] = raw
        if not self._try(message, raw, now):
            if self._strict or len(self._pending) >= 2 * self.setup.seats + 4:
                raise _out_of_order(message, self)
            self._pending.append((message, raw))
            return
        self._drain_pending(now)

    def _drain_pending(self, now: int) -> None:
        progress = True
        while progress and self._pending and self.ended is None:
            progress = False
            for item in list(self._pending):
                if self._try(*item, now):
                    if item in self._pending:  # not cleared by the end of the match
                        self._pending.remove(item)
                    progress = True
                    break

    def _try(self, message: GameMessage, raw: bytes, now: int) -> bool:
        """Accept *message* if it is acceptable now; False if it may be later; raise if never."""
        if isinstance(message, Share):
            return self._try_share(message, raw)
        if isinstance(message, Play):
            return self._try_play(message, raw)
        if isinstance(message, Chat):
            if message.n != self._chats[message.seat]:
                return False
            self._chats[message.seat] += 1
            self._record(raw, chat=True)
            name = self._names[message.seat]
            self._events.append(ChatReceived(message.seat, name, message.text, message.time))
            return True
        if isinstance(message, Resign):
            self._record(raw)
            self._end(MatchEnded("resigned", winner=self._other(message.seat), seat=message.seat))
            return True
        return self._try_claim(message, raw, now)

    def _share_order(self, thrower: int) -> tuple[int, ...]:
        """Thrower first, then the other seats in seat order: the order shares are logged."""
        return self._orders[thrower]

    def _try_share(self, share: Share, raw: bytes) -> bool:
        awaiting = self.state.awaiting
        if share.n < self.throw_index:
            raise BadShare(f"a share for throw {share.n}, which is already over", seat=share.seat)
        if share.n > self.throw_index + 1:
            raise BadShare(
                f"a share for throw {share.n}, far ahead of {self.throw_index}", seat=share.seat
            )
        if share.n != self.throw_index or not isinstance(awaiting, ThrowDice):
            return False
        order = self._share_order(awaiting.seat)
        if order[len(self._links)] != share.seat:
            return False
        name = self._names[share.seat]
        if not link_follows(share.link, self._expected[share.seat]):
            raise BadShare(
                f"{name}'s dice share for throw {share.n} does not "
                "follow from their committed chain (a forged or replayed share)",
                seat=share.seat,
            )
        if not self._links and share.state != self._hash(self.state):
            raise Desync(f"{name} throws from a game state that differs from ours", seat=share.seat)
        if self._links and share.state is not None:
            raise MalformedMessage("only the thrower's share states the game", seat=share.seat)
        self._expected[share.seat] = share.renew if share.renew is not None else share.link
        self._links[share.seat] = share.link
        self._record(raw)
        self._progress(share.time)
        self._events.append(ShareRevealed(share.n, share.seat))
        if len(self._links) == 1 and self.seat is not None and self.seat != share.seat:
            self._auto_reveal(share.time)
        if len(self._links) == self.setup.seats:
            self._roll(awaiting)
        return True

    def _auto_reveal(self, now: int) -> None:
        signed, raw = self._sign(self._make_share(now))
        self._outbox.append(raw)
        if self._echoed:
            self._unechoed[raw] = False
        self._seen[_key(signed)] = raw
        self._pending.append((signed, raw))

    def _roll(self, awaiting: ThrowDice) -> None:
        links = [self._links[seat] for seat in range(self.setup.seats)]
        dice = derive_dice(self.match_id, self.throw_index, links, awaiting.count)
        self._events.append(DiceRolled(self.throw_index, awaiting.seat, dice))
        self.throw_index += 1
        self._links = {}
        self.turns += 1
        self._apply(self.game.throw(self.state, dice))

    def _apply(self, transition: Any) -> None:
        self.state = transition.state
        self._events.extend(transition.events)
        self._skip_missed_turns()
        if isinstance(self.state.awaiting, Finished):
            winner = getattr(self.state, "winner", None)
            self._end(MatchEnded("finished", winner=winner))

    def _skip_missed_turns(self) -> None:
        while isinstance(self.state.awaiting, MissTurn):
            self.turns += 1
            transition = self.game.miss_turn(self.state)
            self.state = transition.state
            self._events.extend(transition.events)

    def _try_play(self, message: Play, raw: bytes) -> bool:
        awaiting = self.state.awaiting
        name = self._names[message.seat]
        if not self.game.has_plays:
            raise IllegalPlay(
                f"{name} sent a play, but {self.game.name} has none", seat=message.seat
            )
        if message.n == self.throw_index and isinstance(awaiting, ThrowDice):
            return False  # its dice are not all revealed here yet
        if message.n != self.throw_index - 1 or not isinstance(awaiting, ChoosePlay):
            raise IllegalPlay(
                f"{name} sent a play for throw {message.n}, which is not awaited", seat=message.seat
            )
        if awaiting.seat != message.seat:
            raise IllegalPlay(f"{name} played out of turn", seat=message.seat)
        prepared, self._prepared = self._prepared, None
        try:
            if (
                message.seat == self.seat
                and prepared is not None
                and prepared[0] == message.notation
            ):
                transition = prepared[1]
            else:
                transition = self.game.play(self.state, message.notation)
        except EngineError as error:
            raise IllegalPlay(
                f"{name} played {message.notation!r}: {error}", seat=message.seat
            ) from None
        if self._hash(transition.state) != message.state_hash:
            raise Desync(
                f"after {name}'s play {message.notation!r} their game state differs from ours",
                seat=message.seat,
            )
        self._record(raw)
        self._progress(message.time)
        self._events.append(PlayMade(message.seat, message.notation))
        self._apply(transition)
        return True

    def _try_claim(self, claim: Claim, raw: bytes, now: int) -> bool:
        claimant = self._names[claim.seat]
        if claim.accused not in self.awaited_seats() or claim.accused == claim.seat:
            raise IllegalPlay(
                f"{claimant} claimed seat {claim.accused} abandoned, but the "
                "match is not waiting for that seat",
                seat=claim.seat,
            )
        if claim.time < self.deadline():
            raise IllegalPlay(
                f"{claimant} claimed an abandonment before the time limit", seat=claim.seat
            )
        if not self._strict and claim.time > now + CLOCK_TOLERANCE_MS:
            raise IllegalPlay(
                f"{claimant}'s abandonment claim is dated in the future", seat=claim.seat
            )
        self._record(raw)
        accused = claim.accused
        error = TimedOut(
            f"{self._names[accused]} did not answer within the time limit", seat=accused
        )
        self._end(MatchEnded("abandoned", winner=self._other(accused), seat=accused, error=error))
        return True

    def _progress(self, time: int) -> None:
        self.last_progress = max(self.last_progress, time)

    def _end(self, ended: MatchEnded) -> None:
        self.ended = ended
        self._pending.clear()
        self._events.append(ended)

    def _other(self, seat: int) -> int | None:
        return 1 - seat if self.setup.seats == 2 else None


def _key(message: GameMessage) -> tuple[int, int, int]:
    return (message.KIND, message.seat, message.n)


def _equivocation(message: GameMessage, *, replayed: bool) -> ProtocolError:
    what = {Share.KIND: "dice share", Play.KIND: "play", Chat.KIND: "chat line"}.get(
        message.KIND, "message"
    )
    error: Callable[..., ProtocolError] = BadShare if isinstance(message, Share) else IllegalPlay
    if replayed:
        return error(f"the {what} with index {message.n} is replayed", seat=message.seat)
    return error(f"a second, different {what} with index {message.n}", seat=message.seat)


def _out_of_order(message: GameMessage, session: MatchSession) -> ProtocolError:
    kind = type(message).__name__.lower()
    waiting = ", ".join(session._names[seat] for seat in session.awaited_seats()) or "nobody"
    error: Callable[..., ProtocolError] = BadShare if isinstance(message, Share) else IllegalPlay
    return error(
        f"a {kind} out of order (index {message.n}); the match awaits {waiting}", seat=message.seat
    )
