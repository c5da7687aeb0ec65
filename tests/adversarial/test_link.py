"""A hostile player against the real link (RelayLink, Room) through a real relay process:
fewer examples than the sans-I/O properties (each one is a room on a real relay), the same
invariants. The honest client's link task stays up or ends in a named failure (invariant
1), every offence names the attacker (2), and what the honest client queues for the relay
because of him stays within the stated multiple plus one catch-up (4). (Invariant 3, the
claim in time, needs the clock: :mod:`tests.adversarial.test_room` holds it.)
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from tempfile import TemporaryDirectory

import pytest
from hypothesis import given
from hypothesis import strategies as st

from client.net import wire
from client.net.catchup import transcript
from client.net.invite import Invite
from client.net.match import NetMatch, Outgoing
from client.net.room import Room, host_room, join_room
from client.setup import SessionSettings
from engine.awaiting import ThrowDice
from protocol.codec import pack
from protocol.identity import seeded_source
from protocol.messages import Share
from protocol.setup import MatchSetup, Proposal
from relay.client import create_room
from relay.envelope import Message, Presence, RelayMessage
from tests.adversarial.invariants import CATCH_UPS_ALLOWED, CLAIM_SLACK_MS, WORK_MULTIPLE, broken
from tests.adversarial.profiles import bounded, figures
from tests.adversarial.room import raw_payload
from tests.adversarial.test_room import proposals
from tests.adversarial.values import ACCEPTED_INTS, REFUSED_INTS, odd_text
from tests.network.conftest import QUICK, PlayersClock, RelayProcess
from tests.network.hostile import Hostile
from tests.network.lying_relay import LyingRelay

TIMEOUT = 10.0


@pytest.fixture(scope="module")
def relay_url() -> Iterator[str]:
    """One real relay process for every example (a room each)."""
    relay = RelayProcess.spawn(
        0,
        "--max-rooms-per-ip",
        "1000",
        "--max-connections-per-ip",
        "1000",
        "--join-failures-per-minute",
        "100000",
    )
    try:
        yield relay.url
    finally:
        relay.kill()


payloads = st.one_of(
    st.tuples(
        st.just("hello"),
        st.sampled_from((0, 1, 2, 255, 2**31 - 1)),
        st.sampled_from((0, 1, 2, 2**31 - 1)),
    ),
    st.tuples(st.just("reconnect")),
    st.tuples(
        st.just("transcript"),
        st.sampled_from((0, 1, 2**31 - 1)),
        st.sampled_from(("real", "garbage", "flipped")),
    ),
    st.tuples(st.just("game"), st.sampled_from(("replay", "flipped", "garbage"))),
    st.tuples(st.just("spectate"), st.sampled_from((0, 2**31 - 1))),
    st.tuples(st.just("rematch")),
    st.tuples(
        st.just("raw"),
        st.integers(-1, 10),
        st.lists(
            st.one_of(
                st.sampled_from(ACCEPTED_INTS + REFUSED_INTS), odd_text, st.binary(max_size=20)
            ),
            max_size=3,
        ),
    ),
)


@bounded(6, per_long=20)
@given(rounds=st.integers(0, 6), plan=st.lists(payloads, min_size=1, max_size=10))
def test_a_hostile_player_through_a_real_relay(
    relay_url: str, rounds: int, plan: list[tuple]
) -> None:
    with figures("link: hostile player, real relay") as count, TemporaryDirectory() as folder:
        asyncio.run(attack(relay_url, Path(folder), rounds, plan))
        count()


async def attack(url: str, folder: Path, rounds: int, plan: list[tuple]) -> None:
    clock = PlayersClock()

    def settings(who: str) -> SessionSettings:
        return SessionSettings(animation=False, data_dir=folder / who, computer_pause=0,
                               random_source=seeded_source(f"link-{who}"), clock=clock)  # fmt: skip

    ada = await host_room(url, "goose", {"rules": "daumont"}, seats=2, name="Ada",
                          settings=settings("Ada"), backoff=QUICK)  # fmt: skip
    mallory = Hostile(ada.invite, settings("Mallory"))
    try:
        async with asyncio.timeout(TIMEOUT):
            await mallory.enter()
            await mallory.follow(lambda: mallory.match.started)
            await ada.wait_started()
            await play(ada, mallory, rounds, clock)
            queued = count_queued(ada)
            sent = await inject(ada, mallory, plan)
            await in_step(ada, mallory)
        check(ada, sent, queued)
    finally:
        await ada.close()
        if mallory.connection is not None:
            await mallory.connection.close()
        mallory.match.close()


async def play(ada: Room, mallory: Hostile, rounds: int, clock: PlayersClock) -> None:
    """*rounds* throws, honestly on both sides."""
    for _ in range(rounds):
        session, theirs = ada.match.session, mallory.match.session
        assert session is not None and theirs is not None
        if session.ended is not None:
            return
        before = theirs.throw_index
        awaiting = session.awaiting
        if (isinstance(awaiting, ThrowDice) and awaiting.seat == session.seat
                and not session.progress.links):  # fmt: skip
            ada.match.act(lambda s: s.throw(clock()))
            ada.link.flush()
        await mallory.follow(lambda t=theirs, b=before: t.throw_index > b or t.ended is not None)


def count_queued(ada: Room) -> list[int]:
    """From now on, the frames and bytes Ada's client queues for the relay."""
    counts = [0, 0]
    flush = ada.link.flush

    def counted() -> None:
        counts[0] += len(ada.match.outbox)
        counts[1] += sum(len(outgoing.data) for outgoing in ada.match.outbox)
        flush()

    ada.link.flush = counted  # type: ignore[method-assign]
    return counts


