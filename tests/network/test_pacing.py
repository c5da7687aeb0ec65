"""Pacing and priority (issue 28): a player who reconnects in a loop, saying hello each time,
through a real relay whose rate makes the victim's queue visible.

- what the victim queues in answer stays bounded: one transcript per signed seat per
  spacing, however many hellos (the work multiple is measured here and printed);
- his own records overtake what he queued for others;
- a hello that is not signed for its connection binds nobody to a seat, so nothing sent
  after it is put on another player's name.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from client.net import wire
from client.net.catchup import sign_hello, transcript
from client.net.outbox import ANSWER, OWN, TALK
from client.net.room import Room, host_room
from client.setup import SessionSettings
from relay.client import RoomConnection
from relay.config import RelayConfig
from relay.core import RelayCore
from relay.envelope import Message
from relay.server import RelayServer
from tests.network.conftest import QUICK
from tests.network.hostile import Hostile
from tests.network.players import TIMEOUT, autoplay

HELLOS = 100
# Slow enough that the victim's answers wait in his queue (1.8 frames a second): the
# attack's hundred reconnections take a few seconds, draining them would take a minute.
# (Joins unpaced: the relay's own pace of a reconnection loop, --joins-per-minute, is
# tests/relay/test_hostile_joins.py's; here the victim's client is under test.)
SLOW = RelayConfig(port=0, rate=2.0, burst=10, joins_per_minute=10_000)


async def started(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> tuple[Room, Hostile]:
    """Ada hosts a two-seat Goose match that Mallory joins; a few records are played."""
    ada = await host_room(relay.url, "goose", {"rules": "daumont"}, seats=2, name="Ada",
                          settings=settings("Ada"), backoff=QUICK)  # fmt: skip
    mallory = Hostile(ada.invite, settings("Mallory"))
    await mallory.enter()
    await mallory.follow(lambda: mallory.match.started)
    await ada.wait_started()
    game = ada.game(settings("Ada"))
    player = asyncio.create_task(autoplay(game, stop_after=2))
    await mallory.follow(player.done)
    await player
    return ada, mallory


async def hello_loop(mallory: Hostile, url: str, times: int, *, seat: int) -> int:
    """Mallory leaves and comes back *times* times, saying each time, signed, that he (match
    seat *seat*: his own, or another's) holds no record; returns the room's sequence number
    after his last hello, once the relay has numbered it."""
    connection, session = mallory.connection, mallory.match.session
    assert connection is not None and session is not None
    token = connection.welcome.seat_token
    assert token is not None
    for _ in range(times):
        next_seq, epoch = connection.next_seq, connection.welcome.epoch
        await connection.close()
        connection = await RoomConnection.join(url, connection.room_id, token, "Mallory",
                                               resume_from=next_seq, epoch=epoch)  # fmt: skip
        me, epoch = connection.seat or 0, connection.welcome.epoch
        signed = sign_hello(wire.Hello(seat, 0), mallory.match.identity, session.setup,
                            relay_seat=me, epoch=epoch)  # fmt: skip
        data = wire.encode(signed)
        mallory.sent += len(data)
        await connection.send(data, tell=True)
        while True:  # until the relay numbered it (its copy comes back in the room's order)
            event = await connection.receive()
            if isinstance(event, Message) and (event.seat, event.payload) == (me, data):
                break
    mallory.connection = connection
    return connection.next_seq


async def test_a_hello_loop_gets_one_transcript_and_the_victim_s_own_records_go_first(
    settings: Callable[[str], SessionSettings], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The relay paces a reclaim loop itself (each reclaim costs the seat a token of its send
    # rate: tests/relay/test_seat_rate.py); here the victim's client is under test, so the
    # relay lets Mallory's reclaims through uncharged, as a relay of before did.
    monkeypatch.setattr(RelayCore, "sit", lambda self, session, room_id, now: None)
    async with RelayServer(SLOW) as relay:
        ada, mallory = await started(relay, settings)
        try:
            async with asyncio.timeout(TIMEOUT * 2):
                session = ada.match.session
                assert session is not None
                records = list(session.records)
                one_transcript = len(transcript(records, 0))
                before = list(ada.link.outbox.queued)
                bytes_before = list(ada.link.outbox.queued_bytes)
                mallory.sent = 0
                last = await hello_loop(mallory, relay.url, HELLOS, seat=1)
                while (ada.link._next_seq or 0) < last:  # until Ada took every hello in
                    await asyncio.sleep(0.01)
                queued = [now - then for now, then in zip(ada.link.outbox.queued, before,
                                                          strict=True)]  # fmt: skip
                # One transcript for a hundred hellos (the clock did not move: one spacing);
                # one hello back per arrival, nothing else.
                assert queued[ANSWER] == one_transcript, queued
                assert queued[TALK] <= HELLOS, queued
                assert queued[OWN] == 0, queued
                assert ada.link.outbox.waiting(ANSWER) <= one_transcript
                k = (queued[TALK] + queued[ANSWER]) / HELLOS
                answered = sum(ada.link.outbox.queued_bytes) - sum(bytes_before)
                print(f"\n{HELLOS} hellos ({mallory.sent} bytes): the victim queued "
                      f"{queued[TALK]} hellos and {queued[ANSWER]} transcript frames "
                      f"({len(records)} records), {answered} bytes: K = {k:.2f} frames per "
                      f"frame, {answered / mallory.sent:.2f} bytes per byte")  # fmt: skip
                assert k <= 1 + one_transcript / HELLOS
                # Ada resigns: her record overtakes the answers still waiting.
                waiting = ada.link.outbox.waiting(TALK) + ada.link.outbox.waiting(ANSWER)
                assert waiting > HELLOS // 2  # (the relay's pace holds them)
                game = ada.game(settings("Ada"))
                game.resign()
                while session.ended is None:  # until the relay numbered it back to her
                    await asyncio.sleep(0.01)
                behind = ada.link.outbox.waiting(TALK) + ada.link.outbox.waiting(ANSWER)
                assert behind > HELLOS // 2, behind  # sent before what was queued earlier
                assert session.ended is not None and session.ended.reason == "resigned"
        finally:
            await ada.close()


async def test_a_hello_for_another_seat_binds_nobody_and_nothing_goes_on_his_name(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    """Mallory (seat 2) says hello as Ada (seat 1), signed with his own key, then sends a
    forged game message: Ada's name is never given to it."""
    ada, mallory = await started(relay, settings)
    try:
        async with asyncio.timeout(TIMEOUT):
            mine = ada.match.roster.seat_of_member.copy()
            await hello_loop(mallory, relay.url, 3, seat=0)  # a hello "from seat 0"
            while len(ada.match.offences) < 3:  # (the test's timeout says if they never come)
                await asyncio.sleep(0.01)
            assert ada.match.roster.seat_of_member == mine  # bound as before: by the join
            texts = [(offence.who, offence.seat, offence.text) for offence in ada.match.offences]
            assert texts == [("Mallory", 1, "sent a hello not signed by the seat it names")] * 3
            assert all(o.named == "Mallory (seat 2)" for o in ada.match.offences)
    finally:
        await ada.close()
