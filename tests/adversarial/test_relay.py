"""A hostile relay against honest players' real sessions (networked: each seat's messages
come back to it in the relay's order). The relay holds no player's key: it can only drop,
repeat, reorder, replay and misattribute what the players signed, and each member may be
told a different story. Whatever it does, no session raises anything but the protocol's
named errors (invariant 1), no honest player is ever blamed for a fault that stops the match
(invariant 2: only a signature proves a fault, and the relay has none), and no member
queues more than the stated multiple of the frames the relay gave it (invariant 4).
"""

from __future__ import annotations

import contextlib
from collections import deque

from hypothesis import given
from hypothesis import strategies as st

from engine.awaiting import ChoosePlay, ThrowDice
from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.session import MatchSession
from tests.adversarial.invariants import WORK_MULTIPLE, broken
from tests.adversarial.profiles import bounded, figures
from tests.protocol.helpers import seats

HOW = ("next", "next", "next", "drop", "repeat", "swap", "misattribute", "replay")


class LyingRelay:
    """The relay's one true order (``stream``), and each member's own reading of it, as
    the relay chooses to tell it."""

    def __init__(self, sessions: list[MatchSession]) -> None:
        self.sessions = sessions
        self.queues: list[deque[bytes]] = [deque() for _ in sessions]
        self.stream: list[tuple[int, bytes]] = []
        self.told: list[deque[tuple[int, bytes]]] = [deque() for _ in sessions]
        self.frames = [0] * len(sessions)  # frames the relay gave each member
        self.sent = [0] * len(sessions)  # frames each member queued
        self.now = 0

    def collect(self) -> None:
        for seat, session in enumerate(self.sessions):
            out = session.data_to_send()
            self.sent[seat] += len(out)
            self.queues[seat].extend(out)

    def place(self, seat: int) -> None:
        """The relay takes *seat*'s next message into its order (every member's reading)."""
        self.collect()
        if self.queues[seat]:
            item = (seat, self.queues[seat].popleft())
            self.stream.append(item)
            for told in self.told:
                told.append(item)

    def deliver(self, member: int, how: str, pick: int) -> None:
        told = self.told[member]
        if not told:
            return
        if how == "drop":
            told.popleft()
            return
        if how == "swap" and len(told) > 1:
            told[0], told[1] = told[1], told[0]
        if how == "replay":
            sender, raw = self.stream[pick % len(self.stream)]
        else:
            sender, raw = told[0] if how == "repeat" else told.popleft()
        if how == "misattribute":
            sender = (sender + 1 + pick % (len(self.sessions) - 1)) % len(self.sessions)
        self._receive(member, sender, raw)

    def _receive(self, member: int, sender: int, raw: bytes) -> None:
        session = self.sessions[member]
        if session.stopped is not None:
            return
        self.frames[member] += 1
        try:
            session.receive_bytes(raw, self.now, sender=sender)
        except RemoteProtocolError as error:
            if error.fatal or session.stopped is not None:
                raise broken(2, f"seat {member} stopped the match naming seat {error.seat} "
                                f"on a relay's lie: {error}") from error  # fmt: skip
        except ProtocolError as error:
            raise broken(1, f"seat {member} raised {error!r} (not a peer's error)") from error
        except Exception as error:
            raise broken(1, f"seat {member} raised {error!r}") from error
        self.collect()
        if self.sent[member] > WORK_MULTIPLE * self.frames[member] + 2:
            raise broken(4, f"seat {member} queued {self.sent[member]} frames for the "
                            f"{self.frames[member]} the relay gave it")  # fmt: skip

    def act(self) -> None:
        """Every seat whose throw or play is awaited takes it, as an honest client does."""
        for session in self.sessions:
            if session.stopped is not None or session.ended is not None:
                continue
            awaiting = session.awaiting
            try:
                if (isinstance(awaiting, ThrowDice) and awaiting.seat == session.seat
                        and not session.progress.links):  # fmt: skip
                    session.throw(self.now)
                elif isinstance(awaiting, ChoosePlay) and awaiting.seat == session.seat:
                    session.play(session.state.legal_plays()[0], self.now)  # type: ignore[union-attr]
            except RemoteProtocolError as error:
                raise broken(2, f"seat {session.seat}'s own move surfaced {error}") from error
            except ProtocolError:
                pass  # not its move yet (its last message is on its way): it waits
        self.collect()


steps = st.one_of(
    st.tuples(st.just("place"), st.integers(0, 2)),
    st.tuples(st.just("deliver"), st.integers(0, 2), st.sampled_from(HOW), st.integers(0, 99)),
    st.tuples(st.just("flow"), st.integers(1, 20)),
    st.tuples(st.just("act")),
    st.tuples(st.just("tick"), st.sampled_from((1, 5_001, 6_001, 60_001))),
    st.tuples(st.just("claim"), st.integers(0, 2)),
)


@bounded(60)
@given(table=st.sampled_from((("goose", 2), ("goose", 3), ("jacquet", 2))),
       plan=st.lists(steps, min_size=4, max_size=60))  # fmt: skip
def test_a_lying_relay_never_gets_an_honest_player_blamed(
    table: tuple[str, int], plan: list[tuple]
) -> None:
    with figures("relay: lying relay, honest players") as count:
        game, players = table
        _, sessions, _ = seats(game, players, echoed=True)
        relay = LyingRelay(sessions)
        for step in plan:
            run(relay, step, players)
        count()


def run(relay: LyingRelay, step: tuple, players: int) -> None:
    match step:
        case ("place", seat):
            relay.place(seat % players)
        case ("deliver", member, how, pick):
            relay.deliver(member % players, how, pick)
        case ("flow", count):  # honest traffic: everything placed and read, in order
            for _ in range(count):
                relay.act()
                for seat in range(players):
                    relay.place(seat)
                for member in range(players):
                    while relay.told[member]:
                        relay.deliver(member, "next", 0)
        case ("act",):
            relay.act()
        case ("tick", ms):
            relay.now += ms
        case ("claim", seat):  # a seat claims whoever it waits for, if it can
            session = relay.sessions[seat % players]
            awaited = [s for s in session.awaited_seats() if s != session.seat]
            if awaited and session.stopped is None and relay.now >= session.deadline():
                with contextlib.suppress(ProtocolError):  # its last message is on its way
                    session.claim_abandonment(awaited[0], relay.now)
                relay.collect()
