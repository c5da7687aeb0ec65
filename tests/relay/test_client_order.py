"""How :class:`relay.client.RoomConnection` puts our own sends in their place in the stream.

The relay does not send a member its own messages back, so the client works out their
numbers from the gaps (and the relay's ``stamped``). Against the real relay the result must
be one stream for everybody; against a scripted relay that breaks the numbering, a clear
error rather than a silently different order.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from websockets.asyncio.server import ServerConnection, serve

from relay.client import RelayError, RoomConnection
from relay.envelope import (
    Message,
    Presence,
    PresenceEvent,
    RelayMessage,
    Stamped,
    Welcome,
    encode,
)
from relay.server import RelayServer
from tests.relay.conftest import two_players


async def test_a_lone_sender_that_asks_gets_its_messages_back_in_place(
    relay: RelayServer,
) -> None:
    ada, bob, _ = await two_players(relay.url)
    await bob.close()
    assert await ada.receive() == Presence(2, 1, PresenceEvent.LEFT, "Bob")
    await ada.send(b"anyone?")
    with pytest.raises(TimeoutError):  # nothing else happens in the room to place it
        await asyncio.wait_for(ada.receive(), 0.2)
    await ada.send(b"hello?", tell=True)
    # The relay's stamped for the second places both.
    assert await asyncio.wait_for(ada.receive(), 5) == Message(3, 0, b"anyone?")
    assert await ada.receive() == Message(4, 0, b"hello?")
    assert ada.next_seq == 5
    await ada.close()


async def test_a_resumed_member_gets_its_numbered_sends_in_the_replay(relay: RelayServer) -> None:
    ada, bob, _ = await two_players(relay.url)
    await ada.send(b"sent before the drop")
    assert await bob.receive() == Message(2, 0, b"sent before the drop")
    resumed = await ada.reconnect()  # Ada never read her own message's place
    replayed = [await resumed.receive() for _ in range(3)]
    assert replayed[0] == Message(2, 0, b"sent before the drop")
    assert replayed[1:] == [
        Presence(3, 0, PresenceEvent.LEFT, "Ada"),
        Presence(4, 0, PresenceEvent.RECONNECTED, "Ada"),
    ]
    await resumed.close()
    await bob.close()


@asynccontextmanager
async def scripted_relay(frames: list[RelayMessage]) -> AsyncIterator[str]:
    """A websockets server that welcomes a join to seat 0, then sends ``frames`` as they are."""

    async def handler(websocket: ServerConnection) -> None:
        await websocket.recv()  # the join
        await websocket.send(encode(Welcome(0, "k" * 43, 2, 0, False, ())))
        await websocket.recv()  # one send from the member
        for frame in frames:
            await websocket.send(encode(frame))
        await websocket.wait_closed()

    async with serve(handler, "127.0.0.1", 0) as server:
        yield f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}/"


async def joined_and_sent(url: str) -> RoomConnection:
    member = await RoomConnection.join(url, "room", "token", "Ada")
    await member.send(b"mine")
    return member


async def test_gaps_are_filled_with_own_sends_in_the_order_sent() -> None:
    frames: list[RelayMessage] = [Message(1, 1, b"theirs"), Stamped(0), Stamped(1)]
    async with scripted_relay(frames) as url:
        ada = await joined_and_sent(url)
        assert await ada.receive() == Message(0, 0, b"mine")
        assert await ada.receive() == Message(1, 1, b"theirs")
        await ada.send(b"second")  # the script sends nothing more: no place for it yet
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(ada.receive(), 0.3)
        await ada.close()


@pytest.mark.parametrize(
    ("frames", "words"),
    [
        ([Message(2, 1, b"theirs")], "skipped event 1"),  # two gaps, one send of ours
        ([Message(0, 1, b"theirs"), Message(0, 1, b"again")], "event 0 twice"),
        ([Stamped(3)], "skipped event 1"),
    ],
    ids=["a gap that is not ours", "a number twice", "stamped beyond our sends"],
)
async def test_a_relay_that_breaks_the_numbering_is_refused_by_name(
    frames: list[RelayMessage], words: str
) -> None:
    async with scripted_relay(frames) as url:
        ada = await joined_and_sent(url)
        with pytest.raises(RelayError) as broken:
            while True:
                await asyncio.wait_for(ada.receive(), 2)
        assert broken.value.code == "bad_sequence" and words in broken.value.text
        await ada.close()