async def inject(ada: Room, mallory: Hostile, plan: list[tuple]) -> int:
    """Mallory sends the *plan*'s payloads; the bytes he sent."""
    sent = 0
    session = ada.match.session
    assert session is not None and mallory.connection is not None
    records = list(session.records)
    for step in plan:
        data: bytes | None = None
        match step:
            case ("hello", seat, have):
                data = raw_payload(wire.HELLO, seat, have)
            case ("reconnect",):
                mallory.connection = await mallory.connection.reconnect()
            case ("transcript", start, how):
                chosen = records if how != "flipped" else [r[:-1] + b"\x00" for r in records]
                body = pack(chosen) if how != "garbage" else b"\xc1"
                data = raw_payload(wire.TRANSCRIPT, start, body)
            case ("game", how):
                last = records[-1] if records else b"\x90"
                record = {"replay": last, "flipped": last[:-1] + b"\x01", "garbage": b"\xc1"}[how]
                data = raw_payload(wire.GAME, record)
            case ("spectate", have):
                data = raw_payload(wire.SPECTATE, session.setup.encode(), have)
            case ("rematch",):
                data = raw_payload(wire.REMATCH, session.setup.match_id)
            case ("raw", code, fields):
                data = raw_payload(code, *fields)
        if data is not None:
            await mallory.connection.send(data, tell=True)
            sent += len(data)
    return sent


async def in_step(ada: Room, mallory: Hostile) -> None:
    """Until Ada's link has read everything Mallory sent (the room's numbering says so), or
    her link task ended."""
    assert mallory.connection is not None
    marker = raw_payload(wire.REMATCH, bytes(32))  # harmless: another match's id
    await mallory.connection.send(marker, tell=True)
    me = mallory.connection.seat
    while True:
        event = await mallory.connection.receive()
        if isinstance(event, Message) and event.seat == me and event.payload == marker:
            break
        if isinstance(event, Message):  # his client follows the room (for what comes next)
            with contextlib.suppress(Exception):  # it may break on his own lies
                mallory.match.receive(event.seat, event.payload, 0)
        elif isinstance(event, Presence):  # (a join is taken under its sender's relay name)
            mallory.match.presence(event.seat, "joined", event.name, 0)
    target = mallory.connection.next_seq
    await _until(lambda: ada.link.next_seq >= target or _done(ada), ada)


