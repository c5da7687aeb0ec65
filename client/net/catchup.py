"""Catching up after a gap, sans-I/O: hellos and transcripts in, the payloads to send out.

When the relay could not replay everything a seat missed (it restarted, or the seat was away
longer than its backlog reaches), the seat says :class:`~client.net.wire.Hello` — "I am seat
*s* and hold *n* records" — and whoever holds more answers with the missing records as
:class:`~client.net.wire.Transcript` payloads (each record is signed: the receiver's session
checks every one again). :class:`CatchUp` decides who says what, so that the room hears
**one hello per reconnection** and **one answer per gap**:

- a seat says hello when it is caught up with the relay, and again only to ask for records a
  peer said it holds (never twice for the same count);
- a hello is answered by a hello only when its sender has not heard ours since it came (it
  joined or reconnected after we last spoke): our answer is for that arrival, once;
- records are sent to a seat at most once per :data:`ANSWER_SPACING_MS`, whatever it asks
  and however often it reconnects: within that time only records it was never sent (from
  earlier than the last answer began) go, and an ask for more is owed until the time has
  passed (:meth:`CatchUp.due`). The asker is known by its **match seat**, as signed data
  bound its relay seat (:mod:`client.net.roster`) — never by its connection, which it can
  renew at will, nor by the seat its hello claims — so a player reconnecting in a loop,
  saying hello each time, gets one transcript per spacing, not one per hello.

A seat back from a stopped app (resumed from its log) cannot know from the relay whether its
last messages got out: it waits for the word of every other seat (:attr:`CatchUp.unheard`)
before it may act, and :meth:`CatchUp.waiting` says whom it waits for and since when. Any seat
a peer said it holds more records than itself is **behind** (:attr:`CatchUp.behind`) until
it holds them: its board is not where the match stands, so it acts on none of it — for at
most :data:`BEHIND_LIMIT_MS` (:meth:`CatchUp.give_up`), after which it acts on what it holds
and claims said before it grows again hold it back no more.

>>> catch_up = CatchUp()
>>> catch_up.caught_up(0, 5, heard_by={0, 1}, now=0)
[Hello(seat=0, have=5, relay_seat=0, epoch=0)]
>>> [type(p).__name__ for p in catch_up.heard(
...     1, seat=1, have=3, my_seat=0, records=[b"r"] * 5, heard_by={0, 1}, now=0)]
['Transcript']
>>> catch_up.heard(1, seat=1, have=3, my_seat=0, records=[b"r"] * 5, heard_by={0, 1}, now=1)
[]
>>> catch_up.due([b"r"] * 5, now=ANSWER_SPACING_MS - 1)  # asked again too soon: owed...
[]
>>> [part.start for part in catch_up.due([b"r"] * 5, now=ANSWER_SPACING_MS)]  # ...then
[3]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from client.i18n import _, say
from client.net import wire
from protocol.clock import duration
from protocol.codec import pack
from protocol.identity import Identity, verify_signature
from protocol.setup import MatchSetup

RECORD_OVERHEAD = 8  # msgpack's framing of one record inside a transcript, at most
HELLO_DOMAIN = b"tablier-hello/1\0"  # (no game message's signature can pass for a hello's)
ANSWER_SPACING_MS = 10_000
"""The least time between two transcripts that send a seat the same records again. An
honest seat needs records again only after losing them (its app stopped, or the relay lost
the room: then every seat is numbered anew and nothing is owed to anyone); a hostile one
asking in a loop gets, per spacing, the match once — as a late spectator's catch-up is
spaced (:data:`client.net.spectators.CATCH_UP_SPACING_MS`)."""
BEHIND_LIMIT_MS = 2 * ANSWER_SPACING_MS
"""The longest a seat stays behind a peer's word that it holds more records (a hello): an
honest peer's transcript comes within one :data:`ANSWER_SPACING_MS` (an answer owed is sent
once it has passed). Less than the least time limit
(:data:`protocol.clock.MIN_TIME_LIMIT_MS`), so that a peer claiming records it never sends
cannot keep this seat from acting until its turn may be claimed."""


@dataclass(slots=True)
class _Answered:
    """Records sent to one asker: from ``start`` on, the last full answer at ``at`` (ms);
    ``owed``: the record it asked from since, to send once the spacing has passed."""

    start: int
    at: int
    owed: int | None = None


@dataclass(frozen=True, slots=True)
class Waiting:
    """A resumed seat waits for these match seats' word, since ``since`` (ms)."""

    seats: tuple[int, ...]
    since: int

    def note(self, names: Sequence[str], time_limit_ms: int, now: int) -> str:
        """Whom the seat waits for, how long, and what it can do, for the board catching up."""
        waited = now - self.since
        return _(
            "Back in your seat: waiting for {players} to say how far the match went (for "
            "{waited}), so that nothing you sent before stopping is said twice. Wait, or leave "
            "with esc (your seat is kept); if nobody answers within {left}, play goes on "
            "from where your log stops."
        ).format(players=", ".join(names[seat] for seat in self.seats),
                 waited=say(duration(waited)),
                 left=say(duration(time_limit_ms - waited)))  # fmt: skip


