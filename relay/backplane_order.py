"""The order of a shared room's events as one relay process hears them, sans I/O.

A process hears the events of its rooms from Redis in two ways on one connection: the
answers to its own appends and what other processes publish to its channel. Both come in
the order Redis numbered them, so a number skipped is one Redis did not send this process:
its lease on the room had lapsed, or one of its members' join was being stored (the events
are kept until the join's answer says where his stream starts). :class:`Reorder` takes
those events in, in any order, any number of times, and says:

- which events go to the core now, each once and in order (:attr:`Offered.deliver`);
- which numbers to fetch from the room's stream (:attr:`Offered.missing`): every number
  skipped before one held back, and, told the room's next number (a lease renewal's
  answer), every number below it not had;
- that the room's order cannot be kept (:attr:`Offered.lost`): a gap wider than the
  room's stream keeps (:data:`WINDOW`), which no fetch can fill any more; its members here
  must start again.

Nothing here reads a clock, a socket or Redis: :mod:`relay.redis_backplane` carries the
decisions out. Memory is bounded: a room holds back at most ``window`` events (the room's
``--backlog``, :data:`WINDOW` by default), and a list of missing numbers is never longer.

>>> from relay.shared import Event
>>> def ev(seq: int) -> Event:
...     return Event(seq, 0, "p/1", 0, None, b"")
>>> order = Reorder()
>>> order.start("room", 4)  # a join's answer: the core has had every event up to 4
>>> order.settled("room")
[]
>>> [e.seq for e in order.offer("room", [ev(5)]).deliver]
[5]
>>> order.offer("room", [ev(8), ev(5)])  # 6 and 7 were not sent: fetch them
Offered(deliver=[], missing=[6, 7], lost=False)
>>> [e.seq for e in order.fetched("room", [ev(6), ev(7)], [6, 7]).deliver]
[6, 7, 8]
>>> order.catch_up("room", 11)  # the room's next number is 11: 9 and 10 are missing
Offered(deliver=[], missing=[9, 10], lost=False)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from relay.shared import Event

# The events a room holds back, at most, while it waits for a number before them: the
# relay's default --backlog, which the shell passes as the room's own. A gap wider than
# the room's stream keeps cannot be fetched any more (Redis trimmed its first number once
# it numbered one ``backlog`` past it), so past it the room is lost, not held for longer.
WINDOW = 1024


@dataclass(frozen=True, slots=True)
class Offered:
    """What to do after events were offered: ``deliver`` them to the core, in order;
    fetch the ``missing`` numbers from the room's stream; or, ``lost``, tell its members
    here that the room's order cannot be kept (they start again)."""

    deliver: list[Event] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)
    lost: bool = False


NOTHING = Offered()