def check(ada: Room, sent: int, queued: list[int] | None) -> None:
    """Invariants 1 and 2 (and 4 when *queued* counts what Ada queued for *sent* bytes)."""
    task = ada.task
    if task is not None and task.done() and ada.failure is None:
        error = task.exception() if not task.cancelled() else None
        raise broken(1, f"Ada's link task ended with no named failure: {error!r}")
    for offence in ada.match.offences:
        if offence.who != "Mallory":
            raise broken(2, f"Ada's client blamed {offence.who!r}: {offence.text}")
    session = ada.match.session
    if queued is None or session is None:
        return
    whole = sum(len(wire.encode(t)) for t in transcript(session.records, 0))
    whole += len(wire.encode(wire.SetupMsg(session.setup.encode())))
    if queued[1] > WORK_MULTIPLE * sent + CATCH_UPS_ALLOWED * whole:
        raise broken(4, f"Ada's client queued {queued[0]} frames ({queued[1]} bytes) for "
                        f"Mallory's {sent} bytes; a whole catch-up is {whole} bytes")  # fmt: skip


# ------------------------------------------------------------------------- a hostile host


@bounded(6, per_long=20)
@given(proposal=proposals())
def test_a_hostile_host_through_a_real_relay(relay_url: str, proposal: Proposal) -> None:
    """Mallory hosts a two-seat room on a real relay with a proposal at the extremes (ante
    2^63, a start far ahead…); Ada joins with the real app's room and link. Her link stays
    up or fails naming him, her offences name him, and her first deadline is within the
    limit plus the tolerance of her own clock (invariant 3, at the start of the match)."""
    with figures("link: hostile host, real relay") as count, TemporaryDirectory() as folder:
        asyncio.run(host_attack(relay_url, Path(folder), replace(proposal, seats=2)))
        count()


async def host_attack(url: str, folder: Path, proposal: Proposal) -> None:
    clock = PlayersClock()
    created = await create_room(url, proposal.seats)
    invite = Invite(url, created.room_id, created.player_token, "player")
    mallory = Hostile(invite, _settings(folder, "Mallory", clock))
    mallory.match = NetMatch("host", "Mallory", random_source=seeded_source("link-Mallory"),
                             data_dir=folder / "Mallory")  # fmt: skip
    ada: Room | None = None
    try:
        async with asyncio.timeout(TIMEOUT):
            await mallory.enter()
            mallory.match.propose(proposal, created.spectator_token)
            ada = await join_room(invite, name="Ada", settings=_settings(folder, "Ada", clock),
                                  backoff=QUICK)  # fmt: skip
            await _flush(mallory)
            await in_step(ada, mallory)  # Ada read the proposal: joined it, or refused it
            if ada.match.chain_secret is not None and not _done(ada):  # she joined
                setup = await _seat(mallory)
                await in_step(ada, mallory)  # Ada read the setup: the match began for her
                await _first_throw(ada, mallory, setup, clock)
                await in_step(ada, mallory)
        check(ada, sent=0, queued=None)
        session = ada.match.session
        if session is not None and session.ended is None:
            latest = clock() + proposal.time_limit_ms + CLAIM_SLACK_MS
            if session.deadline() > latest:
                raise broken(3, f"Ada's first deadline is {session.deadline() - latest} ms past "
                                f"her clock + the limit + {CLAIM_SLACK_MS} ms")  # fmt: skip
    finally:
        if ada is not None:
            await ada.close()
        if mallory.connection is not None:
            await mallory.connection.close()
        with contextlib.suppress(Exception):
            mallory.match.close()


def _settings(folder: Path, who: str, clock: PlayersClock) -> SessionSettings:
    return SessionSettings(animation=False, data_dir=folder / who, computer_pause=0,
                           random_source=seeded_source(f"link-{who}"), clock=clock)  # fmt: skip


