"""A room's matches without a relay or a socket: every payload a match queues reaches every
member, its sender included, in one order — the relay's contract, in a list."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from pathlib import Path

from client.net import wire
from client.net.catchup import sign_hello
from client.net.match import NetMatch, Role
from client.net.outbox import Outgoing
from protocol.identity import seeded_source
from protocol.setup import Proposal
from tests.client.conftest import FIXED_TIME_MS

TOKEN = "s" * 43  # the spectator token: any invite-shaped secret


class LoopRoom:
    """The relay's one order for a room of :class:`NetMatch` values (relay seat = index)."""

    def __init__(self, matches: Sequence[NetMatch]) -> None:
        self.matches = list(matches)
        self.here = [True] * len(matches)
        self.sent: list[tuple[int, wire.Payload]] = []  # everything delivered, in order
        self.watchers: list[NetMatch] = []  # spectators (they send nothing)
        self.now = FIXED_TIME_MS
        for seat, match in enumerate(self.matches):
            match.welcomed(seat, self._roster(seat), self.now)
            match.caught_up(self.now)

    @classmethod
    def meet(
        cls,
        tmp_path: Path,
        names: Sequence[str],
        game: str = "goose",
        options: Mapping[str, int | str] | None = None,
        *,
        time_limit_ms: int | None = None,
    ) -> LoopRoom:
        """The host (the first name) proposes (``options``, or each game's plain ones;
        ``time_limit_ms``, or the default limit); everyone joins; the match begins."""
        matches = [
            NetMatch(_role(seat), name, random_source=seeded_source(f"loop-{name}"),
                     data_dir=tmp_path / name)
            for seat, name in enumerate(names)
        ]  # fmt: skip
        room = cls(matches)
        if options is None:
            options = {"rules": "daumont"} if game == "goose" else {"match_to": 1}
        limit = {} if time_limit_ms is None else {"time_limit_ms": time_limit_ms}
        proposal = Proposal.create(game, options, seats=len(names), start_time=room.now,
                                   random_source=seeded_source("loop-proposal"),
                                   **limit)  # fmt: skip
        matches[0].propose(proposal, TOKEN)
        room.pump()
        assert all(match.started for match in matches)
        return room

    def _roster(self, seat: int) -> list[tuple[int, str, bool]]:
        return [(other, match.name, self.here[other])
                for other, match in enumerate(self.matches) if other != seat]  # fmt: skip

    def pump(self) -> None:
        """Deliver until nobody has anything more to say (a member away hears nothing)."""
        queue: deque[tuple[int, bytes]] = deque()
        while True:
            for seat, match in enumerate(self.matches):
                if self.here[seat]:
                    queue.extend((seat, sent.data) for sent in match.outbox)
                match.outbox.clear()
            if not queue:
                return
            while queue:
                sender, data = queue.popleft()
                self.sent.append((sender, wire.decode(data)))
                for seat, match in enumerate(self.matches):
                    if self.here[seat]:
                        match.receive(sender, data, self.now)
                for watcher in self.watchers:
                    watcher.receive(sender, data, self.now)

    def leave(self, seat: int) -> None:
        self.here[seat] = False
        for other, match in enumerate(self.matches):
            if other != seat:
                match.presence(seat, "left", self.matches[seat].name, self.now)

    def back(self, seat: int, *, complete: bool = False) -> None:
        """*seat* reconnects; the relay could not replay what it missed (``complete``: it could)."""
        self.here[seat] = True
        for other, match in enumerate(self.matches):
            if other != seat:
                match.presence(seat, "reconnected", self.matches[seat].name, self.now)
        match = self.matches[seat]
        match.welcomed(seat, self._roster(seat), self.now)
        match.caught_up(self.now, complete=complete)

    def watch_late(self, name: str, tmp_path: Path, *, pump: bool = True) -> NetMatch:
        """A spectator arrives whom the relay cannot replay the match to: it announces him
        (every player hears it at this place of the order) and he hears what follows."""
        spectator = NetMatch("spectator", name, random_source=seeded_source(f"loop-{name}"),
                             data_dir=tmp_path / name)  # fmt: skip
        players = [(seat, m.name, self.here[seat]) for seat, m in enumerate(self.matches)]
        spectator.welcomed(None, players, self.now)
        spectator.caught_up(self.now, complete=False, announced=True)
        self.watchers.append(spectator)
        for seat, match in enumerate(self.matches):
            if self.here[seat]:
                match.spectator_came(self.now)
        if pump:
            self.pump()
        return spectator

    def tick(self, ms: int) -> None:
        self.now += ms
        for match in self.matches:
            match.tick(self.now)
        self.pump()

    def hello(self, seat: int, have: int) -> None:
        """*seat* says, signed by its own key as a true hello is, that it holds *have*
        records (whatever it holds), and the relay delivers it."""
        match = self.matches[seat]
        assert match.session is not None and match.seat is not None
        said = sign_hello(wire.Hello(match.seat, have), match.identity, match.session.setup,
                          relay_seat=seat, epoch=match.roster.epoch)  # fmt: skip
        match.outbox.append(Outgoing(wire.encode(said)))
        self.pump()

    def said(self, kind: type, since: int = 0) -> list[int]:
        """Who sent payloads of *kind* from delivery *since* on, in order."""
        return [sender for sender, payload in self.sent[since:] if isinstance(payload, kind)]

    def act_all(self, seat: int, chat: str) -> None:
        self.matches[seat].act(lambda session: session.chat(chat, self.now))
        self.pump()

    def close(self) -> None:
        for match in [*self.matches, *self.watchers]:
            match.close()


def _role(seat: int) -> Role:
    return "host" if seat == 0 else "player"