class Reorder:
    """Every room's order in one process: where the core stands, what is held back."""

    __slots__ = ("_cursors", "_early", "_entering", "_held", "_settling", "window")

    def __init__(self, window: int = WINDOW) -> None:
        if window < 1:
            raise ValueError(f"a room must hold back at least one event, not {window}")
        self.window = window
        self._cursors: dict[str, int] = {}  # room -> the last number handed to the core
        self._entering: dict[str, int] = {}  # rooms joined here, the commit not answered yet
        self._settling: dict[str, int] = {}  # rooms entered, their answers not taken in yet
        self._held: dict[str, list[Event]] = {}  # what was ready for those meanwhile
        self._early: dict[str, dict[int, Event]] = {}  # events that came before their turn

    # --- what the shell asks -------------------------------------------------------------

    def cursor(self, room_id: str) -> int | None:
        """The last number of the room handed to the core (None: not a room of ours)."""
        return self._cursors.get(room_id)

    def holds(self, room_id: str, seq: int) -> bool:
        """Whether event ``seq`` of the room came before its turn and is held back."""
        return seq in self._early.get(room_id, {})

    def settling(self, room_id: str) -> bool:
        """Whether a join's answer in the room is not taken in by the core yet."""
        return room_id in self._settling

    def rooms(self) -> list[str]:
        """The rooms whose order is kept."""
        return list(self._cursors)

    # --- a member's join -----------------------------------------------------------------

    def entering(self, room_id: str) -> None:
        """A join in the room is being stored: what comes meanwhile is kept until its answer
        says where the newcomer's stream starts (:meth:`start`, then :meth:`entered`)."""
        self._entering[room_id] = self._entering.get(room_id, 0) + 1

    def start(self, room_id: str, last: int) -> None:
        """A join was let in: the core is handed its answer, with every event up to
        ``last`` (unless the room was ours already, whose order goes on); what is ready
        for it is held back until :meth:`settled`."""
        self._settling[room_id] = self._settling.get(room_id, 0) + 1
        if room_id not in self._cursors:
            self._cursors[room_id] = last

    def entered(self, room_id: str) -> Offered:
        """A join's commit is answered (or failed): what came of the room meanwhile goes on
        from the cursor, or is dropped if the room is not ours."""
        self._entering[room_id] -= 1
        if self._entering[room_id]:
            return NOTHING
        del self._entering[room_id]
        if room_id in self._cursors:
            return self.offer(room_id, [])
        self._early.pop(room_id, None)
        return NOTHING

    def settled(self, room_id: str) -> list[Event]:
        """The core has taken in a join's answer: what was ready meanwhile, to deliver."""
        self._settling[room_id] -= 1
        if self._settling[room_id]:
            return []
        del self._settling[room_id]
        return self._held.pop(room_id, [])

    # --- events --------------------------------------------------------------------------

    def offer(self, room_id: str, events: list[Event]) -> Offered:
        """Events of a room, as they came: those now in order to deliver (each once), and
        the numbers missing before those held back."""
        taken = self._cursors.get(room_id)
        if taken is None:
            if room_id in self._entering and events:
                kept = self._early.setdefault(room_id, {})
                kept.update((e.seq, e) for e in events)
                if len(kept) > self.window:  # the newest wait in the stream instead
                    for seq in sorted(kept)[self.window :]:
                        del kept[seq]
            return NOTHING  # not a room of ours (any more)
        early = self._early.get(room_id)
        ready = []
        for event in events:
            if event.seq == taken + 1 and early is None:  # the usual case
                taken += 1
                ready.append(event)
            elif event.seq > taken:
                if early is None:
                    early = self._early[room_id] = {}
                early[event.seq] = event
        if early is not None:
            for seq in [seq for seq in early if seq <= taken]:
                del early[seq]
            while taken + 1 in early:
                taken += 1
                ready.append(early.pop(taken))
            if not early:
                del self._early[room_id]
        deliver = self._ready(room_id, taken, ready)
        if not early:
            return Offered(deliver) if deliver else NOTHING
        last = max(early)
        if last - taken > self.window:
            return self._lose(room_id, deliver)
        return Offered(deliver, [seq for seq in range(taken + 1, last) if seq not in early])

    def fetched(self, room_id: str, events: list[Event], asked: list[int]) -> Offered:
        """The room's stream answered a fetch of ``asked`` (in order) with ``events``: a
        number asked for and still missing is gone from the stream too, and the room lost;
        else what is missing now is a gap after those, seen meanwhile."""
        offered = self.offer(room_id, events)
        if asked and any(seq <= asked[-1] for seq in offered.missing):
            return self._lose(room_id, offered.deliver)
        return offered

    def catch_up(self, room_id: str, next_seq: int) -> Offered:
        """The room's next number is ``next_seq`` (a lease renewal's answer, which comes
        after every event numbered before it): a number below it that the core has neither
        had nor is held back was not sent to this process, and is to be fetched."""
        taken = self._cursors.get(room_id)
        if taken is None or room_id in self._entering or next_seq <= taken + 1:
            return NOTHING
        if next_seq - 1 - taken > self.window:
            return self._lose(room_id, [])
        early = self._early.get(room_id, {})
        return Offered([], [seq for seq in range(taken + 1, next_seq) if seq not in early])

    def forget(self, room_id: str) -> None:
        """This process no longer serves the room: its next member here starts anew (what
        is held back for a join being stored stays, for him)."""
        del self._cursors[room_id]
        if room_id not in self._entering:
            self._early.pop(room_id, None)

    def clear(self) -> None:
        """Redis was lost, and every member with it: no room's order is kept."""
        self._cursors.clear()
        self._early.clear()

    def _ready(self, room_id: str, taken: int, ready: list[Event]) -> list[Event]:
        if not ready:
            return ready
        self._cursors[room_id] = taken
        if room_id in self._settling:
            self._held.setdefault(room_id, []).extend(ready)
            return []
        return ready

    def _lose(self, room_id: str, deliver: list[Event]) -> Offered:
        """What is held back of the room cannot be delivered: dropped (its members here
        start again, and the room is forgotten once they are gone)."""
        self._early.pop(room_id, None)
        return Offered(deliver, [], lost=True)