class CatchUp:
    """This seat's hellos and answers in one match (a rematch gets a new one)."""

    def __init__(self) -> None:
        self._said: int | None = None  # the record count our last hello said
        self._heard_by: set[int] = set()  # relay seats that heard our last hello
        self._answered: dict[int, _Answered] = {}  # by match seat: kept across reconnections
        self.unheard: set[int] = set()  # match seats a resumed seat waits to hear from
        # Match seat -> the records it said it holds, more than ours (an unheard seat's
        # word counts once we hold them; any seat's keeps us behind until then).
        self._claims: dict[int, int] = {}
        self._since = 0
        self._behind_since = 0  # when the first claim still held came
        self._gave_up: int | None = None  # the records we held when we stopped waiting

    @property
    def behind(self) -> bool:
        """A peer said it holds records this seat has not got yet."""
        return bool(self._claims)

    @property
    def in_step(self) -> bool:
        """Nothing more to hear before this seat may act."""
        return not self.unheard and not self._claims

    def waiting(self) -> Waiting | None:
        if not self.unheard:
            return None
        return Waiting(tuple(sorted(self.unheard)), self._since)

    def stop_waiting(self) -> None:
        """Act without the others' word (past the time limit, nobody answered), on the
        records this seat holds."""
        self.unheard.clear()
        self._claims.clear()

    def give_up(self, have: int, now: int) -> bool:
        """True if this seat, behind for :data:`BEHIND_LIMIT_MS` by *now* with *have*
        records, stops waiting for what the peers said they hold: claims hold it back
        again only once it holds more than *have*."""
        if not self._claims or now - self._behind_since < BEHIND_LIMIT_MS:
            return False
        self._claims.clear()
        self._gave_up = have
        return True

    def came(self, relay_seat: int) -> None:
        """*relay_seat* joined or reconnected: it has heard nothing from us since (what we
        sent it before is paced as if it had: the relay replays it what it missed)."""
        self._heard_by.discard(relay_seat)

    def renumbered(self) -> None:
        """A re-created room: every relay seat is someone new, and the relay lost what we
        sent (nothing answered before counts)."""
        self._heard_by.clear()
        self._answered.clear()

    def caught_up(
        self,
        seat: int | None,
        have: int,
        *,
        heard_by: Iterable[int],
        wait_for: Iterable[int] = (),
        now: int,
    ) -> list[wire.Payload]:
        """The relay replayed all it kept for this connection: say where we stand (once).
        ``wait_for``: the match seats whose word a resumed seat needs before it may act."""
        waited = set(wait_for)
        if waited:
            self.unheard, self._since = waited, now
        self._said = None  # a new connection: the others need to hear our count again
        return self._say(seat, have, heard_by)

    def heard(
        self,
        relay_seat: int,
        *,
        seat: int,
        have: int,
        my_seat: int | None,
        records: Sequence[bytes],
        heard_by: Iterable[int],
        now: int,
    ) -> list[wire.Payload]:
        """Match seat *seat* (relay seat *relay_seat*, as its signed hello bound it) says it
        holds *have* records."""
        out: list[wire.Payload] = []
        mine = len(records)
        if have < mine:
            out.extend(self._answer(seat, have, records, now))
        if have <= mine:
            self.unheard.discard(seat)
        elif self._gave_up is None or mine > self._gave_up or seat in self.unheard:
            if not self._claims:  # behind from now (an unheard seat's word: once we hold it)
                self._behind_since = now
            self._claims[seat] = max(have, self._claims.get(seat, 0))
        if relay_seat not in self._heard_by:
            self._said = None  # it came after we last spoke: answer its arrival, once
            out.extend(self._say(my_seat, mine, heard_by))
        elif have > mine:
            out.extend(self._say(my_seat, mine, heard_by))  # ask for what we lack
        return out

    def _answer(
        self, asker: int, have: int, records: Sequence[bytes], now: int
    ) -> list[wire.Payload]:
        """Records *have*… for match seat *asker*: all of them once per spacing; within it,
        only those it was never sent, the rest owed until the spacing has passed."""
        answered = self._answered.get(asker)
        if answered is None or now >= answered.at + ANSWER_SPACING_MS:
            self._answered[asker] = _Answered(have, now)
            return list(transcript(records, have))
        out: list[wire.Payload] = []
        if have < answered.start:  # the records before the last answer began: never sent
            out.extend(transcript(records[: answered.start], have))
            answered.start = have
        elif answered.owed is None or have < answered.owed:
            answered.owed = have  # (it asks again for records on their way: later, once)
        return out

    def due(self, records: Sequence[bytes], now: int) -> list[wire.Payload]:
        """The time passed: the transcripts owed to askers whose spacing is over."""
        out: list[wire.Payload] = []
        for asker, answered in self._answered.items():
            if answered.owed is not None and now >= answered.at + ANSWER_SPACING_MS:
                have, answered.owed = answered.owed, None
                if have < len(records):
                    self._answered[asker] = _Answered(have, now)
                    out.extend(transcript(records, have))
        return out

    def grown(self, have: int) -> None:
        """We hold *have* records now: the seats that said they held no more are heard
        (and we are behind them no more)."""
        for seat, claim in list(self._claims.items()):
            if claim <= have:
                self.unheard.discard(seat)
                del self._claims[seat]

    def gap(self, seat: int | None, have: int, heard_by: Iterable[int]) -> list[wire.Payload]:
        """Records came that start after ours: ask from where we are (once per count)."""
        return self._say(seat, have, heard_by)

    def _say(self, seat: int | None, have: int, heard_by: Iterable[int]) -> list[wire.Payload]:
        if seat is None or have == self._said:
            return []
        self._said = have
        self._heard_by |= set(heard_by)
        return [wire.Hello(seat, have)]


