"""Late spectators, sans-I/O: the match so far for a spectator the relay could not replay it to.

Spectators may not send, so a spectator who joins after the relay's backlog stopped reaching
back to the match's start cannot ask anyone for it. The relay announces him instead (a
``watching`` presence event, numbered in the room's one stream, so every player hears of him
at the same place) and one player sends the match so far: a
:class:`~client.net.wire.Spectate` (the match's setup, and how many records follow), then
the records in :class:`~client.net.wire.Transcript` payloads. Nothing in it is the sender's
word: the setup is its players' signed joins, every record is signed by its own seat, and
the spectator's session checks each one as a player's does.

- :func:`sender` — who sends: the lowest connected relay seat that plays in the match, so
  that exactly one player does and every player agrees which (:func:`chosen`: whether we do);
- :class:`Offers` — a player's catch-ups: one on its way at a time, one more after it if a
  spectator came while it was being placed (he may have missed its beginning), and never two
  closer than :data:`CATCH_UP_SPACING_MS` (a spectator coming and going in a loop cannot keep
  a player sending the whole match);
- :class:`Arrival` — the spectator's side, payloads in as the room says them: which
  catch-up it takes (into the spectator's :class:`~client.net.playing.Playing`), what it
  holds back until that catch-up came whole, and the fault of a sender whose catch-up is not
  the match. Once it is over, the shell takes what was held, in the room's order.

>>> sender(connected={0, 1, 2}, playing={1: 0, 2: 1})
1
>>> offers = Offers()
>>> offers.came(chosen=True, now=0)
True
>>> offers.sent(b"setup", b"records")
>>> offers.came(chosen=True, now=1)  # announced before our catch-up: it serves him too
False
>>> offers.placed(b"setup", now=2)
>>> offers.came(chosen=True, now=3)  # announced in the middle of it
False
>>> offers.placed(b"records", now=4)  # so one more, once the spacing has passed
>>> offers.due(now=4 + CATCH_UP_SPACING_MS - 1), offers.due(now=4 + CATCH_UP_SPACING_MS)
(False, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from client.i18n import _, ngettext, say
from client.net import wire
from client.net.catchup import transcript
from client.net.playing import Playing
from client.net.roster import Roster
from protocol.clock import duration
from protocol.codec import unpack_transcript
from protocol.errors import BadTime, MalformedMessage, ProtocolError, RemoteProtocolError
from protocol.messages import Chat, Resign, Share, decode_message
from protocol.progress import Progress
from protocol.session import MatchSession
from protocol.setup import MatchSetup, check_start

MAX_HELD = 4096  # payloads a spectator holds back while its catch-up comes, at most
CATCH_UP_SPACING_MS = 10_000
"""The least time from one catch-up placed whole to the next one sent. A spectator token is
a room's public half: one holder reconnecting in a loop is announced again and again, and
each catch-up of a long match is a megabyte that the relay's rate paces over seconds on the
sender's connection. Spaced so, it takes at most a third of that connection's time (3.7 s
for the longest match there is, docs/networked-play.md); an honest second spectator waits
at most this long."""


def sender(connected: Iterable[int], playing: Mapping[int, int]) -> int | None:
    """The relay seat that sends a late spectator the match: the lowest of the *connected*
    relay seats that play in it (*playing*: relay seat -> match seat)."""
    return min((seat for seat in connected if seat in playing), default=None)


def chosen(roster: Roster, seat: int) -> bool:
    """Whether this player, in match seat *seat*, is the one who sends (:func:`sender`)."""
    me = roster.me
    assert me is not None  # seated
    return sender(roster.connected(), {**roster.seat_of_member, me: seat}) == me


def catch_up(setup: bytes, records: Sequence[bytes]) -> list[wire.Payload]:
    """The match so far, as a late spectator takes it: the setup and the record count,
    then the records in transcripts that each fit the relay's frame."""
    return [wire.Spectate(setup, len(records)), *transcript(records, 0)]