def _done(room: Room) -> bool:
    return room.task is not None and room.task.done()


async def _flush(mallory: Hostile) -> list[bytes]:
    """Send what Mallory's client queued; the payloads sent."""
    assert mallory.connection is not None
    outbox, mallory.match.outbox = mallory.match.outbox, []
    for outgoing in outbox:
        await mallory.connection.send(outgoing.data, tell=outgoing.tell)
    return [outgoing.data for outgoing in outbox]


async def _seat(mallory: Hostile) -> MatchSetup | None:
    """Mallory reads the room until his client seats the players (it sends the setup even
    if his own engine then breaks on his own options); the setup."""
    assert mallory.connection is not None
    while True:
        event = await mallory.connection.receive()
        if isinstance(event, Message):
            with contextlib.suppress(Exception):  # his client may break on his own lies
                mallory.match.receive(event.seat, event.payload, 0)
        elif isinstance(event, Presence):
            mallory.match.presence(event.seat, "joined", event.name, 0)
        for data in await _flush(mallory):
            payload = wire.decode(data)
            if isinstance(payload, wire.SetupMsg):
                return MatchSetup.decode(payload.data)


async def _first_throw(
    ada: Room, mallory: Hostile, setup: MatchSetup | None, clock: PlayersClock
) -> None:
    """The first thrower throws: Ada with her app's own action, or Mallory by hand (his
    real link, the history Ada holds; the state's hash if it can be computed, else zeros)."""
    session = ada.match.session
    if setup is None or session is None or _done(ada):
        return
    awaited = session.awaited_seats()
    if awaited and awaited[0] == session.seat:
        try:
            ada.match.act(lambda s: s.throw(clock()))
        except Exception as error:
            raise broken(1, f"Ada's own throw raised {error!r}") from error
        ada.link.flush()
        return
    seat = setup.public_keys.index(mallory.match.identity.public_key)
    chain = mallory.match.chain
    if not awaited or awaited[0] != seat or chain is None:
        return
    try:
        state: bytes | None = session.progress.state_digest(session.state)
    except Exception:
        state = bytes(32)
    share = Share(seat, 0, clock(), chain.link(0), None, b"", state,
                  session.progress.share_history())  # fmt: skip
    await mallory.send_game(share)


# ------------------------------------------------------------------------- a lying relay

lies = st.lists(
    st.tuples(
        st.integers(0, 24),  # which of the room's messages to Bob the relay lies about
        st.one_of(
            st.tuples(st.just("seat"), st.sampled_from((0, 1, 2, 14))),
            st.tuples(st.just("replay"), st.integers(0, 24)),
            st.tuples(st.just("payload"), st.sampled_from((b"", b"\xc1", b"\x92\x00\xc4\x00"))),
            st.tuples(st.just("raw"), st.integers(0, 8), st.sampled_from(ACCEPTED_INTS)),
        ),
    ),
    max_size=6,
)


@bounded(6, per_long=20)
@given(told=lies, rounds=st.integers(1, 8))
def test_a_lying_relay_through_the_real_link(
    relay_url: str, told: list[tuple[int, tuple]], rounds: int
) -> None:
    """Ada and Bob, both honest, play through a real relay; Bob's connection passes through
    a relay that rewrites some of the room's messages on their way to him (another sender,
    an earlier payload replayed, garbage, a payload of its own). Neither link dies without
    a named failure (invariant 1), and no fault stops the match (invariant 2: only a
    signature proves a fault, and the relay holds none)."""
    with figures("link: lying relay, honest players") as count, TemporaryDirectory() as folder:
        asyncio.run(lied_to(relay_url, Path(folder), dict(told), rounds))
        count()


