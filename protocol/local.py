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
from engine.clause import N_, Clause
from protocol.chain import LINK_BYTES, HashChain
from protocol.errors import LocalProtocolError, ProtocolError
from protocol.events import Event, MatchEnded
from protocol.games import EngineState, OptionValue
from protocol.identity import Identity, RandomSource, SignatureMemo, seeded_source
from protocol.logfile import LogContents, LogWriter, default_log_path, encode_log
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
    chain_seeds: tuple[bytes, ...] = ()  # resumable: each seat's first chain, kept secret
    renewal_secrets: tuple[bytes, ...] = ()  # resumable: what each seat's later chains grow from

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
        resumable: bool = False,
        log_path: Path | None = None,
        log_data_dir: Path | None = None,
        time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    ) -> LocalMatch:
        """Set up a match between *names* (seat order) starting at *now* (ms).

        Each seat gets a fresh key from *random_source* unless *identities* are given, and a
        dice chain from it. *resumable*: each seat's renewed chains are drawn from a secret
        of its own too (the last draws, so the dice stay those of the same seed), kept with
        the chains' seeds in ``renewal_secrets`` and ``chain_seeds`` for :meth:`resume`. The
        log is written (append-only, fsync per record) to *log_path*, or, with
        *log_data_dir*, to its default name under ``<log_data_dir>/matches/`` (pass
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
            raise LocalProtocolError(Clause.of(N_("not as many identities ({identities}) as names "
                                                  "({names})"),
                                               names=len(names),
                                               identities=len(identities)))  # fmt: skip
        chains = [HashChain.generate(random_source) for _ in names]
        joins = [
            Join.create(proposal, identity, name, chain.tip)
            for identity, name, chain in zip(identities, names, chains, strict=True)
        ]
        setup = MatchSetup.create(proposal, joins)
        if log_path is None and log_data_dir is not None:
            log_path = default_log_path(setup, log_data_dir)
        renewals = [random_source(LINK_BYTES) for _ in names] if resumable else []
        log = LogWriter(log_path, setup) if log_path is not None else None
        return cls._seated(setup, identities, chains, renewals or None, log, random_source)

    @classmethod
    def resume(
        cls,
        contents: LogContents,
        *,
        identities: Sequence[Identity],
        chain_seeds: Sequence[bytes],
        renewal_secrets: Sequence[bytes],
        log_path: Path,
        now: int,
    ) -> LocalMatch:
        """The match of *contents* (read from *log_path*) taken up where its log ends, every
        record checked again as it is replayed, each seat with the key and chain secrets of
        a resumable :meth:`create`; the log is continued after its last good record.
        :class:`LocalProtocolError` says why when the secrets are not this match's or
        :class:`~protocol.errors.ProtocolError` why its log does not replay.
        """
        setup = contents.setup
        if tuple(identity.public_key for identity in identities) != setup.public_keys:
            raise LocalProtocolError(Clause.of(N_("the seats' keys are not those of this "
                                                  "match's log")))  # fmt: skip
        chains = [HashChain.from_seed(seed) for seed in chain_seeds]
        if tuple(chain.tip for chain in chains) != setup.tips:
            raise LocalProtocolError(Clause.of(N_("the seats' dice chains are not those this "
                                                  "match committed")))  # fmt: skip
        if len(renewal_secrets) != len(chains):
            raise LocalProtocolError(Clause.of(N_("one renewal secret per seat is needed")))
        log = LogWriter(log_path, setup, resume_at=contents.end)
        match = cls._seated(setup, identities, chains, renewal_secrets, log, None)
        session = match.sessions[0]
        try:
            for session in match.sessions:
                session.restore(contents.records, now)
            for seat in range(len(match.sessions)):  # what the stop kept from being sent
                match._deliver(seat, now)
        except BaseException as error:
            log.close()
            if isinstance(error, ProtocolError) or not isinstance(error, Exception):
                raise
            # Whatever its type, it came from the record being restored: said as that record's.
            if contents.records:
                contents.at(min(len(session.records), len(contents.records) - 1))
            raise contents.damaged(error) from None
        return match

    @classmethod
    def _seated(
        cls,
        setup: MatchSetup,
        identities: Sequence[Identity],
        chains: Sequence[HashChain],
        renewal_secrets: Sequence[bytes] | None,
        log: LogWriter | None,
        random_source: RandomSource | None,
    ) -> LocalMatch:
        """Every seat's session: renewed chains from its own secret when given, else from
        *random_source*."""
        sources = [random_source] * len(chains)
        if renewal_secrets is not None:
            sources = [seeded_source(secret) for secret in renewal_secrets]
        memo = SignatureMemo()
        sessions = tuple(
            MatchSession(
                setup,
                seat=seat,
                identity=identities[seat],
                chain=chains[seat],
                random_source=sources[seat],
                log=log if seat == 0 else None,
                verify=memo,
            )
            for seat in range(len(identities))
        )
        seeds = tuple(chain.hashes[0] for chain in chains) if renewal_secrets else ()
        return cls(setup, sessions, tuple(identities), log, seeds, tuple(renewal_secrets or ()))

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
            raise LocalProtocolError(Clause.of(N_("there is no seat {seat}"), seat=seat))
        own = action(self.sessions[seat])
        return [*(own if seat == 0 else ()), *self._deliver(seat, now)]

    def _deliver(self, seat: int, now: int) -> list[Event]:
        """Deliver what *seat* has to send, and every answer, to every other session;
        returns seat 0's events."""
        observed: list[Event] = []
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
