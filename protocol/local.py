"""Local matches (hot-seat, against the computer): real sessions wired together in memory.

Every seat gets its own :class:`~protocol.session.MatchSession` with its own key and dice
chain; every message is encoded, delivered as bytes to every other session, decoded and
checked there — exactly as over a relay. So a local game writes the same kind of log as a
networked one, and ``tablier verify`` accepts it.

>>> from protocol.identity import seeded_source
>>> match = LocalMatch.create("jacquet", {"match_to": 1}, names=("Ann", "Bob"), now=0,
...                           random_source=seeded_source("local-doc"))
>>> match.awaiting
ThrowDice(seat=0, count=2)
>>> events = match.throw(0, now=1)
>>> type(events[-1]).__name__
'OpeningThrown'
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from engine.awaiting import ChoosePlay, Finished, ThrowDice
from protocol.chain import HashChain
from protocol.errors import LocalProtocolError
from protocol.events import Event, MatchEnded
from protocol.games import EngineState, OptionValue
from protocol.identity import Identity, RandomSource, SignatureMemo
from protocol.logfile import LogWriter, default_log_path, encode_log
from protocol.session import MatchSession
from protocol.setup import DEFAULT_TIME_LIMIT_MS, Join, MatchSetup, Proposal

if TYPE_CHECKING:
    from engine.jacquet import Play as JacquetPlay


@dataclass
class LocalMatch:
    """All the seats of a match in one process; the calls name the seat that acts."""

    setup: MatchSetup
    sessions: tuple[MatchSession, ...]
    identities: tuple[Identity, ...]
    log: LogWriter | None = None

    @classmethod
    def create(
        cls,
        game: str,
        options: Mapping[str, OptionValue],
        *,
        names: Sequence[str],
        random_source: RandomSource,
        now: int,
        identities: Sequence[Identity] | None = None,
        log_path: Path | None = None,
        log_data_dir: Path | None = None,
        time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    ) -> LocalMatch:
        """Set up a match between *names* (seat order) starting at *now* (ms).

        Each seat gets a fresh key from *random_source* unless *identities* are given. The log
        is written (append-only, fsync per record) to *log_path*, or, with *log_data_dir*, to
        its default name under ``<log_data_dir>/matches/`` (pass
        :func:`~protocol.logfile.default_data_dir` for the XDG location); else nowhere.
        """
        proposal = Proposal.create(
            game,
            options,
            seats=len(names),
            start_time=now,
            random_source=random_source,
            time_limit_ms=time_limit_ms,
        )
        if identities is None:
            identities = [Identity.generate(random_source) for _ in names]
        if len(identities) != len(names):
            raise LocalProtocolError(f"{len(names)} names but {len(identities)} identities")
        chains = [HashChain.generate(random_source) for _ in names]
        joins = [
            Join.create(proposal, identity, name, chain.tip)
            for identity, name, chain in zip(identities, names, chains, strict=True)
        ]
        setup = MatchSetup.create(proposal, joins)
        if log_path is None and log_data_dir is not None:
            log_path = default_log_path(setup, log_data_dir)
        log = LogWriter(log_path, setup) if log_path is not None else None
        memo = SignatureMemo()
        sessions = tuple(
            MatchSession(
                setup,
                seat=seat,
                identity=identities[seat],
                chain=chains[seat],
                random_source=random_source,
                log=log if seat == 0 else None,
                verify=memo,
            )
            for seat in range(len(names))
        )
        return cls(setup, sessions, tuple(identities), log)

    def rematch(
        self,
        *,
        random_source: RandomSource,
        now: int,
        log_path: Path | None = None,
        log_data_dir: Path | None = None,
    ) -> LocalMatch:
        """A new match with the same players, keys, game and options (fresh chains, new id)."""
        proposal = self.setup.proposal
        return LocalMatch.create(
            proposal.game, dict(proposal.options), names=self.setup.names,
            random_source=random_source, now=now, identities=self.identities,
            log_path=log_path, log_data_dir=log_data_dir, time_limit_ms=proposal.time_limit_ms,
        )  # fmt: skip

    @property
    def log_path(self) -> Path | None:
        """Where the log is being written, if anywhere."""
        return None if self.log is None else self.log.path

    @property
    def state(self) -> EngineState:
        """The engine state (the same in every seat's session)."""
        return self.sessions[0].state

    @property
    def awaiting(self) -> ThrowDice | ChoosePlay | Finished:
        return self.sessions[0].awaiting

    @property
    def ended(self) -> MatchEnded | None:
        return self.sessions[0].ended

    def throw(self, seat: int, now: int) -> list[Event]:
        """*seat* throws; every other seat reveals its share; returns seat 0's events."""
        return self._run(seat, lambda session: session.throw(now), now)

    def play(self, seat: int, play: JacquetPlay, now: int) -> list[Event]:
        """Jacquet: *seat* plays *play* (an engine Play)."""
        return self._run(seat, lambda session: session.play(play, now), now)

    def resign(self, seat: int, now: int) -> list[Event]:
        return self._run(seat, lambda session: session.resign(now), now)

    def chat(self, seat: int, text: str, now: int) -> list[Event]:
        return self._run(seat, lambda session: session.chat(text, now), now)

    def claim_abandonment(self, seat: int, accused: int, now: int) -> list[Event]:
        return self._run(seat, lambda session: session.claim_abandonment(accused, now), now)

    def log_bytes(self) -> bytes:
        """The match log as bytes (header and every record): identical for every seat."""
        return encode_log(self.setup, self.sessions[0].records)

    def close(self) -> None:
        if self.log is not None:
            self.log.close()

    def _run(
        self, seat: int, action: Callable[[MatchSession], list[Event]], now: int
    ) -> list[Event]:
        if not 0 <= seat < len(self.sessions):
            raise LocalProtocolError(f"there is no seat {seat}")
        observed: list[Event] = []
        own = action(self.sessions[seat])
        if seat == 0:
            observed.extend(own)
        queue: deque[tuple[int, bytes]] = deque()
        self._collect(seat, queue)
        while queue:
            sender, data = queue.popleft()
            for receiver, session in enumerate(self.sessions):
                if receiver == sender:
                    continue
                events = session.receive_bytes(data, now)
                if receiver == 0:
                    observed.extend(events)
                self._collect(receiver, queue)
        return observed

    def _collect(self, seat: int, queue: deque[tuple[int, bytes]]) -> None:
        for data in self.sessions[seat].data_to_send():
            queue.append((seat, data))
