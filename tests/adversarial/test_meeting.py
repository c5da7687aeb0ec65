"""Hostile joins, proposals and setups from any member of a room's meeting (peer attacks 2
and 3), against the clients' real match core in the relay's one order. Whatever a hostile
member sends, the honest clients that begin a match begin the honest host's, in which one
relay member holds one seat under the name the room knows him by; whatever a hostile host
seats, an honest player whose join the room took is in the match he sets up, or his client
has stopped naming the host: never quietly watching a match in which someone plays as him.
"""

from __future__ import annotations

from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from client.net import wire
from client.net.match import NetMatch, Outgoing
from protocol.chain import HashChain
from protocol.identity import Identity, seeded_source
from protocol.names import name_key
from protocol.setup import Join, MatchSetup, Proposal
from tests.adversarial.profiles import bounded, figures
from tests.client.net.loop import TOKEN, LoopRoom

NAMES = ["Ada", "Bob", "Cy", "Mallory"]

steps = st.lists(
    st.one_of(
        st.tuples(st.just("join"), st.sampled_from(NAMES), st.integers(0, 3)),
        st.tuples(st.just("propose"), st.integers(0, 3)),
        st.tuples(st.just("setup"), st.lists(st.integers(0, 7), max_size=4)),
        st.tuples(st.just("pump")),
    ),
    max_size=8,
)


def _room(folder: Path, attacker: int) -> LoopRoom:
    matches = [
        NetMatch("host" if seat == 0 else "player", name,
                 random_source=seeded_source(f"meeting-{seat}"), data_dir=folder / name)
        for seat, name in enumerate(NAMES)
    ]  # fmt: skip
    room = LoopRoom(matches)
    return room


def _inject(room: LoopRoom, attacker: int, step: tuple[Any, ...], proposal: Proposal) -> None:
    """One payload in the attacker's name: a join with one of his keys under any name, a
    proposal of his own, or a setup of any joins the room heard and socks of his."""
    mallory = room.matches[attacker]
    heard = [Join.decode(p.data) for _s, p in room.sent if isinstance(p, wire.JoinMsg)]
    kind = step[0]
    if kind == "pump":
        room.pump()
        return
    if kind == "join":
        source = seeded_source(f"sock-{step[2]}")
        sock = Identity.generate(source)
        join = Join.create(proposal, sock, step[1], HashChain.generate(source).tip)
        payload: wire.Payload = wire.JoinMsg(join.encode())
    elif kind == "propose":
        theirs = Proposal.create("goose", {"rules": "daumont"}, seats=2 + step[1] % 3,
                                 start_time=room.now,
                                 random_source=seeded_source(f"theirs-{step[1]}"))  # fmt: skip
        payload = wire.ProposalMsg(theirs.encode(), TOKEN)
    else:
        socks = []
        for index in step[1]:
            if index < len(heard):
                socks.append(heard[index])
            else:
                source = seeded_source(f"setup-sock-{index}")
                socks.append(Join.create(proposal, Identity.generate(source), f"S{index}",
                                         HashChain.generate(source).tip))  # fmt: skip
        unique = list({join.public_key: join for join in socks}.values())
        try:
            setup = MatchSetup.create(proposal, unique[: proposal.seats])
            setup.check()
        except Exception:
            return  # not a setup the decoder takes: nothing to send
        payload = wire.SetupMsg(setup.encode())
    mallory.outbox.append(Outgoing(wire.encode(payload)))


@bounded(25)
@given(attacker=st.integers(1, 3), before=steps, after=steps)
def test_a_hostile_member_takes_one_seat_under_his_own_name_or_none(
    attacker: int, before: list[tuple[Any, ...]], after: list[tuple[Any, ...]]
) -> None:
    with figures("meeting: hostile member") as count, TemporaryDirectory() as folder:
        room = _room(Path(folder), attacker)
        try:
            proposal = Proposal.create("goose", {"rules": "daumont"}, seats=3,
                                       start_time=room.now,
                                       random_source=seeded_source("host"))  # fmt: skip
            host = room.matches[0]
            host.propose(proposal, TOKEN)
            for step in before:  # the proposal may not have reached anyone yet
                _inject(room, attacker, step, proposal)
            room.pump()
            for step in after:
                _inject(room, attacker, step, proposal)
            room.pump()
            honest = [m for seat, m in enumerate(room.matches) if seat != attacker]
            assert host.setup is not None  # three honest members: the host seats three
            for match in honest:
                assert match.broken is None
                assert match.setup == host.setup, "an honest client began another match"
            relay_names = {name_key(name) for name in NAMES}
            setup = host.setup
            assert all(name_key(name) in relay_names for name in setup.names)
            assert len({name_key(name) for name in setup.names}) == len(setup.names)
            mallory_keys = set(setup.public_keys) - {m.identity.public_key for m in honest}
            assert len(mallory_keys) <= 1, "one connection, one seat"
            for sender, seat in host.roster.seat_of_member.items():  # under his relay name
                assert name_key(setup.names[seat]) == name_key(NAMES[sender])
        finally:
            room.close()
        count()


@bounded(25)
@given(choice=st.lists(st.integers(0, 7), min_size=1, max_size=3))
def test_a_hostile_host_seats_the_joins_the_room_heard_or_is_named(choice: list[int]) -> None:
    """The host (relay seat 0) seats any joins he heard and socks of his: every honest
    player whose join the room took begins the match seated, or stops naming the host."""
    with figures("meeting: hostile host") as count, TemporaryDirectory() as folder:
        room = _room(Path(folder), 0)
        try:
            proposal = Proposal.create("goose", {"rules": "daumont"}, seats=3,
                                       start_time=room.now,
                                       random_source=seeded_source("host"))  # fmt: skip
            host = room.matches[0]
            host.role = host.meetings.role = "player"  # he seats by hand, below
            host.propose(proposal, TOKEN)
            room.pump()
            _inject(room, 0, ("setup", [0, *choice]), proposal)
            room.pump()
            for match in room.matches[1:]:
                mine = match.identity.public_key
                taken = any(j.public_key == mine for j in match.meetings.meeting.joins)
                if not taken:
                    continue
                if match.setup is not None:
                    assert match.seat is not None, "seated as a spectator of his own join's match"
                elif match.broken is not None:  # (else: still meeting, no setup sent)
                    assert match.broken.startswith("the match stopped: Ada: ")
        finally:
            room.close()
        count()
