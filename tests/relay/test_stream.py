"""Every member rebuilds the same stream: the relay's core and MemberStream together.

The core sends a message to the other members only; each player's :class:`MemberStream`
must put its own sends back where the relay numbered them. Random interleavings of sends,
departures and returns, some sends asking for their number, through the real core's bytes,
must leave every
member with exactly the stream a spectator saw.
"""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import relay.stream
from relay.config import RelayConfig
from relay.core import RelayCore, Transmit
from relay.envelope import (
    Create,
    Created,
    Join,
    Message,
    Presence,
    PresenceEvent,
    Send,
    Welcome,
    decode_relay_frame,
    encode,
)
from relay.stream import Event, MemberStream, StreamError

CONFIG = RelayConfig(rate=1e9, burst=10**9)
SPECTATOR = 99  # the connection id of the watcher

# One step of a room's life: a player sends (asking to be told its number, or not), or a
# player's connection drops and it comes back (resuming from what it has seen).
actions = st.lists(
    st.one_of(
        st.tuples(st.just("send"), st.integers(0, 2)),
        st.tuples(st.just("tell"), st.integers(0, 2)),
        st.tuples(st.just("bounce"), st.integers(0, 2)),
    ),
    max_size=60,
)


def test_the_module_examples_run() -> None:
    assert doctest.testmod(relay.stream).failed == 0


class Room:
    """Three players and a spectator on one core, each with the stream it rebuilt."""

    def __init__(self) -> None:
        self.core = RelayCore(CONFIG)
        self.core.open(0, "10.0.0.1", 0.0)
        (created,) = [decode_relay_frame(o.data) for o in self._transmits(
            self.core.receive(0, encode(Create(3)), 0.0))]  # fmt: skip
        assert isinstance(created, Created)
        self.created = created
        self.conns: dict[int, int] = {}  # seat -> connection id
        self.tokens: dict[int, str] = {}
        self.streams: dict[int, MemberStream] = {}
        self.seen: dict[int, list[Event]] = {seat: [] for seat in (0, 1, 2, SPECTATOR)}
        self._next_conn = 100
        self.counter = 0
        self.now = 0.0
        for _ in range(3):
            self._join(created.player_token, None)
        self._join(created.spectator_token, None, spectator=True)
        self.spectator_from = self.streams[SPECTATOR].next_seq

    @staticmethod
    def _transmits(outputs: list[object]) -> list[Transmit]:
        return [o for o in outputs if isinstance(o, Transmit)]

    def _join(self, token: str, resume_from: int | None, *, spectator: bool = False) -> None:
        conn = SPECTATOR if spectator else self._next_conn
        self._next_conn += 1
        self.core.open(conn, "10.0.0.2", 0.0)
        outputs = self.core.receive(conn, encode(Join(self.created.room_id, token, f"P{conn}",
                                                      resume_from)), 0.0)  # fmt: skip
        frames = [(t.to, decode_relay_frame(t.data)) for t in self._transmits(outputs)]
        welcome = next(m for to, m in frames if isinstance(m, Welcome) and to == (conn,))
        seat = SPECTATOR if welcome.seat is None else welcome.seat
        self.conns[seat] = conn
        if welcome.seat_token is not None:
            self.tokens[seat] = welcome.seat_token
        start = welcome.next_seq if resume_from is None else resume_from
        self.streams[seat] = MemberStream(welcome.seat, start)
        self._deliver(outputs, skip_welcome=True)

    def _deliver(self, outputs: list[object], *, skip_welcome: bool = False) -> None:
        by_conn = {conn: seat for seat, conn in self.conns.items()}
        for transmit in self._transmits(outputs):
            message = decode_relay_frame(transmit.data)
            if skip_welcome and isinstance(message, Welcome):
                continue
            for conn in transmit.to:
                seat = by_conn.get(conn)
                if seat is not None:
                    self.seen[seat] += self.streams[seat].received(message)

    def send(self, seat: int, *, tell: bool = False) -> None:
        payload = f"{seat}:{self.counter}".encode()
        self.counter += 1
        self.streams[seat].sent(payload)
        frame = encode(Send(payload, tell))
        self._deliver(self.core.receive(self.conns[seat], frame, self.now))

    def bounce(self, seat: int) -> None:
        """The connection drops; the player comes back with its seat token, resuming."""
        resume_from = self.streams[seat].next_seq  # its unplaced sends come in the replay
        self._deliver(self.core.closed(self.conns.pop(seat), 0.0))
        self._join(self.tokens[seat], resume_from)


@settings(max_examples=150, deadline=None)
@given(actions)
def test_every_member_rebuilds_the_spectators_stream(steps: list[tuple[str, int]]) -> None:
    room = Room()
    for action, seat in steps:
        if action == "bounce":
            room.bounce(seat)
        else:
            room.send(seat, tell=action == "tell")
    for seat in (0, 1, 2):  # the last word of each asks: every send is placed
        room.send(seat, tell=True)
    reference = room.seen[SPECTATOR]
    for seat in (0, 1, 2):
        since_spectator = [e for e in room.seen[seat] if e.seq >= room.spectator_from]  # type: ignore[union-attr]
        assert since_spectator == reference
        assert room.streams[seat].unplaced == 0
    sent = [e for e in reference if isinstance(e, Message)]
    assert len(sent) == sum(1 for action, _ in steps if action != "bounce") + 3
    assert len({e.payload for e in sent}) == len(sent)  # each send exactly once


def test_a_gap_that_is_not_ours_and_a_repeated_number_are_refused() -> None:
    stream = MemberStream(seat=1, next_seq=3)
    with pytest.raises(StreamError, match="skipped event 3"):
        stream.received(Message(5, 0, b"x"))
    stream.received(Presence(3, 0, PresenceEvent.LEFT, "Ada"))
    with pytest.raises(StreamError, match="event 3 twice"):
        stream.received(Message(3, 0, b"again"))