def transcript(records: Sequence[bytes], start: int) -> list[wire.Transcript]:
    """Records *start*… in payloads that each fit the relay's frame."""
    out = []
    while start < len(records):
        end, size = start, 0
        while end < len(records) and (
            end == start or size + len(records[end]) + RECORD_OVERHEAD < wire.TRANSCRIPT_CHUNK
        ):
            size += len(records[end]) + RECORD_OVERHEAD
            end += 1
        out.append(wire.Transcript(start, pack(list(records[start:end]))))
        start = end
    return out


def _hello_data(hello: wire.Hello, match_id: bytes) -> bytes:
    """What a hello's seat signs: all it says, for this match, this relay seat and numbering."""
    return HELLO_DOMAIN + match_id + pack([hello.seat, hello.have, hello.relay_seat,
                                           hello.epoch])  # fmt: skip


def sign_hello(
    hello: wire.Hello, identity: Identity, setup: MatchSetup, *, relay_seat: int, epoch: int
) -> wire.Hello:
    """*hello*, said by *identity* (its seat's) from *relay_seat* in the relay's *epoch*."""
    said = replace(hello, relay_seat=relay_seat, epoch=epoch, signature=b"")
    return replace(said, signature=identity.sign(_hello_data(said, setup.match_id)))


def hello_holds(hello: wire.Hello, setup: MatchSetup) -> bool:
    """Whether *hello* is signed by the key of the seat it names (a seat of *setup*)."""
    key = setup.public_keys[hello.seat]
    return verify_signature(key, hello.signature, _hello_data(hello, setup.match_id))
