"""Whole matches through a relay at its default limits (20 messages/s, bursts of 40), not the
raised ones the other network tests use: computer seats with no pause send far faster than
people, and the clients must keep to what the relay's welcome allows instead of being cut off
(rate_limited) and coming back."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest

from client.net.room import join_room
from client.setup import SessionSettings
from relay.config import RelayConfig
from relay.envelope import ErrorCode
from relay.server import RelayServer
from tests.network.conftest import QUICK
from tests.network.players import TIMEOUT, assert_same_verified_logs, autoplay, meet, play_out


@pytest.fixture
async def default_relay() -> AsyncIterator[RelayServer]:
    async with RelayServer(RelayConfig(port=0)) as server:
        yield server


def refused(relay: RelayServer) -> dict[str, int]:
    return {code: count for code, count in relay.core.stats.refusals.items() if count}


async def test_three_players_finish_a_goose_game_within_the_default_limits(
    default_relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    names = ["Ada", "Bob", "Cy"]
    rooms = await meet(default_relay.url, "goose", {"rules": "daumont"}, names, settings)
    try:
        games = [room.game(settings(name)) for room, name in zip(rooms, names, strict=True)]
        await play_out(games)
        assert {game.ended.reason for game in games if game.ended} == {"finished"}
        await assert_same_verified_logs(games)
        assert refused(default_relay) == {}
        assert all(room.link.reconnections == 0 for room in rooms)
    finally:
        await asyncio.gather(*(room.close() for room in rooms))


async def test_a_jacquet_match_with_a_spectator_and_a_resume_within_the_default_limits(
    default_relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    """Bob's connection drops twice: each time he resumes, resends what was not confirmed
    and catches up (a burst) — paced, never refused."""
    rooms = await meet(default_relay.url, "jacquet", {"match_to": 1}, ["Ada", "Bob"], settings)
    invite = rooms[0].spectator_invite
    assert invite is not None
    watcher = await join_room(invite, name="Eve", settings=settings("Eve"), backoff=QUICK)
    try:
        ada, bob = (room.game(settings(room.match.name)) for room in rooms)
        async with asyncio.timeout(TIMEOUT):
            await watcher.wait_started()
            for _ in range(2):
                await asyncio.gather(autoplay(ada, stop_after=8), autoplay(bob, stop_after=8))
                rooms[1].link.drop()
        watching = watcher.game(settings("Eve"))
        await play_out([ada, bob, watching])
        assert all(game.ended and game.ended.reason == "finished" for game in (ada, bob))
        await assert_same_verified_logs([ada, bob, watching])
        assert rooms[1].link.reconnections >= 2
        assert refused(default_relay) == {}, f"refused: {refused(default_relay)}"
        assert ErrorCode.RATE_LIMITED not in default_relay.core.stats.refusals
    finally:
        await asyncio.gather(*(room.close() for room in [*rooms, watcher]))
