"""Disconnections, a relay restart and a late spectator: the games go on, logs stay identical."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from client.game.driver import ChatLine, GameNews
from client.net.link import Backoff
from client.net.room import join_room
from client.setup import SessionSettings
from engine.canonical import state_hash
from relay.config import RelayConfig
from relay.server import RelayServer
from tests.network.conftest import QUICK, RelayProcess
from tests.network.players import TIMEOUT, assert_same_verified_logs, autoplay, meet, play_out


async def test_a_dropped_player_reconnects_resumes_and_the_game_finishes(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    rooms = await meet(relay.url, "jacquet", {"match_to": 1}, ["Ada", "Bob"], settings)
    ada, bob = (room.game(settings(name)) for room, name in zip(rooms, ["Ada", "Bob"], strict=True))
    try:
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(autoplay(ada, stop_after=6), autoplay(bob, stop_after=6))
            for _ in range(3):  # the connection drops three times, once mid-turn
                rooms[1].link.drop()
                await asyncio.gather(autoplay(ada, stop_after=3), autoplay(bob, stop_after=3))
        await play_out([ada, bob])
        assert rooms[1].link.reconnections >= 3
        await assert_same_verified_logs([ada, bob])
    finally:
        await asyncio.gather(*(room.close() for room in rooms))


async def test_the_relay_restarts_mid_game_and_both_players_carry_on(
    relay_process: list[RelayProcess], settings: Callable[[str], SessionSettings]
) -> None:
    url = relay_process[0].url
    rooms = await meet(url, "jacquet", {"match_to": 1}, ["Ada", "Bob"], settings)
    ada, bob = (room.game(settings(name)) for room, name in zip(rooms, ["Ada", "Bob"], strict=True))
    try:
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(autoplay(ada, stop_after=8), autoplay(bob, stop_after=8))
        relay_process.append(relay_process[-1].restart())  # killed: it loses every room
        await play_out([ada, bob])
        assert all(room.link.reconnections >= 1 for room in rooms)
        await assert_same_verified_logs([ada, bob])
    finally:
        await asyncio.gather(*(room.close() for room in rooms))


async def test_a_late_spectator_sees_the_current_position_and_the_same_end(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    names = ["Ada", "Bob", "Cy"]
    rooms = await meet(relay.url, "goose", {"rules": "1792"}, names, settings)
    games = [room.game(settings(name)) for room, name in zip(rooms, names, strict=True)]
    spectator_invite = rooms[0].spectator_invite
    assert spectator_invite is not None
    watcher = await join_room(spectator_invite, name="Eve", settings=settings("Eve"), backoff=QUICK)
    try:
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(*(autoplay(game, stop_after=9) for game in games))
            await watcher.wait_started()
            # Caught up on the whole backlog: the watcher's match is where the players' are.
            session = watcher.match.session
            assert session is not None
            while len(session.records) < len(rooms[0].match.session.records):  # type: ignore[union-attr]
                await asyncio.sleep(0.01)
        watching = watcher.game(settings("Eve"))
        # Its screen is handed every turn so far, to catch up on, then is where the players are.
        assert watching.watching and watching.pending_turns >= 1
        while watching.pending_turns:
            await watching.next_turn()
        assert state_hash(watching.state) == state_hash(games[0].state)
        await play_out([*games, watching])
        await assert_same_verified_logs([*games, watching])
    finally:
        await asyncio.gather(*(room.close() for room in [*rooms, watcher]))


async def test_a_player_back_after_the_backlog_moved_on_resyncs_from_a_peer(
    settings: Callable[[str], SessionSettings],
) -> None:
    """The relay keeps 8 events; Ada says 12 things while Bob is away, so the relay cannot
    replay them: Bob asks, Ada sends the transcript, Bob checks it and carries on."""
    async with RelayServer(
        RelayConfig(port=0, rate=2000, burst=2000, backlog=8, max_bytes_per_ip=1 << 30)
    ) as relay:
        rooms = await meet(relay.url, "jacquet", {"match_to": 1}, ["Ada", "Bob"], settings)
        ada, bob = (room.game(settings(n)) for room, n in zip(rooms, ["Ada", "Bob"], strict=True))
        try:
            async with asyncio.timeout(TIMEOUT):
                await asyncio.gather(autoplay(ada, stop_after=4), autoplay(bob, stop_after=4))
                rooms[1].link.backoff = Backoff(first=1.0, most=1.0, jitter=0)
                rooms[1].link.drop()
                while rooms[0].match.members[1].connected:
                    await asyncio.sleep(0.01)
                for line in range(12):
                    ada.chat(f"line {line}")
                heard: list[str] = []

                def hear(news: GameNews) -> None:
                    if isinstance(news, ChatLine):
                        heard.append(news.line.text)

                bob.subscribe(hear)
                while len(heard) < 12:
                    await asyncio.sleep(0.02)
            connection = rooms[1].link.connection
            assert connection is not None and connection.welcome.resync  # the relay could not
            assert heard == [f"line {n}" for n in range(12)]  # all of it, in order, once
            await play_out([ada, bob])
            await assert_same_verified_logs([ada, bob])
        finally:
            await asyncio.gather(*(room.close() for room in rooms))
