"""Catching up can never be turned against the seat catching up (stop 36), on a real relay.

Real relay (in-process, real websockets), real rooms for both seats, the resumed seat back
through the real ``join_room`` resume path (its seat file and log); only the players' clock
is the test's (moved on past the bounds, so the test takes seconds). The sans-I/O tests and
the property over any hostile sequence are in ``tests/client/net/test_fair_catch_up.py``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from client.net import wire
from client.net.catchup import ACT_MARGIN_MS
from client.net.room import Room, host_room, join_room
from client.setup import SessionSettings
from engine.awaiting import ThrowDice
from protocol.clock import MIN_TIME_LIMIT_MS
from relay.config import RelayConfig
from relay.server import RelayServer
from tests.network.conftest import QUICK, PlayersClock
from tests.network.players import TIMEOUT
from tests.network.test_seat_resume import crash, resume


async def until(condition: Callable[[], bool], what: str) -> None:
    try:
        async with asyncio.timeout(TIMEOUT):
            while not condition():
                await asyncio.sleep(0.02)
    except TimeoutError:
        raise AssertionError(f"never: {what}") from None


def awaited(room: Room) -> int | None:
    """The seat whose throw the room's match awaits (None: not a throw to take)."""
    session = room.match.session
    assert session is not None
    awaiting = session.awaiting
    if not isinstance(awaiting, ThrowDice) or session.progress.links:
        return None
    return awaiting.seat


async def meet(
    url: str, settings: Callable[[str], SessionSettings], guest: str, *, backlog: int = 2048
) -> tuple[Room, Room]:
    host = await host_room(url, "goose", {}, seats=2, name="Ada", settings=settings("Ada"),
                           time_limit_ms=MIN_TIME_LIMIT_MS, backoff=QUICK)  # fmt: skip
    other = await join_room(host.invite, name=guest, settings=settings(guest), backoff=QUICK)
    await asyncio.wait_for(asyncio.gather(host.wait_started(), other.wait_started()), TIMEOUT)
    return host, other


async def throw(room: Room, clock: PlayersClock, others: list[Room]) -> None:
    """The room's seat throws; every room hears the turn end."""
    session = room.match.session
    assert session is not None
    turns = session.turns
    room.match.act(lambda session: session.throw(clock()))
    room.link.flush()
    await until(lambda: all(r.match.session is not None and r.match.session.turns > turns
                            and awaited(r) is not None for r in [room, *others]),
                "the throw heard")  # fmt: skip


async def test_a_resumed_seat_whose_peer_never_answers_acts_before_its_own_limit(
    settings: Callable[[str], SessionSettings], clock: PlayersClock
) -> None:
    """stop36/08: Bob, back from a stopped app the relay could not replay to, waited for
    Ada's word a whole time limit from his return while his turn's limit had run from
    before: Ada, never answering his hello, won by claim."""
    config = RelayConfig(port=0, rate=2000, burst=2000, backlog=8, seat_grace=0.2,
                         max_bytes_per_ip=1 << 30)  # fmt: skip
    async with RelayServer(config) as relay:
        ada, bob = await meet(relay.url, settings, "Bob")
        try:
            await throw(ada, clock, [bob])
            if awaited(ada) == 0:  # (a goose square: Ada throws again)
                await throw(ada, clock, [bob])
            assert awaited(ada) == awaited(bob) == 1  # Bob's turn: its limit runs from here

            def deaf(relay_seat: int, said: wire.Hello, now: int, *, rematching: bool) -> None:
                """Ada never answers Bob's hello."""

            ada.match.play.hello = deaf  # type: ignore[method-assign]
            clock.advance(3_000)
            await crash(bob)  # Bob's app dies 3 s into his turn
            for _ in range(10):  # what Ada says meanwhile pushes his gap out of the backlog
                ada.match.act(lambda session: session.chat("still your turn", clock()))
            ada.link.flush()
            roster = ada.match.roster
            await until(lambda: any(m.expired for m in roster.members.values()), "seat freed")
            clock.advance(3_000)
            back = await resume(ada.invite, "Bob", settings("Bob"))
            try:
                await until(lambda: back.match.in_relay_step, "the relay's replay over")
                session = back.match.session
                assert session is not None and back.match.catch_up.unheard == {0}
                assert back.match.catching_up  # he waits for Ada's word, which never comes
                clock.advance(session.deadline() - ACT_MARGIN_MS - clock())
                await until(lambda: not back.match.catching_up, "Bob on his board again")
                await throw(back, clock, [ada])  # his throw, before Ada may claim his turn
                ended = ada.match.session
                assert ended is not None and ended.ended is None
            finally:
                await back.close()
        finally:
            await ada.close()


async def test_a_peer_claiming_records_he_never_sends_cannot_keep_his_turn_from_a_claim(
    settings: Callable[[str], SessionSettings], clock: PlayersClock
) -> None:
    """stop36/02: on his own turn Mallory said, again and again, he held a record more than
    Ada, and her claim that he abandoned it was refused as long as he went on."""
    async with RelayServer(
        RelayConfig(port=0, rate=2000, burst=2000, max_bytes_per_ip=1 << 30)
    ) as relay:
        ada, mallory = await meet(relay.url, settings, "Mallory")
        try:
            while awaited(ada) == 0:
                await throw(ada, clock, [mallory])
            assert awaited(ada) == 1
            session, his = ada.match.session, mallory.match.session
            assert session is not None and his is not None
            game = ada.game(settings("Ada"))
            clock.advance(session.claim_deadline() - 5_000 - clock())
            mallory.match.play._send_all([wire.Hello(1, len(his.records) + 1)])  # (signed)
            mallory.link.flush()
            await until(lambda: ada.match.catching_up, "Ada behind Mallory's word")
            clock.advance(5_000)  # his time is up: Ada still catching up
            assert ada.match.catching_up and game.claimable(clock()) == 1
            game.claim_abandonment(1)  # a claim is judged on signed times: it goes
            await until(lambda: session.ended is not None and his.ended is not None,
                        "the match ended for both")  # fmt: skip
            assert session.ended is not None and session.ended.winner == 0
        finally:
            await asyncio.gather(ada.close(), mallory.close())
