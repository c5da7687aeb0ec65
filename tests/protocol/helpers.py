"""Sessions built by hand, and a relay whose order a test scripts."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from protocol.chain import HashChain
from protocol.identity import Identity, seeded_source
from protocol.logfile import encode_log
from protocol.session import MatchSession
from protocol.setup import Join, MatchSetup, Proposal


def seats(game: str, players: int, *, links: int | None = None, seed: str = "s",
          echoed: bool | set[int] = False, time_limit_ms: int = 60_000):  # fmt: skip
    """Sessions built by hand (optionally with short chains, to reach a renewal quickly);
    *echoed*: every seat's, or these seats', messages come back to them from a relay."""
    source = seeded_source(seed)
    proposal = Proposal.create(game, {}, seats=players, start_time=0, random_source=source,
                               time_limit_ms=time_limit_ms)  # fmt: skip
    keys = [Identity.generate(source) for _ in range(players)]
    chains = [HashChain.generate(source) for _ in range(players)]
    if links is not None:
        chains = [HashChain(chain.hashes[: links + 1]) for chain in chains]
    setup = MatchSetup.create(proposal, [
        Join.create(proposal, key, f"P{seat}", chain.tip)
        for seat, (key, chain) in enumerate(zip(keys, chains, strict=True))
    ])  # fmt: skip
    sessions = [
        MatchSession(setup, seat=seat, identity=keys[seat], chain=chains[seat],
                     random_source=source,
                     echoed=echoed if isinstance(echoed, bool) else seat in echoed)
        for seat in range(players)
    ]  # fmt: skip
    return setup, sessions, keys


def pump(sessions, now: int = 0, order=None) -> None:
    """Deliver every outgoing message to every other seat until all is quiet."""
    queue = deque((seat, data) for seat, s in enumerate(sessions) for data in s.data_to_send())
    while queue:
        sender, data = queue.popleft()
        for receiver in order or range(len(sessions)):
            if receiver != sender:
                sessions[receiver].receive_bytes(data, now)
                queue.extend((receiver, d) for d in sessions[receiver].data_to_send())


@dataclass
class Room:
    """A relay room whose order the test decides: each seat's messages wait in its own queue
    (a connection delivers them in the order sent) until :meth:`place` puts the next one in
    the room's one order; every member — the sender too, and the spectators — reads that
    order at its own pace (:meth:`read`)."""

    sessions: list[MatchSession]
    spectators: list[MatchSession] = field(default_factory=list)
    stream: list[tuple[int, bytes]] = field(default_factory=list)
    queues: dict[int, deque[bytes]] = field(default_factory=dict)
    done: dict[int, int] = field(default_factory=dict)  # member -> how much of the stream read

    @property
    def members(self) -> list[MatchSession]:
        return [*self.sessions, *self.spectators]

    def collect(self) -> None:
        """What each seat has to send joins its connection's queue."""
        for seat, session in enumerate(self.sessions):
            self.queues.setdefault(seat, deque()).extend(session.data_to_send())

    def place(self, seat: int) -> None:
        """The relay takes seat's next message: its place in the order is the next one."""
        self.collect()
        self.stream.append((seat, self.queues[seat].popleft()))

    def place_all(self) -> None:
        self.collect()
        while any(self.queues.values()):
            for seat in sorted(self.queues):
                if self.queues[seat]:
                    self.stream.append((seat, self.queues[seat].popleft()))
            self.collect()

    def read(self, member: int, now: int, count: int | None = None) -> list:
        """Member (index in :attr:`members`) reads *count* more of the stream (all: None);
        the events it got."""
        session = self.members[member]
        start = self.done.get(member, 0)
        end = len(self.stream) if count is None else min(len(self.stream), start + count)
        events = []
        for sender, data in self.stream[start:end]:
            events.extend(session.receive_bytes(data, now, sender=sender))
        self.done[member] = end
        self.collect()
        return events

    def settle(self, now: int) -> None:
        """Everyone sends and reads until nothing moves."""
        while True:
            self.place_all()
            if all(self.done.get(m, 0) == len(self.stream) for m in range(len(self.members))):
                return
            for member in range(len(self.members)):
                self.read(member, now)

    def logs(self) -> set[bytes]:
        return {encode_log(member.setup, member.records) for member in self.members}