def misplaced(progress: Progress, record: bytes) -> bool:
    """Whether a catch-up's *record* commits to another history than the match's at the
    place the catch-up gives it (*progress*: the match up to there).

    Every game record is signed over the digest of the records before it, so a record moved,
    or one whose predecessors were left out, says so before anything else is checked: that
    is the catch-up sender's doing, not the record's signer's, and the spectator names him
    with the record's place (the session would refuse it too, as out of place, naming
    nobody: :class:`~protocol.errors.OutOfPlace`). Chat lines commit to no history; a
    record that cannot be read is the session's to refuse.
    """
    try:
        message = decode_message(record)
    except MalformedMessage:
        return False
    if isinstance(message, Chat):
        return False
    if isinstance(message, Share):
        return message.history != progress.share_history()
    if isinstance(message, Resign):  # it may have been signed a few records earlier
        return message.n > progress.position or message.history != progress.digest_at(message.n)
    return message.history != progress.digest


class Offers:
    """A player's catch-ups in one match: at most one on its way through the relay, and
    :data:`CATCH_UP_SPACING_MS` at least between the end of one and the next.

    Our own payloads come back in their place in the room's order. A spectator announced
    before our catch-up's first payload is placed receives all of it; one announced after
    that, but before its last, may have missed its beginning: he gets another once this
    one is placed and the spacing has passed (one, whatever their number). So a spectator
    coming and going cannot make us send more than one catch-up at a time, nor one after
    another.
    """

    def __init__(self, spacing_ms: int = CATCH_UP_SPACING_MS) -> None:
        self._spacing_ms = spacing_ms
        self._first: bytes | None = None  # the catch-up on its way: its first payload…
        self._last: bytes | None = None  # …and its last, as sent
        self._again = False  # a spectator came while it was being placed
        self._placed_at: int | None = None  # when the last one was placed whole
        self._waiting = False  # one is owed once the spacing has passed (:meth:`due`)
        self._owed = False  # announced while we could not send (see :meth:`came`)

    def came(self, *, chosen: bool, now: int, ready: bool = True) -> bool:
        """A late spectator was announced at *now*: True if we send a catch-up now. Not
        *ready* (the next match is being set up, or ours would lack what the room said: see
        the shell), he gets the next match's once it begins (:meth:`begun`), or ours once we
        may send it (:meth:`settled`); too soon after the last one, he gets it when
        :meth:`due` says so."""
        if not chosen:
            return False
        if not ready:
            self._owed = True
            return False
        if self._last is None:
            if self._too_soon(now):
                self._waiting = True
                return False
            return True
        if self._first is None:  # its beginning is placed already: he may have missed it
            self._again = True
        return False

    def due(self, now: int) -> bool:
        """The time passed: True if a catch-up held back by the spacing is to be sent now."""
        if not self._waiting or self._last is not None or self._too_soon(now):
            return False
        self._waiting = False
        return True

    def _too_soon(self, now: int) -> bool:
        return self._placed_at is not None and now < self._placed_at + self._spacing_ms

    def offer(self, session: MatchSession) -> list[bytes]:
        """The catch-up to send now, encoded: the match so far, as *session* holds it."""
        # The logged records: those placed in the relay's order. Ours on their way reach the
        # spectator in their places; the shell offers when nothing was taken behind them.
        payloads = [wire.encode(p) for p in catch_up(session.setup.encode(), session.records)]
        self.sent(payloads[0], payloads[-1])
        return payloads

    def sent(self, first: bytes, last: bytes) -> None:
        """A catch-up went out, from payload *first* to *last*."""
        self._first, self._last = first, last

    def lost(self) -> None:
        """The catch-up on its way was never sent (the sender's queue of answers was full):
        another is owed, :meth:`due` once the spacing has passed."""
        self._first = self._last = None
        self._waiting = True

    def settled(self, now: int) -> bool:
        """We may send again (in step, nothing of ours on its way): True if a spectator
        announced while we could not is to get a catch-up now — as if announced now, so
        the spacing and the one-at-a-time rule hold for him as for any other."""
        owed, self._owed = self._owed, False
        return owed and self.came(chosen=True, now=now)

    def begun(self) -> bool:
        """A new match began: True if a spectator announced meanwhile is owed its catch-up
        (a new match's is short: sent at once, whatever the spacing)."""
        owed = self._owed or self._waiting
        self._owed = self._waiting = self._again = False
        self._first = self._last = None  # what was on its way was the match before's
        self._placed_at = None
        return owed

    def placed(self, data: bytes, now: int) -> None:
        """Our payload *data* came back in its place at *now*. The last of a catch-up ends
        it; one more, if a spectator came meanwhile, is :meth:`due` after the spacing."""
        if data == self._first:
            self._first = None
        if data != self._last:
            return
        self._last = None
        self._placed_at = now
        if self._again:
            self._again, self._waiting = False, True


