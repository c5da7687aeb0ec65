"""The referee of one match: records come in, and it decides which stand, in what order.

:class:`Referee` is the part of a :class:`~protocol.session.MatchSession` that every member
has, seated or not: it accepts dice shares in their one canonical order (early ones wait in a
small buffer), chat lines by their numbers, plays and the resignation, claim and ``seen``
records where they stand (:mod:`protocol.progress` has the rules, :mod:`protocol.ordering`
this seat's own records on their way), refuses a second different record for one place, and
keeps the log. A signed fault raises a fatal :class:`~protocol.errors.RemoteProtocolError`;
a record that cannot stand without proving anything raises :class:`~protocol.progress.Refusal`.

>>> from protocol.local import LocalMatch
>>> from protocol.identity import seeded_source
>>> match = LocalMatch.create("goose", {}, names=("Ann", "Bob"), now=0,
...                           random_source=seeded_source("referee-doc"))
>>> _ = match.throw(0, now=1_000)
>>> from protocol.messages import decode_message
>>> referee = Referee(match.setup, seat=None, log=None, strict=True)
>>> for record in match.sessions[0].records:
...     referee._handle(decode_message(record), record)
>>> referee.throw_index, referee.records == match.sessions[0].records
(1, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from engine.clause import N_, Clause
from protocol.bounds import CHAT_AHEAD, HELD_PER_SEAT
from protocol.errors import (
    BadShare,
    IllegalPlay,
    OutOfPlace,
    ProtocolError,
    RemoteProtocolError,
    TimedOut,
)
from protocol.events import ChatReceived, Event, Ignored, MatchEnded
from protocol.games import EngineState, Transition
from protocol.messages import Chat, Claim, GameMessage, Play, Resign, Seen, Share
from protocol.ordering import InFlight
from protocol.progress import Progress, Refusal
from protocol.setup import MatchSetup


class RecordSink(Protocol):
    """Where accepted records go as they are accepted (a :class:`~protocol.logfile.LogWriter`)."""

    def append(self, record: bytes) -> None: ...


class Referee:
    """The records of one match as one member takes them (``seat=None``: a spectator's).

    ``strict``: a log's records, in the only order a log may hold (no waiting, no
    duplicates, nothing after the end but chat).
    """

    def __init__(
        self, setup: MatchSetup, *, seat: int | None, log: RecordSink | None, strict: bool
    ) -> None:
        self.setup = setup
        self.seat = seat
        self.progress = Progress.start(setup)
        self.records: list[bytes] = []
        self.ended: MatchEnded | None = None
        self.stopped: RemoteProtocolError | None = None
        self._log = log
        self._strict = strict
        self._names = setup.names
        self._prepared: tuple[str, Transition] | None = None  # our own play, checked when made
        self._chats = [0] * setup.seats
        self._seen: dict[tuple[int, int, int], bytes] = {}  # shares, plays, chat lines taken
        self._pending: list[tuple[GameMessage, bytes]] = []
        self._held: set[bytes] = set()  # the bytes of every record taken or waiting
        # Records refused because they could not wait (:meth:`_room_for`) or were out of
        # place (they may follow records we lack): the client asks the others for what it
        # lacks again when this grows.
        self.refused = 0
        self._events: list[Event] = []
        self._flight = InFlight(self._write)

    def next_chat(self, seat: int) -> int:
        """The index *seat*'s next chat line must carry (its lines are numbered from 0)."""
        return self._chats[seat]

    @property
    def state(self) -> EngineState:
        """The engine state the match is in."""
        return self.progress.state

    @property
    def throw_index(self) -> int:
        """How many throws were completed."""
        return self.progress.throw_index

    @property
    def turns(self) -> int:
        """Throws and missed turns so far."""
        return self.progress.turns

    def awaited_seats(self) -> tuple[int, ...]:
        """The seats whose message the match is waiting for (empty when it is over)."""
        return () if self.ended is not None else self.progress.awaited_seats()

    def held(self, seat: int) -> list[bytes]:
        """*seat*'s messages taken but not placed yet: they follow one still missing (a peer
        that was away may lack them too, and no record carries them to it yet)."""
        return [raw for message, raw in self._pending if message.seat == seat]

    def _thrown(self, thrower: int) -> None:
        """A thrower's share was taken: a seated member reveals its own (see the session)."""

    def _take_events(self) -> list[Event]:
        events, self._events = self._events, []
        return events

    def _stop(self, error: RemoteProtocolError, record: bytes | None) -> None:
        self._flight.flush()  # what we accepted, then the offending record last
        if record is not None:
            self._write(record)
        self.stopped = error
        self.ended = MatchEnded("stopped", seat=error.seat, error=error)
        self._events = []  # the caller gets the error; ``ended`` says the rest
        self._pending.clear()

    def holds(self, raw: bytes) -> bool:
        """Whether *raw* is, byte for byte, a record taken or waiting here (its signature
        was checked when it came: a copy needs no check, and changes nothing)."""
        return raw in self._held

    def _write(self, raw: bytes) -> None:
        self.records.append(raw)
        self._held.add(raw)
        if self._log is not None:
            self._log.append(raw)

    def _handle(self, message: GameMessage, raw: bytes) -> None:
        if isinstance(message, Resign | Claim | Seen):
            if self.ended is None:
                self._judge(message, raw)
            elif self._strict:
                raise IllegalPlay(_AFTER_THE_END, seat=message.seat)
            else:
                self._events.append(Ignored("the match is already over"))
            return
        key = (message.KIND, message.seat, message.n)
        previous = self._seen.get(key)
        if previous is not None:
            if previous == raw and not self._strict:
                self._events.append(Ignored("a message already received"))
                return
            raise _equivocation(message, replayed=previous == raw)
        if self.ended is not None and not isinstance(message, Chat):
            if self._strict:
                raise IllegalPlay(_AFTER_THE_END, seat=message.seat)
            self._events.append(Ignored("the match is already over"))
            return
        self._seen[key] = raw
        self._held.add(raw)
        try:
            taken = self._try(message, raw)
        except Refusal as refusal:
            self._forget(key, raw, refusal)
            raise
        if not taken:
            if self._strict:
                raise _out_of_order(message, self)
            room = self._room_for(message)
            if room is not None:  # we may lack what it follows: refused, asked for again
                del self._seen[key]
                self._held.discard(raw)
                self.refused += 1
                raise Refusal(room)
            self._pending.append((message, raw))
            return
        self._drain_pending()

    def _forget(self, key: tuple[int, int, int], raw: bytes, refusal: Refusal) -> None:
        """A record refused where it came is not held: it may come again, and be taken then
        (one out of place may follow records we lack: the client asks for them again)."""
        del self._seen[key]
        self._held.discard(raw)
        if isinstance(refusal.error, OutOfPlace):
            self.refused += 1

    def _room_for(self, message: GameMessage) -> RemoteProtocolError | None:
        """Why *message*, which cannot be taken yet, may not wait either (None: it may).

        Each seat has its own room (:data:`~protocol.bounds.HELD_PER_SEAT`), so that what one
        seat sends never takes another's; a seat's share of the current throw is never
        refused (it is the record next in share order, at most one per seat), and a chat
        line further ahead than :data:`~protocol.bounds.CHAT_AHEAD` never waits (nothing
        would ever take it, and it would hold its room for good)."""
        seat = message.seat
        if isinstance(message, Share) and message.n == self.progress.throw_index:
            return None
        if isinstance(message, Chat) and message.n > self._chats[seat] + CHAT_AHEAD:
            return IllegalPlay(Clause.of(N_("a chat line numbered {index}, far ahead of the "
                                            "{next} awaited"), index=message.n,
                                         next=self._chats[seat]),
                               seat=seat, fatal=False)  # fmt: skip
        held = sum(1 for waiting, _ in self._pending if waiting.seat == seat and not (
            isinstance(waiting, Share) and waiting.n == self.progress.throw_index))  # fmt: skip
        if held >= HELD_PER_SEAT:
            return _out_of_order(message, self, fatal=False)
        return None

    def _drain_pending(self) -> None:
        progress = True
        while progress and self._pending and self.ended is None:
            progress = False
            for item in list(self._pending):
                try:
                    taken = self._try(*item)
                except Refusal as refusal:  # it waited for its turn, and is not at its place
                    self._pending.remove(item)
                    message, raw = item
                    self._forget((message.KIND, message.seat, message.n), raw, refusal)
                    continue
                if taken:
                    if item in self._pending:  # not cleared by the end of the match
                        self._pending.remove(item)
                    progress = True
                    break

    def _try(self, message: GameMessage, raw: bytes) -> bool:
        """Accept *message* if it is acceptable now; False if it may be later; raise if never."""
        if isinstance(message, Chat):
            if message.n != self._chats[message.seat]:
                return False
            self._chats[message.seat] += 1
            self._flight.record(raw, chat=True)
            name = self._names[message.seat]
            self._events.append(ChatReceived(message.seat, name, message.text, message.time))
            return True
        before = self.progress.copy() if self._flight.on_its_way(raw) else None
        if isinstance(message, Share):
            events = self.progress.try_share(message, raw)
        else:
            assert isinstance(message, Play)
            events = self.progress.try_play(message, raw, self._prepared_for(message))
        if events is None:
            return False
        if before is not None:
            self._flight.took_effect(raw, before)
        self._flight.record(raw)
        self._events.extend(events)
        if isinstance(message, Share) and len(self.progress.links) == 1:
            self._thrown(message.seat)
        if self.progress.finished:
            self._end(MatchEnded("finished", winner=getattr(self.state, "winner", None)))
        return True

    def _prepared_for(self, play: Play) -> Transition | None:
        """Our own engine transition for *play*, if we just made it (checked once)."""
        prepared, self._prepared = self._prepared, None
        if play.seat == self.seat and prepared is not None and prepared[0] == play.notation:
            return prepared[1]
        return None

    def _judge(self, message: Resign | Claim | Seen, raw: bytes) -> None:
        """A resignation, claim or ``seen`` at its place. Our own records still on their way
        come after it (unless it is one of them, just made): it is judged as the match stood
        before them, and one that ends the match ends it there — they never happened."""
        current = self.progress
        own = self._flight.on_its_way(raw) and raw not in self._flight.deferred
        if not own:
            self.progress = self._flight.before_own() or current
        try:
            stands = self._stands(message)
        except Refusal as refusal:
            self.progress = current
            if isinstance(refusal.error, OutOfPlace):
                self.refused += 1  # it may follow records we lack: asked for again
            raise
        except BaseException:
            self.progress = current
            raise
        if not stands:
            self.progress = current
            if self._strict:
                raise IllegalPlay(Clause.of(N_("a claim or seen the match had moved past")),
                                  seat=message.seat)  # fmt: skip
            self._events.append(Ignored("overtaken: the match moved on before it came"))
            return
        if isinstance(message, Seen):
            # A ``seen`` stands only in its seat's turn, when nothing of ours is on its way
            # but what led to that turn: our records on their way can only be its answer.
            assert self.progress is current
            if own:
                self._flight.took_effect(raw, current.copy())
            current.take_seen(raw, message.time)
            self._flight.record(raw)
            return
        if self.progress is not current:  # our records on their way never happened
            self._flight.undo()
        self.progress.take_ending(raw, message.time)
        self._flight.record(raw)
        if isinstance(message, Resign):
            self._end(MatchEnded("resigned", winner=self._other(message.seat), seat=message.seat))
            return
        accused = message.accused
        error = TimedOut(Clause.of(N_("{name} did not answer within the time limit"),
                                   name=self._names[accused]), seat=accused)  # fmt: skip
        self._end(MatchEnded("abandoned", winner=self._other(accused), seat=accused, error=error))

    def _stands(self, message: Resign | Claim | Seen) -> bool:
        if isinstance(message, Resign):
            self.progress.check_resign(message)
            return True
        if isinstance(message, Claim):
            return self.progress.check_claim(message)
        return self.progress.check_seen(message)

    def _end(self, ended: MatchEnded) -> None:
        self.ended = ended
        self._pending.clear()
        self._events.append(ended)

    def _other(self, seat: int) -> int | None:
        return 1 - seat if self.setup.seats == 2 else None


