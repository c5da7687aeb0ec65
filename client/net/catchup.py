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
before it may act, and :meth:`CatchUp.waiting` says whom it waits for and until when. Any
seat a peer said it holds more records than itself is **behind** (:attr:`CatchUp.behind`)
until it holds them: its board is not where the match stands, so it acts on none of it.

Whoever says so, catching up is bounded, and never turned against the one catching up:

- behind one peer's word for at most :data:`BEHIND_LIMIT_MS` in all until a share or a
  play signed by another seat moves the match on (:meth:`CatchUp.give_up`): a claim met by the
  claimant's own chat line or record, then made again, spends the same budget. A peer
  whose claims use it up is named (it said it holds records it never sent), and its word
  holds this seat back no more until the match moves on;
- a resumed seat waits for the others' word :data:`BEHIND_LIMIT_MS` at most;
- neither wait takes the last :data:`ACT_MARGIN_MS` before this seat's own time limit runs
  out (when the match awaits it): it acts on what it holds then;
- a claim of abandonment is refused only in the :data:`BEHIND_LIMIT_MS` after a catch-up the
  relay could not make whole (:meth:`CatchUp.may_claim`): otherwise every record a peer
  holds came through the relay's one order, and a claim is judged where it lands there.

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
from protocol.clock import MIN_TIME_LIMIT_MS, duration
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
"""20 s: the longest a seat stays behind one peer's word that it holds more records (its
hellos), counted in all from the last share or play another seat signed — the claim met by
the claimant's own chat line or record, then made again, goes on counting — and the
longest a resumed seat waits for the others' word. An honest peer's transcript comes within
one :data:`ANSWER_SPACING_MS` (an answer owed is sent once it has passed): twice that leaves
it the time to travel. With :data:`ACT_MARGIN_MS`, at most the least time limit
(:data:`protocol.clock.MIN_TIME_LIMIT_MS`): a peer claiming records it never sends cannot keep
this seat from acting until its turn may be claimed."""
ACT_MARGIN_MS = 10_000
"""10 s: the last part of this seat's own time limit (when the match awaits it) that no
catching up takes — two clock tolerances (:data:`protocol.clock.CLOCK_TOLERANCE_MS`: a
claimant's clock may run that far ahead of ours), the person's time to act."""
assert BEHIND_LIMIT_MS + ACT_MARGIN_MS <= MIN_TIME_LIMIT_MS


@dataclass(slots=True)
class _Spent:
    """What one peer's word that it holds more records cost this seat since another seat's
    share or play last moved the match on: ``spent`` ms before ``since`` (ms: behind its
    claim from then; None: no claim of it held); ``out``: it spent all, its word holds this
    seat back no more until the match moves on."""

    spent: int = 0
    since: int | None = None
    out: bool = False

    def until(self, now: int) -> int:
        return self.spent + (0 if self.since is None else now - self.since)


@dataclass(slots=True)
class _Answered:
    """Records sent to one asker: from ``start`` on, the last full answer at ``at`` (ms);
    ``owed``: the record it asked from since, to send once the spacing has passed."""

    start: int
    at: int
    owed: int | None = None


