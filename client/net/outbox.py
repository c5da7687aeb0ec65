"""What this client has to send, sans-I/O: its own records first, answers to others after,
and the answers bounded.

The relay paces every connection (its welcome says at what rate), so what waits to be sent
is a queue, and a peer can make it long: every hello asks for a transcript. If this seat's
own plays, dice shares and claims waited behind such answers, a peer could hold its moves
back — or its claim that he abandoned — for as long as he kept asking. So the queue has
three lanes, each first in, first out, emptied in this order:

- ``OWN``: this seat's game records (shares, plays, resignations, claims, ``seen``) and the
  meeting (proposal, join, setup, rematch): what the match waits on;
- ``TALK``: its chat lines and its hellos, short, said by a person or once per arrival;
- ``ANSWER``: what others asked for — transcripts, a late spectator's catch-up — the bulk.

Only the answers are bounded: at most :data:`MAX_ANSWER_FRAMES` wait at once; an answer that
would go past it is dropped whole (its asker asks again). A payload that ``follows`` is sent
right after the one before it, whatever else came meanwhile: a catch-up is its header then
its transcripts, with nothing of the sender's between them (:mod:`client.net.spectators`).

>>> box = Outbox(limit=2)
>>> box.put_all([Outgoing(b"t1", lane=ANSWER), Outgoing(b"hi", lane=TALK),
...              Outgoing(b"share"), Outgoing(b"t2", lane=ANSWER), Outgoing(b"t3", lane=ANSWER)])
[Outgoing(data=b't3', tell=True, lane=2, follows=False)]
>>> [box.take().data for _ in range(len(box))]
[b'share', b'hi', b't1', b't2']
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import NamedTuple

OWN, TALK, ANSWER = range(3)
MAX_ANSWER_FRAMES = 256
"""Answers to others (transcripts, catch-ups) waiting to be sent, at most: two and a half
catch-ups of the longest match there is (104 frames, docs/networked-play.md), 3 MB, about
14 s through the relay's default rate. The per-seat pacing of answers
(:data:`client.net.catchup.ANSWER_SPACING_MS`) keeps honest rooms far below it; past it, a
new answer is dropped whole."""


class Outgoing(NamedTuple):
    """A payload for the room, and whether to ask the relay for its number at once
    (:attr:`relay.envelope.Send.tell`) rather than learn it from the next event; its
    ``lane`` (:data:`OWN`, :data:`TALK`, :data:`ANSWER`), and whether it ``follows`` the
    payload before it with nothing between."""

    data: bytes
    tell: bool = True
    lane: int = OWN
    follows: bool = False


class Outbox:
    """This client's payloads not yet handed to the relay, in their lanes (see the module
    docstring)."""

    def __init__(self, limit: int = MAX_ANSWER_FRAMES) -> None:
        self.limit = limit
        self._lanes: tuple[deque[Outgoing], ...] = (deque(), deque(), deque())
        self._chain = False  # the payload taken last is followed by more of its own
        self.queued = [0, 0, 0]  # frames queued so far, by lane
        self.queued_bytes = [0, 0, 0]  # and their payloads' bytes
        self.dropped = 0  # answers dropped because the lane was full (frames)

    def __len__(self) -> int:
        return sum(len(lane) for lane in self._lanes)

    def waiting(self, lane: int) -> int:
        """Payloads of *lane* waiting."""
        return len(self._lanes[lane])

    def put_all(self, items: Iterable[Outgoing]) -> list[Outgoing]:
        """Queue *items* (a payload that ``follows`` belongs with the one before it: they
        are queued or dropped together); returns those dropped."""
        dropped: list[Outgoing] = []
        for unit in _units(items):
            lane = self._lanes[unit[0].lane]
            if unit[0].lane == ANSWER and len(lane) + len(unit) > self.limit:
                dropped.extend(unit)
                continue
            lane.extend(unit)
            self.queued[unit[0].lane] += len(unit)
            self.queued_bytes[unit[0].lane] += sum(len(item.data) for item in unit)
        self.dropped += len(dropped)
        return dropped

    def take(self) -> Outgoing | None:
        """The next payload to send (None: nothing waits)."""
        if self._chain:
            lane = self._lanes[ANSWER]
            if lane and lane[0].follows:
                return self._taken(lane.popleft())
        for lane in self._lanes:
            if lane:
                return self._taken(lane.popleft())
        return None

    def _taken(self, outgoing: Outgoing) -> Outgoing:
        after = self._lanes[ANSWER]
        self._chain = outgoing.lane == ANSWER and bool(after) and after[0].follows
        return outgoing

    def clear(self) -> None:
        for lane in self._lanes:
            lane.clear()
        self._chain = False


def _units(items: Iterable[Outgoing]) -> list[list[Outgoing]]:
    """*items* cut where a payload does not follow the one before it."""
    units: list[list[Outgoing]] = []
    for item in items:
        if item.follows and units:
            units[-1].append(item)
        else:
            units.append([item])
    return units