_AFTER_THE_END = Clause.of(N_("a game message after the end of the match"))
# The kinds of message numbered by an index, as an error names them ("the dice share with
# index 3 is replayed"); resignations, claims and seens are judged at their place instead.
_KIND_NAMES = {Share.KIND: N_("dice share"), Play.KIND: N_("play"), Chat.KIND: N_("chat line")}


def _equivocation(message: GameMessage, *, replayed: bool) -> ProtocolError:
    what = Clause.of(_KIND_NAMES[message.KIND])
    error: Callable[..., ProtocolError] = BadShare if isinstance(message, Share) else IllegalPlay
    if replayed:
        return error(Clause.of(N_("the {what} with index {index} is replayed"), what=what,
                               index=message.n), seat=message.seat)  # fmt: skip
    return error(Clause.of(N_("a second, different {what} with index {index}"), what=what,
                           index=message.n), seat=message.seat)  # fmt: skip


def _out_of_order(
    message: GameMessage, session: Referee, *, fatal: bool = True
) -> RemoteProtocolError:
    names = [session._names[seat] for seat in session.awaited_seats()]
    waiting = ", ".join(names) if names else Clause.of(N_("nobody"))
    error = BadShare if isinstance(message, Share) else IllegalPlay
    return error(Clause.of(N_("a {kind} out of order (index {index}); the match awaits "
                              "{waiting}"), kind=Clause.of(_KIND_NAMES[message.KIND]),
                           index=message.n, waiting=waiting),
                 seat=message.seat, fatal=fatal)  # fmt: skip
