"""A player's app stops between sending her throw and its echo: the relay placed her share,
her log does not hold it. A hostile opponent pushes it out of the relay's backlog and stays
silent, so nobody tells her where the match stands; once the time limit passed her board
opens where her log stops, at her throw. Her app must send the share it sent before, byte
for byte (from its sent file, :mod:`client.net.durable`): a second, different share signed
for the same throw would prove her a cheat to the one who kept the first. A real relay
process keeping 8 events per room, Ada's real app objects (seat file, resume through
``join_room``), Mallory a :class:`~tests.network.hostile.Hostile`."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from client.net import wire
from client.net.durable import sent_path
from client.net.room import host_room, join_room
from client.setup import SessionSettings
from protocol.identity import seeded_source
from protocol.logfile import read_log
from protocol.messages import Chat, Share, decode_message
from relay.envelope import Message
from tests.network.conftest import QUICK, PlayersClock, RelayProcess
from tests.network.hostile import Hostile
from tests.network.players import TIMEOUT

LIMIT = 30_000


@pytest.fixture
def short_memory_relay() -> Iterator[RelayProcess]:
    relay = RelayProcess.spawn(0, "--backlog", "8")
    yield relay
    relay.kill()


async def share_of(mallory: Hostile, seat: int, now: int) -> bytes:
    """The next dice share of *seat* Mallory receives (he follows the match meanwhile)."""
    assert mallory.connection is not None
    while True:
        event = await mallory.connection.receive()
        if isinstance(event, Message):
            payload = wire.decode(event.payload)
            if isinstance(payload, wire.Game):
                message = decode_message(payload.data)
                if isinstance(message, Share) and message.seat == seat:
                    return payload.data
            mallory.match.receive(event.seat, event.payload, now)


async def test_back_in_her_seat_she_sends_the_share_she_sent_before_never_another(
    short_memory_relay: RelayProcess, tmp_path: Path, clock: PlayersClock
) -> None:
    def settings(who: str) -> SessionSettings:
        return SessionSettings(animation=False, data_dir=tmp_path / who, computer_pause=0,
                               random_source=seeded_source(f"equiv-{who}"),
                               clock=clock)  # fmt: skip

    ada = await host_room(short_memory_relay.url, "goose", {"rules": "daumont"}, seats=2,
                          name="Ada", settings=settings("Ada"), backoff=QUICK,
                          time_limit_ms=LIMIT)  # fmt: skip
    mallory = Hostile(ada.invite, settings("Mallory"))
    back = None
    try:
        async with asyncio.timeout(TIMEOUT):
            await ada.link.connected.wait()
            await mallory.enter()
            await mallory.follow(lambda: mallory.match.started)
            await ada.wait_started(TIMEOUT)
        theirs = mallory.match.session
        assert theirs is not None and theirs.awaited_seats() == (0,)  # Ada throws first
        log_path = ada.match.log_path
        assert log_path is not None
        ada.match.receive = lambda *args: None  # type: ignore[method-assign]  # no echo
        ada.match.act(lambda session: session.throw(clock()))
        ada.link.flush()
        async with asyncio.timeout(TIMEOUT):
            first = await share_of(mallory, 0, clock())
        mallory.match.outbox.clear()  # Mallory never reveals
        await ada.close()  # her app stops before the echo came
        assert len(read_log(log_path).records) == 0
        assert read_log(sent_path(log_path)).records == (first,)  # on disk before it went
        for n in range(12):  # her share out of the relay's backlog
            await mallory.send_game(Chat(1, n, clock(), "x", b""))
        clock.advance(1_000)
        back = await join_room(ada.invite, name="Ada", settings=settings("Ada"), backoff=QUICK)
        async with asyncio.timeout(TIMEOUT):
            while not back.match.in_relay_step:
                await asyncio.sleep(0.02)
        assert back.link._resync and back.match.resumed
        note = back.match.play.waiting_note(clock())
        assert note is not None and note.endswith("play goes on from where your log stops.")
        clock.advance(LIMIT + 1_000)
        async with asyncio.timeout(TIMEOUT):
            while not back.match.in_step:
                await asyncio.sleep(0.02)
        again = back.match.session
        assert again is not None and again.awaited_seats() == (0,)  # her throw, as logged
        back.match.act(lambda session: session.throw(clock()))  # a second later
        back.link.flush()
        async with asyncio.timeout(TIMEOUT):
            second = await share_of(mallory, 0, clock())
        assert second == first  # the same bytes: nothing to hold against her
        theirs.receive_bytes(first, clock(), sender=0)
        theirs.receive_bytes(second, clock(), sender=0)  # the same record again: dropped
        assert theirs.stopped is None
    finally:
        if back is not None:
            await back.close()
        if mallory.connection is not None:
            await mallory.connection.close()
        mallory.match.close()
