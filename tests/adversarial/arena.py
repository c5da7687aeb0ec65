"""A match of real :class:`~protocol.session.MatchSession` values, one seat of which is the
attacker: he holds his seat's real key and chain, follows the match with his own session
(so he knows every digest and link an honest peer would write), and sends whatever the
test's plan says — his honest messages, withheld, reordered or replayed, or forged ones
with extreme fields, all correctly signed. The relay's contract holds: every message the
attacker sends reaches every honest seat, in one order, stamped with his seat.

Every delivery is checked against the invariants of :mod:`tests.adversarial.invariants`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.awaiting import ChoosePlay, ThrowDice
from protocol.chain import HashChain
from protocol.codec import pack
from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.identity import Identity, seeded_source
from protocol.messages import (
    NO_HISTORY,
    Chat,
    Claim,
    GameMessage,
    Play,
    Resign,
    Seen,
    Share,
    decode_message,
    signed_data,
)
from protocol.session import MatchSession
from protocol.setup import Join, MatchSetup, Proposal
from tests.adversarial.invariants import CLAIM_SLACK_MS, WORK_MULTIPLE, broken
from tests.adversarial.values import TEN_YEARS_MS

START = 1_700_000_000_000  # the proposal's start time (the honest clocks start here)
LIMIT_MS = 60_000


@cache
def table(
    game: str, players: int
) -> tuple[MatchSetup, tuple[Identity, ...], tuple[HashChain, ...]]:
    """One match's setup, keys and chains (immutable: shared by every example)."""
    source = seeded_source(f"adversarial-{game}-{players}")
    options: dict[str, int | str] = {"rules": "daumont"} if game == "goose" else {"match_to": 1}
    proposal = Proposal.create(game, options, seats=players, start_time=START,
                               random_source=source, time_limit_ms=LIMIT_MS)  # fmt: skip
    keys = tuple(Identity.generate(source) for _ in range(players))
    chains = tuple(HashChain.generate(source) for _ in range(players))
    joins = [Join.create(proposal, key, f"P{seat}", chain.tip)
             for seat, (key, chain) in enumerate(zip(keys, chains, strict=True))]  # fmt: skip
    return MatchSetup.create(proposal, joins), keys, chains


# ------------------------------------------------------------------------- the plan's steps
# Each step is a small frozen value Hypothesis draws; what it means is resolved against the
# match as it stands when the step runs (the right digest, the current index…).


@dataclass(frozen=True)
class HonestMoves:
    """The honest seats take the throw or play awaited of them (if any)."""


@dataclass(frozen=True)
class AttackerMoves:
    """The attacker's own session throws or plays, if it is his turn: queued, not sent."""


@dataclass(frozen=True)
class Release:
    """The attacker sends his next queued honest message (``skip``: that many later ones
    first — reordered)."""

    skip: int = 0


@dataclass(frozen=True)
class Withhold:
    """The attacker drops his next queued honest message: it is never sent."""


@dataclass(frozen=True)
class Replay:
    """The attacker sends again a message already seen (his own or an honest seat's)."""

    pick: int


@dataclass(frozen=True)
class Forge:
    """The attacker sends a message of *kind* built as an honest one would be at this point
    (his next queued one of that kind if he has it), with *edits* to its fields (position
    in the signed array, and a value spec), signed with his key."""

    kind: str
    edits: tuple[tuple[int, Any], ...]


@dataclass(frozen=True)
class Rounds:
    """*count* rounds of honest play, the attacker's included (to reach later positions)."""

    count: int


@dataclass(frozen=True)
class Tick:
    """Every clock moves on by *ms*."""

    ms: int


Step = HonestMoves | AttackerMoves | Release | Withhold | Replay | Forge | Rounds | Tick

KINDS: dict[str, type[GameMessage]] = {
    "share": Share, "play": Play, "chat": Chat, "resign": Resign, "claim": Claim, "seen": Seen,
}  # fmt: skip


