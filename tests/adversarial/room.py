"""A room of real :class:`~client.net.match.NetMatch` values (the client's whole match core:
meeting, session, catch-up, spectators, rematch) in the relay's one order, one member of
which is the attacker: a real NetMatch too (his own key, his own honest answers), plus the
payloads the test's plan injects in his name — a hostile proposal when he hosts, hellos,
transcripts, catch-ups, rematch asks and game records with extreme values when he plays,
and reconnections in a loop.

Every call into an honest member is checked against :mod:`tests.adversarial.invariants`.
The relay's contract holds (every payload reaches every member, in one order, stamped with
its sender's relay seat): only the attacker lies.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]

from client.net import wire
from client.net.match import NetMatch
from engine.awaiting import ChoosePlay, ThrowDice
from protocol.clock import MIN_TIME_LIMIT_MS
from protocol.errors import ProtocolError
from protocol.identity import seeded_source
from protocol.messages import Share, seal
from protocol.session import MatchSession
from protocol.setup import Proposal
from tests.adversarial.invariants import (
    CATCH_UPS_ALLOWED,
    CLAIM_SLACK_MS,
    WORK_MULTIPLE,
    broken,
)
from tests.client.conftest import FIXED_TIME_MS

TOKEN = "s" * 43


class HostileRoom:
    """Relay seat *attacker* is hostile; the others are honest clients. Seat 0 hosts."""

    def __init__(self, tmp_path: Path, names: list[str], attacker: int) -> None:
        self.names = names
        self.attacker = attacker
        self.now = self.started_at = FIXED_TIME_MS
        self.matches = [
            NetMatch("host" if seat == 0 else "player", name,
                     random_source=seeded_source(f"hostile-room-{seat}"),
                     data_dir=tmp_path / f"seat{seat}")
            for seat, name in enumerate(names)
        ]  # fmt: skip
        self.honest = [seat for seat in range(len(names)) if seat != attacker]
        self.bytes_in = self.frames_in = 0  # what the attacker sent
        self.bytes_out = dict.fromkeys(self.honest, 0)  # what each honest member queued for it
        self.frames_out = dict.fromkeys(self.honest, 0)
        self.progressed = dict.fromkeys(self.honest, self.now)  # records last grew (its clock)
        self._records = dict.fromkeys(self.honest, -1)
        self.mallory_broke = False  # his own client failed: his shares are made by hand
        self.catch_up_bytes = 0  # the largest whole-match catch-up seen (with its setup)
        for seat, match in enumerate(self.matches):
            roster = [
                (other, m.name, True) for other, m in enumerate(self.matches) if other != seat
            ]
            self._call(seat, lambda m=match, r=roster, s=seat: m.welcomed(s, r, self.now))
            self._call(seat, lambda m=match: m.caught_up(self.now))

    @property
    def mallory(self) -> NetMatch:
        return self.matches[self.attacker]

    # ----------------------------------------------------------------- calls, checked

    def _call(self, seat: int, call: Callable[[], object]) -> None:
        """Call into member *seat*; an honest one may raise nothing but a named local error
        of its own doing (invariant 1), and names nobody honest (invariant 2)."""
        if seat == self.attacker:
            try:
                call()
            except Exception:  # his client may break on his own lies: he goes on by hand
                self.mallory_broke = True
            return
        try:
            call()
        except Exception as error:
            raise broken(1, f"{self.names[seat]}'s client raised {error!r}") from error
        self._check_blame(seat)
        self._check_progress(seat)

    def _check_blame(self, seat: int) -> None:
        """Every offence names the attacker as this member's client shows him (the name his
        join carried, as the match setup or the relay's roster has it), and that name is
        not one an honest member is shown by: a fault on a second "Ada" names nobody."""
        match = self.matches[seat]
        shown = {self._shown(match, member) for member in range(len(self.names))}
        attacker = self._shown(match, self.attacker)
        honest = {self._shown(match, member) for member in self.honest}
        for offence in match.offences:
            if offence.who != attacker or offence.who in honest:
                raise broken(2, f"{self.names[seat]}'s client blamed {offence.who!r} (the "
                                f"attacker is shown as {attacker!r}; everyone: "
                                f"{sorted(shown)}): {offence.text}")  # fmt: skip

    def _shown(self, match: NetMatch, member: int) -> str:
        """Relay member *member*'s name as *match*'s client knows it."""
        setup, key = match.setup, self.matches[member].identity.public_key
        if setup is not None and key in setup.public_keys:
            return setup.names[setup.public_keys.index(key)]
        if member == match.roster.me:
            return match.name
        known = match.roster.members.get(member)
        return known.name if known is not None else self.names[member]

    def _check_progress(self, seat: int) -> None:
        session = self.matches[seat].session
        count = -1 if session is None else len(session.records)
        if count != self._records[seat]:
            self._records[seat] = count
            self.progressed[seat] = self.now

    # ----------------------------------------------------------------- the relay's order

    def inject(self, *payloads: bytes) -> None:
        """The attacker sends *payloads* (any bytes), one after the other in the room's
        order (before his own client answers any of them)."""
        for payload in payloads:
            self._deliver(self.attacker, payload)
        self.pump()

    def pump(self, *, limit: int = 10_000) -> None:
        """Deliver everything every member queued, in one order, until all is quiet."""
        for _ in range(limit):
            sent = False
            for seat, match in enumerate(self.matches):
                outbox, match.outbox = match.outbox, []
                for outgoing in outbox:
                    self._deliver(seat, outgoing.data)
                    sent = True
            if not sent:
                return
        raise broken(4, "the room never went quiet")

    def _deliver(self, sender: int, data: bytes) -> None:
        if sender == self.attacker:
            self.frames_in += 1
            self.bytes_in += len(data)
        for seat, match in enumerate(self.matches):
            before = len(match.outbox)
            self._call(seat, lambda m=match: m.receive(sender, data, self.now))
            if sender == self.attacker and seat != self.attacker:
                out = match.outbox[before:]
                self.frames_out[seat] += len(out)
                self.bytes_out[seat] += sum(len(o.data) for o in out)
                self._note_catch_up(seat)
                self._check_work(seat)

    def _note_catch_up(self, seat: int) -> None:
        """The match's setup (the host seats the players once: a join costs him that) and
        its records, which a peer back from a gap is sent once."""
        session = self.matches[seat].session
        if session is not None:
            whole = sum(len(wire.encode(t)) for t in _transcripts(session))
            whole += len(wire.encode(wire.SetupMsg(session.setup.encode())))  # sent once
            self.catch_up_bytes = max(self.catch_up_bytes, whole)

    def _check_work(self, seat: int) -> None:
        session = self.matches[seat].session
        limit = MIN_TIME_LIMIT_MS if session is None else session.setup.proposal.time_limit_ms
        periods = 1 + (self.now - self.started_at) // limit  # time limits begun since the start
        allowed = WORK_MULTIPLE * self.bytes_in + CATCH_UPS_ALLOWED * periods * self.catch_up_bytes
        if self.bytes_out[seat] > allowed:
            raise broken(4, f"{self.names[seat]}'s client queued {self.frames_out[seat]} "
                            f"frames ({self.bytes_out[seat]} bytes) for the attacker's "
                            f"{self.frames_in} ({self.bytes_in} bytes); a whole catch-up is "
                            f"{self.catch_up_bytes} bytes, {periods} allowed")  # fmt: skip

    # ----------------------------------------------------------------- room events

    def reconnect(self, seat: int) -> None:
        """*seat* drops and comes back; the relay cannot replay what it missed."""
        name = self.names[seat]
        for other, match in enumerate(self.matches):
            if other != seat:
                self._call(other, lambda m=match: m.presence(seat, "left", name, self.now))
                self._call(other, lambda m=match: m.presence(seat, "reconnected", name, self.now))
        roster = [(other, m.name, True) for other, m in enumerate(self.matches) if other != seat]
        match = self.matches[seat]
        self._call(seat, lambda: match.welcomed(seat, roster, self.now))
        self._call(seat, lambda: match.caught_up(self.now, complete=False))
        self.pump()

    def tick(self, ms: int) -> None:
        self.now += ms
        for seat, match in enumerate(self.matches):
            self._call(seat, lambda m=match: m.tick(self.now))
        self.pump()

    # ----------------------------------------------------------------- playing

    def propose(self, proposal: Proposal) -> None:
        """The host proposes *proposal* (built by hand: nothing checked it)."""
        self._call(0, lambda: self.matches[0].propose(proposal, TOKEN))
        self.pump()

    def moves(self, *, attacker: bool = True) -> bool:
        """Every member whose throw or play is awaited takes it (the attacker too, if
        *attacker*); whether anyone moved."""
        moved = False
        for seat, match in enumerate(self.matches):
            if seat == self.attacker and not attacker:
                continue
            session = match.session
            action = None if session is None else _honest_action(session, self.now)
            if action is not None and match.in_step and not match.rematching:
                moved = True
                self._call(seat, lambda m=match, a=action: m.act(a))
        if attacker and self.mallory_broke:
            moved = self._share_by_hand() or moved
        self.pump()
        return moved

    def _share_by_hand(self) -> bool:
        """The attacker's client broke on his own proposal, yet a hostile host's does not
        have to: his next dice share, made by hand (his real link, the history the honest
        seats hold; the game state's hash if it can be computed, else zeros)."""
        seat_of = self._match_seat()
        live = [s for s in self.honest if (m := self.matches[s]).session is not None
                and m.session.stopped is None and m.session.ended is None]  # fmt: skip
        chain = self.mallory.chain
        if seat_of is None or not live or chain is None:
            return False
        view = self.matches[live[0]].session
        assert view is not None
        if seat_of not in view.awaited_seats() or isinstance(view.awaiting, ChoosePlay):
            return False
        progress = view.progress
        first = not progress.links
        state: bytes | None = None
        if first:
            try:
                state = progress.state_digest(view.state)
            except Exception:
                state = bytes(32)
        share = Share(seat_of, view.throw_index, self.now, chain.link(view.throw_index), None,
                      b"", state, progress.share_history())  # fmt: skip
        signed = seal(share, self.mallory.identity, view.match_id)
        self.inject(wire.encode(wire.Game(signed.encode())))
        return True

    def rounds(self, count: int) -> None:
        for _ in range(count):
            self.now += 1_000
            if not self.moves():
                return

    def finish(self) -> None:
        """Invariant 3: the attacker stalls; the honest members play while they can, then a
        claim against him is there in time, and every honest member takes it."""
        for _ in range(8):
            if not self.moves(attacker=False):
                break
        live = [s for s in self.honest if (m := self.matches[s]).session is not None
                and m.session.ended is None]  # fmt: skip
        seat_of = self._match_seat()
        if seat_of is None:
            return
        claimants = [s for s in live if seat_of in self.matches[s].session.awaited_seats()]  # type: ignore[union-attr]
        if not claimants:
            return
        claimant = claimants[0]
        match = self.matches[claimant]
        session = match.session
        assert session is not None
        latest = self.progressed[claimant] + session.setup.proposal.time_limit_ms + CLAIM_SLACK_MS
        if session.deadline() > latest:
            late = session.deadline() - latest
            raise broken(3, f"{self.names[claimant]}'s deadline is {late} ms past its last "
                            f"progress + the limit + {CLAIM_SLACK_MS} ms")  # fmt: skip
        self.tick(max(latest - self.now, 0))
        if not match.in_step:  # a resumed seat waits for the others' word a time limit long
            return
        try:
            match.act(lambda s: s.claim_abandonment(seat_of, self.now))
        except ProtocolError as error:
            raise broken(3, f"{self.names[claimant]} cannot claim: {error}") from error
        self.pump()
        for seat in live:
            ended = self.matches[seat].ended
            if ended is None or ended.reason != "abandoned" or ended.seat != seat_of:
                raise broken(3, f"{self.names[seat]} did not take the claim: {ended}")

    def _match_seat(self) -> int | None:
        """The attacker's seat in the match, as the honest members' setup says."""
        key = self.mallory.identity.public_key
        for seat in self.honest:
            setup = self.matches[seat].setup
            if setup is not None and self.matches[seat].session is not None:
                return setup.public_keys.index(key) if key in setup.public_keys else None
        return None

    def close(self) -> None:
        for match in self.matches:
            with contextlib.suppress(Exception):
                match.close()


def _honest_action(session: MatchSession, now: int) -> Callable[[MatchSession], Any] | None:
    if session.seat is None or session.stopped is not None or session.ended is not None:
        return None
    awaiting = session.awaiting
    if isinstance(awaiting, ThrowDice) and awaiting.seat == session.seat:
        if not session.progress.links:
            return lambda s: s.throw(now)
    elif isinstance(awaiting, ChoosePlay) and awaiting.seat == session.seat:
        play = session.state.legal_plays()[0]  # type: ignore[union-attr]
        return lambda s: s.play(play, now)
    return None


def _transcripts(session: MatchSession) -> list[wire.Transcript]:
    from client.net.catchup import transcript

    return transcript(session.records, 0)


def raw_payload(kind: int, *fields: Any) -> bytes:
    """A payload of *kind* with any *fields*: what a hostile client writes by hand."""
    packed: bytes = msgpack.packb([kind, *fields], use_bin_type=True)
    return packed
