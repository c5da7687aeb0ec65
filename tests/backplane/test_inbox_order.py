"""A relay's reader of its Redis inbox, slowed at the moments a loaded machine slows it: no
event is skipped and no room is resynced for an inbox that is merely behind."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

import relay.redis_backplane
from relay.client import RoomConnection, create_room
from relay.envelope import Message
from relay.server import RelayServer
from tests.backplane.conftest import shared_relays
from tests.backplane.test_shared import receive


def slow_down(
    relay: RelayServer,
    channel: str,
    when: Callable[[tuple[Any, ...], list[Any]], bool],
    seconds: float,
    paused: asyncio.Event | None = None,
) -> None:
    """Hold back the answers of the relay's Redis ``channel`` ("_reader" or "_writer") for
    ``seconds`` whenever ``when(first command, answers)`` says so (``paused`` is set
    meanwhile): the order of Redis's work is kept, only its news reaches the relay late."""
    assert relay.backplane is not None
    link = getattr(relay.backplane, channel)
    ask = link.ask

    async def slowed(*commands: tuple[Any, ...]) -> list[Any]:
        answers: list[Any] = await ask(*commands)
        if when(commands[0], answers):
            if paused is not None:
                paused.set()
            await asyncio.sleep(seconds)
            if paused is not None:
                paused.clear()
        return answers

    link.ask = slowed


async def seated_across(one: RelayServer, two: RelayServer) -> tuple[RoomConnection, ...]:
    room = await create_room(one.url, seats=2)
    ada = await RoomConnection.join(one.url, room.room_id, room.player_token, "Ada")
    bob = await RoomConnection.join(two.url, room.room_id, room.player_token, "Bob")
    await receive(ada, 2)
    await receive(bob, 1)
    return ada, bob


async def test_an_event_made_between_two_inbox_reads_is_delivered(
    backplane: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Reads that end empty at once, and a pause after each: an event made in the pause was
    # skipped when each read asked for "what comes after the newest entry" ("$").
    monkeypatch.setattr(relay.redis_backplane, "BLOCK_MS", 50)
    async with shared_relays(backplane, 2) as (one, two):
        between = asyncio.Event()
        slow_down(two, "_reader", lambda command, answers: answers == [None], 1.0, between)
        room = await create_room(one.url, seats=2)
        ada = await RoomConnection.join(one.url, room.room_id, room.player_token, "Ada")
        await asyncio.wait_for(between.wait(), 3)  # relay two's reader, between two reads
        bob = await RoomConnection.join(two.url, room.room_id, room.player_token, "Bob")
        await receive(ada, 2)
        await receive(bob, 1)
        await ada.send(b"only one")  # nothing after it would reveal a gap
        assert await receive(ada) == await receive(bob) == [Message(2, 0, b"only one")]
        for member in (ada, bob):
            await member.close()


async def test_an_inbox_behind_our_own_appends_forces_no_resync(backplane: str) -> None:
    async with shared_relays(backplane, 2) as (one, two):
        ada, bob = await seated_across(one, two)
        # Relay two learns late of the numbers its own appends got, and later still what
        # it fetches from the room's stream to fill a gap in its inbox.
        numbered = asyncio.Event()  # Redis gave relay two's append its number

        def own_append(command: tuple[Any, ...], answers: list[Any]) -> bool:
            numbered.set()
            return True

        slow_down(two, "_writer", own_append, 0.1)
        slow_down(two, "_reader", lambda command, answers: command[0] == "XRANGE", 1.0)
        await bob.send(b"b0")  # 2: relay two hears its number after Ada's 3 in its inbox
        # Not a pause: on a loaded machine Bob's frame may take longer than any pause to reach
        # Redis, and Ada's would take number 2.
        await asyncio.wait_for(numbered.wait(), 10)
        await ada.send(b"a0")  # 3: the gap (2) is fetched, slowly
        await asyncio.sleep(0.3)
        await ada.send(b"a1")  # 4: waits in the inbox while the fetch is on its way
        await asyncio.sleep(0.2)
        await bob.send(b"b1")  # 5: its own, numbered while 4 is still unread
        everything = [Message(2, 1, b"b0"), Message(3, 0, b"a0"), Message(4, 0, b"a1"),
                      Message(5, 1, b"b1")]  # fmt: skip
        assert await receive(bob, 4) == await receive(ada, 4) == everything
        for member in (ada, bob):
            await member.close()