@dataclass
class Arena:
    game: str
    players: int
    attacker: int
    setup: MatchSetup = field(init=False)
    keys: tuple[Identity, ...] = field(init=False)
    sessions: list[MatchSession] = field(init=False)
    now: int = START
    queued: deque[bytes] = field(default_factory=deque)  # the attacker's honest outbox
    seen: list[bytes] = field(default_factory=list)  # every message that went by
    frames_in: int = 0  # what the attacker sent, to one honest seat (every one gets it all)
    bytes_in: int = 0
    frames_out: dict[int, int] = field(default_factory=dict)  # queued because of him
    bytes_out: dict[int, int] = field(default_factory=dict)
    progressed: dict[int, int] = field(default_factory=dict)  # last time records grew
    _outs: deque[tuple[int, bytes]] = field(default_factory=deque)  # honest, to deliver

    def __post_init__(self) -> None:
        self.setup, self.keys, chains = table(self.game, self.players)
        self.sessions = [
            MatchSession(self.setup, seat=seat, identity=self.keys[seat], chain=chains[seat],
                         random_source=seeded_source(f"renew-{seat}"))
            for seat in range(self.players)
        ]  # fmt: skip
        for seat in self.honest:
            self.frames_out[seat] = self.bytes_out[seat] = 0
            self.progressed[seat] = self.now

    @property
    def honest(self) -> list[int]:
        return [seat for seat in range(self.players) if seat != self.attacker]

    @property
    def mine(self) -> MatchSession:
        """The attacker's own session: what he knows of the match."""
        return self.sessions[self.attacker]

    @property
    def view(self) -> MatchSession:
        """The first honest seat that still plays (else the first): the match as it is."""
        live = [self.sessions[s] for s in self.honest if self.sessions[s].stopped is None]
        return live[0] if live else self.sessions[self.honest[0]]

    def running(self, seat: int) -> bool:
        return self.sessions[seat].stopped is None

    # ----------------------------------------------------------------- steps

    def run(self, step: Step) -> None:
        match step:
            case HonestMoves():
                self.honest_moves()
            case AttackerMoves():
                self._act(self.mine)
                self.queued.extend(self.mine.data_to_send())
            case Release(skip):
                if self.queued:
                    self.queued.rotate(-min(skip, len(self.queued) - 1))
                    self.send(self.queued.popleft())
            case Withhold():
                if self.queued:
                    self.queued.popleft()
            case Replay(pick):
                if self.seen:
                    self.send(self.seen[pick % len(self.seen)])
            case Forge(kind, edits):
                self.send(self.forge(kind, edits))
            case Rounds(count):
                for _ in range(count):
                    self.now += 1_000
                    self.honest_moves()
                    self._act(self.mine)
                    self.queued.extend(self.mine.data_to_send())
                    while self.queued:
                        self.send(self.queued.popleft())
            case Tick(ms):
                self.now += ms

    def honest_moves(self) -> None:
        for seat in self.honest:
            if self.running(seat):
                before = len(self.sessions[seat].records)
                self._act(self.sessions[seat])
                if len(self.sessions[seat].records) > before:
                    self.progressed[seat] = self.now
        self.pump()

    def _act(self, session: MatchSession) -> None:
        """Take the throw or play awaited of *session*'s seat, as an honest client does."""
        if session.stopped is not None or session.ended is not None:
            return
        awaiting = session.awaiting
        try:
            if isinstance(awaiting, ThrowDice) and awaiting.seat == session.seat:
                if not session.progress.links:
                    session.throw(self.now)
            elif isinstance(awaiting, ChoosePlay) and awaiting.seat == session.seat:
                session.play(session.state.legal_plays()[0], self.now)  # type: ignore[union-attr]
        except RemoteProtocolError as error:  # a peer's earlier fault, surfaced by our move
            self._blamed(session.seat, error, "acting")

    # ----------------------------------------------------------------- delivery

    def send(self, raw: bytes) -> None:
        """The attacker's *raw* reaches every honest seat (the relay stamps his seat)."""
        self.seen.append(raw)
        self.frames_in += 1
        self.bytes_in += len(raw)
        for seat in self.honest:
            if not self.running(seat):
                continue
            session = self.sessions[seat]
            self._receive(seat, raw, sender=self.attacker)
            out = session.data_to_send()
            self.frames_out[seat] += len(out)
            self.bytes_out[seat] += sum(map(len, out))
            self._check_work(seat)
            self._outs.extend((seat, data) for data in out)
        self.pump()

    def pump(self) -> None:
        """Every honest seat's messages reach every other seat (the attacker's session too,
        whose own answers join his queue) until all is quiet."""
        outs, self._outs = self._outs, deque()
        for seat in self.honest:
            outs.extend((seat, raw) for raw in self.sessions[seat].data_to_send())
        while outs:
            sender, raw = outs.popleft()
            self.seen.append(raw)
            for seat in range(self.players):
                if seat == sender or not self.running(seat):
                    continue
                self._receive(seat, raw, sender=sender)
                out = self.sessions[seat].data_to_send()
                if seat == self.attacker:
                    self.queued.extend(out)
                else:
                    outs.extend((seat, data) for data in out)

    def _receive(self, seat: int, raw: bytes, *, sender: int) -> None:
        session = self.sessions[seat]
        before = len(session.records)
        try:
            session.receive_bytes(raw, self.now, sender=sender)
        except RemoteProtocolError as error:
            self._blamed(seat, error, f"a message from seat {sender}")
        except ProtocolError as error:
            if seat != self.attacker:
                raise broken(1, f"seat {seat} raised {error!r} (not a peer's error) on a "
                                f"message from seat {sender}") from error  # fmt: skip
        except Exception as error:
            raise broken(1, f"seat {seat} raised {error!r} on a message from seat "
                            f"{sender}") from error  # fmt: skip
        if len(session.records) > before:
            self.progressed[seat] = self.now

    def _blamed(self, seat: int | None, error: RemoteProtocolError, what: str) -> None:
        if seat is None or seat == self.attacker:
            return  # the attacker's own session may refuse what it likes
        nobody = error.seat is None and not error.fatal  # out of place: we may lack records
        if error.seat != self.attacker and not nobody:
            raise broken(2, f"honest seat {seat} blamed seat {error.seat} for {what}: {error}")
        stopped = self.sessions[seat].stopped
        if stopped is not None and stopped.seat != self.attacker:
            raise broken(2, f"honest seat {seat} stopped naming seat {stopped.seat}: {stopped}")

    def _check_work(self, seat: int) -> None:
        frames, size = self.frames_out[seat], self.bytes_out[seat]
        if frames > WORK_MULTIPLE * self.frames_in or size > WORK_MULTIPLE * self.bytes_in:
            raise broken(4, f"honest seat {seat} queued {frames} frames ({size} bytes) for the "
                            f"attacker's {self.frames_in} ({self.bytes_in} bytes)")  # fmt: skip

    # ----------------------------------------------------------------- forging

    def forge(self, kind: str, edits: tuple[tuple[int, Any], ...]) -> bytes:
        """A message of *kind* as the attacker would honestly write it now, *edits* applied,
        signed with his key (whatever the values: the signature covers any array)."""
        template = self._template(kind)
        fields: list[Any] = template.unsigned_fields()
        for position, spec in edits:
            where = 2 + position  # never the version or the kind
            fields[where] = self._resolve(spec, fields[where])
        signature = self.keys[self.attacker].sign(signed_data(self.setup.match_id, fields))
        return pack([*fields, signature])

    def _template(self, kind: str) -> GameMessage:
        cls = KINDS[kind]
        for raw in self.queued:
            message = decode_message(raw)
            if isinstance(message, cls):
                return message
        view, me, now = self.view, self.attacker, self.now
        progress = view.progress
        if cls is Share:
            return Share(me, view.throw_index, now, bytes(32), None, b"", None,
                         progress.share_history())  # fmt: skip
        if cls is Play:
            return Play(me, max(view.throw_index - 1, 0), now, "13/7 13/8", bytes(32), b"",
                        progress.digest)  # fmt: skip
        if cls is Chat:
            return Chat(me, view.next_chat(me), now, "gl", b"")
        if cls is Claim:
            accused = next(iter(view.awaited_seats()), (me + 1) % self.players)
            return Claim(me, progress.position, now, accused, b"", progress.digest)
        if cls is Resign:
            return Resign(me, progress.position, now, b"", progress.digest)
        return Seen(me, progress.position, now, b"", progress.digest)

    def _resolve(self, spec: Any, current: Any) -> Any:
        """A value spec drawn by Hypothesis, made concrete here."""
        tag, value = spec
        progress = self.view.progress
        match tag:
            case "int" | "text" | "raw":
                return value
            case "time":
                return {
                    "now": self.now, "ahead": self.now + CLAIM_SLACK_MS,
                    "too far ahead": self.now + CLAIM_SLACK_MS + 1, "floor": progress.floor,
                    "before floor": progress.floor - CLAIM_SLACK_MS - 1,
                    "ten years ago": self.now - TEN_YEARS_MS,
                    "in ten years": self.now + TEN_YEARS_MS,
                    "deadline": progress.deadline(), "after deadline": progress.deadline() + 1,
                }[value]  # fmt: skip
            case "near":  # an index or seat off by a little from where it stands
                base = current if type(current) is int else 0
                return max(base + value, 0) if value > -2 else base + value
            case "seat":
                return {"other": (self.attacker + 1) % self.players, "past": self.players,
                        "last": 255, "beyond": 256}[value]  # fmt: skip
            case "digest":
                return {"real": progress.digest, "zero": bytes(32), "ones": b"\xff" * 32,
                        "stale": progress.digest_at(0), "none": None,
                        "short": bytes(31), "empty": NO_HISTORY[:0]}[value]  # fmt: skip
        raise AssertionError(spec)

    # ----------------------------------------------------------------- the end

    def finish(self) -> None:
        """The attacker stalls; the honest seats play on while they can, then invariant 3:
        a claim against him is available in time, and every honest seat accepts it."""
        for _ in range(4 * self.players):
            awaited = self.view.awaited_seats()
            if not awaited or self.attacker in awaited:
                break
            self.honest_moves()
        live = [seat for seat in self.honest
                if self.running(seat) and self.sessions[seat].ended is None]  # fmt: skip
        claimants = [s for s in live if self.attacker in self.sessions[s].awaited_seats()]
        if not claimants:
            return
        claimant = claimants[0]
        session = self.sessions[claimant]
        latest = self.progressed[claimant] + LIMIT_MS + CLAIM_SLACK_MS
        if session.deadline() > latest:
            raise broken(3, f"seat {claimant}'s deadline {session.deadline() - START} is past "
                            f"its last progress {self.progressed[claimant] - START} + the limit "
                            f"+ {CLAIM_SLACK_MS} ms")  # fmt: skip
        self.now = max(self.now, latest)
        try:
            session.claim_abandonment(self.attacker, self.now)
        except ProtocolError as error:
            raise broken(
                3, f"seat {claimant} cannot claim at {self.now - START}: {error}"
            ) from error
        claim = session.data_to_send()
        for raw in claim:
            for seat in live:
                if seat != claimant:
                    self._receive(seat, raw, sender=claimant)
        for seat in live:
            ended = self.sessions[seat].ended
            if ended is None or ended.reason != "abandoned" or ended.seat != self.attacker:
                raise broken(3, f"seat {seat} did not take seat {claimant}'s claim: {ended}")