async def lied_to(url: str, folder: Path, told: dict[int, tuple], rounds: int) -> None:
    clock = PlayersClock()
    seen: list[bytes] = []

    def lie(message: RelayMessage) -> RelayMessage:
        if not isinstance(message, Message):
            return message
        index = len(seen)
        seen.append(message.payload)
        match told.get(index):
            case ("seat", seat):
                return replace(message, seat=seat)
            case ("replay", pick):
                return replace(message, payload=seen[pick % len(seen)])
            case ("payload", data):
                return replace(message, payload=data)
            case ("raw", code, value):
                return replace(message, payload=raw_payload(code, value, value))
        return message

    ada = await host_room(url, "goose", {"rules": "daumont"}, seats=2, name="Ada",
                          settings=_settings(folder, "Ada", clock), backoff=QUICK)  # fmt: skip
    bob: Room | None = None
    async with LyingRelay(url, lie) as liar:
        try:
            async with asyncio.timeout(TIMEOUT):
                invite = Invite(liar.url, ada.invite.room_id, ada.invite.token, "player")
                bob = await join_room(invite, name="Bob", settings=_settings(folder, "Bob", clock),
                                      backoff=QUICK)  # fmt: skip
                for _ in range(3):  # the proposal, Bob's join, the setup (if he is told them)
                    await _level(ada, bob)
                for _ in range(rounds):
                    for room in (ada, bob):
                        _throw_if_awaited(room, clock)
                    await _level(ada, bob)
            for room in (ada, bob):
                check_lied_to(room)
        finally:
            await ada.close()
            if bob is not None:
                await bob.close()


def _throw_if_awaited(room: Room, clock: PlayersClock) -> None:
    session = room.match.session
    if session is None or session.ended is not None or _done(room) or not room.match.in_step:
        return
    awaiting = session.awaiting
    if (isinstance(awaiting, ThrowDice) and awaiting.seat == session.seat
            and not session.progress.links and not session.ending_on_its_way):  # fmt: skip
        try:
            room.match.act(lambda s: s.throw(clock()))
        except Exception as error:
            raise broken(1, f"{room.match.name}'s own throw raised {error!r}") from error
        room.link.flush()


async def _until(condition: Callable[[], bool], *rooms: Room) -> None:
    """Until *condition* holds (checked whenever one of *rooms* changes, its link takes an
    event — a payload the match blames its sender for does not tell its listeners — or
    its link task ends)."""
    changed = asyncio.Event()
    unsubscribe = [room.match.subscribe(changed.set) for room in rooms]
    for room in rooms:
        room.link.on_event = changed.set

    def wake(_task: object) -> None:
        changed.set()

    tasks = [room.task for room in rooms if room.task is not None]
    for task in tasks:  # a link task that ends (its exception raised past the match)
        task.add_done_callback(wake)
    try:
        while not condition():
            changed.clear()
            await changed.wait()
    finally:
        for task in tasks:
            task.remove_done_callback(wake)
        for undo in unsubscribe:
            undo()
        for room in rooms:
            room.link.on_event = None


async def _level(ada: Room, bob: Room) -> None:
    """Until Ada's link has everything she sent back from the relay, and Bob's link has read
    the room as far as hers (whatever the relay told him), or a link task ended."""
    marker = Outgoing(wire.encode(wire.Rematch(bytes(32))))  # harmless: another match's id
    ada.match.outbox.append(marker)
    ada.link.flush()
    await _until(lambda: ada.link.unconfirmed == 0 or _done(ada), ada)
    target = ada.link.next_seq
    await _until(lambda: bob.link.next_seq >= target or _done(bob) or _done(ada), bob, ada)


def check_lied_to(room: Room) -> None:
    """Invariants 1 and 2 under a lying relay: no link task dead without a named failure,
    no fault that stopped the match (nobody signed one)."""
    task = room.task
    if task is not None and task.done() and room.failure is None:
        error = task.exception() if not task.cancelled() else None
        raise broken(1, f"{room.match.name}'s link task ended with no named failure: {error!r}")
    for offence in room.match.offences:
        if offence.fatal:
            raise broken(2, f"{room.match.name}'s match stopped on a relay's lie, naming "
                            f"{offence.who!r}: {offence.text}")  # fmt: skip