class Arrival:
    """A spectator the relay could not replay the match to, until a catch-up came whole.

    It takes the first :class:`~client.net.wire.Spectate` whose setup holds from the one
    player chosen to send it (:meth:`expected`; another's is held, as any payload: else
    whoever sends first could announce a long match, send little of it, and have the room's
    traffic pile up until the chosen player is named); from then on the sender's next
    payloads must be the records it announced, from the first, in transcripts. Everything
    else the room says meanwhile is held back and taken after the catch-up, in the room's
    order (records the catch-up held too are dropped as copies).
    A catch-up that is not the match is its sender's fault, and the arrival is over,
    :attr:`refused`: what came after it could not be checked against the match.
    """

    def __init__(self, since: int) -> None:
        self.since = since  # ms: when the relay announced us
        self.source: int | None = None  # the relay seat whose catch-up we take
        self.have = 0  # the records it announced
        self.held: list[tuple[int, bytes]] = []
        self.refused = False  # the catch-up was not the match: follow the room no further

    def receive(
        self,
        relay_seat: int,
        data: bytes,
        now: int,
        playing: Playing,
        begin: Callable[[MatchSetup, int], None],
    ) -> bool:
        """One payload of the room's, the catch-up not complete: take it into *playing* if
        it is the catch-up (*begin*: the shell begins the match it sets up), else hold it.
        True once the arrival is over: :attr:`refused`, or :attr:`held` to take now."""
        try:
            payload: wire.Payload | None = wire.decode(data)
        except wire.WireError:
            payload = None  # said when it is taken, in its place
        expected = self.expected(playing.roster.connected())
        if self.source is None and isinstance(payload, wire.Spectate) and relay_seat == expected:
            self._take_offer(relay_seat, payload, now, playing, begin)
        elif self.source == relay_seat and isinstance(payload, wire.Transcript):
            if self._take_catch_up(relay_seat, payload, now, playing):
                return True
        else:
            held = self.hold(relay_seat, data)
            if self.source == relay_seat:  # its catch-up is over, short of what it said
                return self._refuse(relay_seat, self.dropped(_records(playing)), playing)
            if not held:  # the one who announced it, or should have sent it, did not
                blamed = self.source if self.source is not None else expected
                blamed = relay_seat if blamed is None else blamed
                return self._refuse(blamed, self.overflow(), playing)
            return False
        return self.complete(_records(playing))

    def gone(self, relay_seat: int, playing: Playing) -> bool:
        """*relay_seat* left the room: True if it was sending our catch-up (refused)."""
        if self.source != relay_seat:
            return False
        return self._refuse(relay_seat, self.left(_records(playing)), playing)

    @staticmethod
    def expected(connected: Iterable[int]) -> int | None:
        """Whom a late spectator expects its catch-up from, and names when none comes: the
        lowest connected relay seat (:func:`sender` when every connected seat plays)."""
        return min(connected, default=None)

    def _take_offer(
        self,
        relay_seat: int,
        offer: wire.Spectate,
        now: int,
        playing: Playing,
        begin: Callable[[MatchSetup, int], None],
    ) -> None:
        try:
            setup = MatchSetup.decode(offer.setup)
            check_start(setup.proposal, now)  # its deadlines within reach of our clock
        except ProtocolError as error:
            playing.blame(relay_seat, self.bad_setup(say(error.reason)), fatal=True)
            return
        if playing.session is None or setup != playing.session.setup:
            begin(setup, now)
        self.take(relay_seat, offer.have)

    def _take_catch_up(
        self, relay_seat: int, part: wire.Transcript, now: int, playing: Playing
    ) -> bool:
        """Records of the catch-up we take: each new one checked where it stands first (a
        record out of its place is the sender's doing), then as a live one is. True: the
        arrival is over (refused, or cut short by a fault that is not the sender's)."""
        session = playing.session
        assert session is not None
        if part.start > len(session.records):
            return self._refuse(relay_seat, self.skipped(part.start, len(session.records)),
                                playing)  # fmt: skip
        try:
            records = unpack_transcript(part.data)
            for index, record in enumerate(records, part.start):
                if index < len(session.records):
                    continue  # held already (an earlier catch-up's)
                if misplaced(session.progress, record):
                    return self._refuse(relay_seat, self.out_of_place(index), playing)
                playing.take(session.receive_bytes(record, now))
        except RemoteProtocolError as error:
            if error.fatal or isinstance(error, BadTime):
                # Signed, at its place, against the rules: its signer's fault; or dated
                # ahead of our clock: one of two clocks is wrong, as it would be live.
                playing.remote_error(None, error)
                return True
            # not signed by the seat it names, as it came: the sender's doing
            return self._refuse(relay_seat, self.false(say(error.reason)), playing)
        playing.cut_turn()
        return False

    def _refuse(self, relay_seat: int, text: str, playing: Playing) -> bool:
        """The catch-up is not the match, by its sender's doing: say so (the arrival is
        over: what came after it could not be checked against the match)."""
        playing.blame(relay_seat, text, fatal=True)
        self.refused = True
        return True

    def note(self, playing: Playing, now: int) -> str:
        """What the room screen says while the spectator waits: for whom to send the match
        (nobody, if nobody is connected), since when."""
        first = self.expected(playing.roster.connected())
        sender = None if first is None else playing.who(first)
        waited = say(duration(now - self.since))
        if sender is None:
            return _(
                "The match began before you arrived and the relay no longer holds its start: "
                "waiting for a player to connect and send it (for {waited})."
            ).format(waited=waited)
        return _(
            "The match began before you arrived and the relay no longer holds its start: "
            "waiting for {sender} to send it (for {waited})."
        ).format(sender=sender, waited=waited)

    def take(self, relay_seat: int, have: int) -> None:
        self.source, self.have = relay_seat, have

    def hold(self, relay_seat: int, data: bytes) -> bool:
        """Keep a payload for later; False once too many wait (no catch-up is coming)."""
        self.held.append((relay_seat, data))
        return len(self.held) <= MAX_HELD

    def complete(self, records: int) -> bool:
        return self.source is not None and records >= self.have

    def dropped(self, records: int) -> str:
        """The sender said something else before its catch-up came whole."""
        return ngettext(
            "stopped its catch-up after {records} of the {have} record it announced",
            "stopped its catch-up after {records} of the {have} records it announced",
            self.have,
        ).format(records=records, have=self.have)

    def left(self, records: int) -> str:
        return ngettext(
            "left before its catch-up was complete ({records} of the {have} record it "
            "announced)",
            "left before its catch-up was complete ({records} of the {have} records it "
            "announced)",
            self.have,
        ).format(records=records, have=self.have)

    @staticmethod
    def out_of_place(index: int) -> str:
        return _(
            "sent a false catch-up: its record {index} does not follow the ones before it "
            "(records left out, or out of their order)"
        ).format(index=index + 1)

    @staticmethod
    def short() -> str:
        """Its own record, after its catch-up, does not follow it: the catch-up was short."""
        return _("sent a catch-up short of the match: a record of theirs since does not follow it")

    @staticmethod
    def skipped(start: int, records: int) -> str:
        return _(
            "sent a catch-up that skips records (it went on at record {start}, after {records})"
        ).format(start=start + 1, records=records)

    @staticmethod
    def false(reason: str) -> str:
        return _("sent a false catch-up: {reason}").format(reason=reason)

    @staticmethod
    def bad_setup(reason: str) -> str:
        return _("sent a catch-up whose match setup does not hold: {reason}").format(
            reason=reason
        )

    @staticmethod
    def overflow() -> str:
        return _("sent no catch-up while the room went on: what came before you arrived is missing")


def _records(playing: Playing) -> int:
    """The records the spectator holds (none before the catch-up's setup began a match)."""
    return 0 if playing.session is None else len(playing.session.records)