@dataclass(frozen=True, slots=True)
class Waiting:
    """A resumed seat waits for these match seats' word, since ``since`` (ms) and, nobody
    answering, until ``until`` (:meth:`CatchUp.waiting`)."""

    seats: tuple[int, ...]
    since: int
    until: int

    def note(self, names: Sequence[str], now: int) -> str:
        """Whom the seat waits for, how long, and what it can do, for the board catching up."""
        waited = now - self.since
        return _(
            "Back in your seat: waiting for {players} to say how far the match went (for "
            "{waited}), so that nothing you sent before stopping is said twice. Wait, or leave "
            "with esc (your seat is kept); if nobody answers within {left}, play goes on "
            "from where your log stops."
        ).format(players=", ".join(names[seat] for seat in self.seats),
                 waited=say(duration(waited)),
                 left=say(duration(max(0, self.until - now))))  # fmt: skip


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
        self._spent: dict[int, _Spent] = {}  # by match seat: what its word cost this turn
        self._since = 0  # when a resumed seat began to wait
        self._missed_until = 0  # until then, this connection may lack what peers hold

    @property
    def behind(self) -> bool:
        """A peer said it holds records this seat has not got yet."""
        return bool(self._claims)

    @property
    def in_step(self) -> bool:
        """Nothing more to hear before this seat may act."""
        return not self.unheard and not self._claims

    def may_claim(self, now: int) -> bool:
        """Whether this seat may claim a seat abandoned *now* on the board it holds: caught
        up; or the relay replayed all it kept since this connection came, so every record
        a peer says it holds came in the relay's one order, where a claim is judged (a
        claim the accused answered first is stale for everyone alike); or a catch-up the
        relay could not make whole is :data:`BEHIND_LIMIT_MS` old."""
        return self.in_step or now >= self._missed_until

    def waiting(self, act_by: int | None = None) -> Waiting | None:
        """Whom a resumed seat waits for; nobody answering, until :data:`BEHIND_LIMIT_MS`
        after it came, or *act_by* (ms: :data:`ACT_MARGIN_MS` before its own time limit
        runs out, when the match awaits it) if that is sooner."""
        if not self.unheard:
            return None
        until = self._since + BEHIND_LIMIT_MS
        return Waiting(tuple(sorted(self.unheard)), self._since,
                       until if act_by is None else min(until, act_by))  # fmt: skip

    def stop_waiting(self, now: int) -> None:
        """Act without the others' word (nobody answered in time), on the records this seat
        holds."""
        self.unheard.clear()
        for seat in list(self._claims):
            self._drop(seat, now)

    def give_up(self, now: int, *, act_by: int | None = None) -> tuple[bool, list[tuple[int, int]]]:
        """The time passed: stop waiting for the records a peer said it holds once its word
        held this seat back :data:`BEHIND_LIMIT_MS` since the match last moved on without
        it, or at *act_by* (see :meth:`waiting`). Returns whether anything changed, and the
        peers (match seat, records it said) whose word used its time up: they said they
        hold records they never sent."""
        changed, named = False, []
        for seat, claim in list(self._claims.items()):
            spent = self._spent[seat]
            if spent.until(now) >= BEHIND_LIMIT_MS:
                self._drop(seat, now)
                if not spent.out:  # (named once a turn: an unheard seat's word still counts)
                    named.append((seat, claim))
                spent.out, changed = True, True
            elif act_by is not None and now >= act_by and seat not in self.unheard:
                self._drop(seat, now)
                changed = True
        return changed, named

    def _drop(self, seat: int, now: int) -> None:
        """We are behind *seat*'s word no more: the time it cost is counted."""
        del self._claims[seat]
        spent = self._spent[seat]
        if spent.since is not None:
            spent.spent, spent.since = spent.until(now), None

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
        complete: bool = True,
        now: int,
    ) -> list[wire.Payload]:
        """The relay replayed all it kept for this connection: say where we stand (once).
        ``wait_for``: the match seats whose word a resumed seat needs before it may act;
        ``complete``: the relay kept everything since we left (else a peer may hold records
        this connection never heard)."""
        waited = set(wait_for)
        if waited:
            self.unheard, self._since = waited, now
        if not complete:
            self._missed_until = now + BEHIND_LIMIT_MS
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
        act_by: int | None = None,
    ) -> list[wire.Payload]:
        """Match seat *seat* (relay seat *relay_seat*, as its signed hello bound it) says it
        holds *have* records (*act_by*: see :meth:`waiting`)."""
        out: list[wire.Payload] = []
        mine = len(records)
        if have < mine:
            out.extend(self._answer(seat, have, records, now))
        if have <= mine:
            self.unheard.discard(seat)
        elif seat in self.unheard or self._may_hold_back(seat, now, act_by):
            spent = self._spent.setdefault(seat, _Spent())
            if seat not in self._claims:
                spent.since = now  # behind it from now (an unheard seat's: once we hold it)
            self._claims[seat] = max(have, self._claims.get(seat, 0))
        if relay_seat not in self._heard_by:
            self._said = None  # it came after we last spoke: answer its arrival, once
            out.extend(self._say(my_seat, mine, heard_by))
        elif have > mine:
            out.extend(self._say(my_seat, mine, heard_by))  # ask for what we lack
        return out

    def _may_hold_back(self, seat: int, now: int, act_by: int | None) -> bool:
        spent = self._spent.get(seat)
        if spent is not None and (spent.out or spent.until(now) >= BEHIND_LIMIT_MS):
            return False
        return act_by is None or now < act_by

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

    def grown(self, have: int, now: int, *, moved_by: Iterable[int] = ()) -> None:
        """We hold *have* records now: the seats that said they held no more are heard
        (and we are behind them no more). *moved_by*: the seats that signed the shares and
        plays among those that came — the match moved on, for every other seat's word a
        new budget (chat lines, a ``seen``, and a seat's own records renew none: see
        :data:`BEHIND_LIMIT_MS`)."""
        for seat, claim in list(self._claims.items()):
            if claim <= have:
                self.unheard.discard(seat)
                self._drop(seat, now)
        movers = set(moved_by)
        for seat, spent in self._spent.items():
            if movers - {seat}:
                spent.spent, spent.out = 0, False
                spent.since = now if seat in self._claims else None

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
