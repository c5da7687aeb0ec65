"""People chat while the game moves: a chat line said while a throw, its dice shares or a
play are still on their way lands at the same place in every client's log (the relay's
order), so the logs stay byte-identical and verify."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Sequence

from client.game.driver import ChatLine
from client.net.game import NetworkGame
from client.net.room import join_room
from client.setup import SessionSettings
from protocol.events import ChatReceived
from protocol.logfile import read_log
from protocol.messages import Chat, decode_message
from relay.server import RelayServer
from tests.network.conftest import QUICK
from tests.network.players import TIMEOUT, assert_same_verified_logs, autoplay, meet

Hook = Callable[[NetworkGame], None]


def chatter(games: Sequence[NetworkGame]) -> tuple[Hook, list[int]]:
    """After each throw or play (still in flight), the other players say something at once,
    and every third time the one who acted too: lines racing the game's own messages."""
    said = [0]
    counter = itertools.count()

    def acted(actor: NetworkGame) -> None:
        turn = next(counter)
        for game in games:
            if game is not actor or turn % 3 == 0:
                game.chat(f"{game.names[game.local_seat or 0]} at {turn}")
                said[0] += 1

    return acted, said


def chats_in(path: object) -> int:
    records = read_log(path).records  # type: ignore[arg-type]
    return sum(isinstance(decode_message(record), Chat) for record in records)


async def test_chat_racing_jacquet_throws_and_plays_keeps_the_logs_identical(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    names = ["Ada", "Bob"]
    rooms = await meet(relay.url, "jacquet", {"match_to": 1}, names, settings)
    games = [room.game(settings(name)) for room, name in zip(rooms, names, strict=True)]
    acted, said = chatter(games)
    heard: list[ChatReceived] = []
    games[0].subscribe(lambda news: heard.append(news.line) if isinstance(news, ChatLine) else None)
    try:
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(*(autoplay(game, acted=acted) for game in games))
        assert all(game.ended is not None and game.ended.reason == "finished" for game in games)
        log = await assert_same_verified_logs(games)
        assert said[0] >= 20 and chats_in(games[0].log_path) == said[0]
        assert len(heard) == said[0] and log
    finally:
        await asyncio.gather(*(room.close() for room in rooms))


async def test_chat_racing_goose_shares_of_three_players_and_a_watcher(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    """Three players (every throw needs two other shares, revealed at once and racing each
    other and the chat) and a spectator who arrives a few turns in: four identical logs."""
    names = ["Ada", "Bob", "Cy"]
    rooms = await meet(relay.url, "goose", {"rules": "daumont"}, names, settings)
    games = [room.game(settings(name)) for room, name in zip(rooms, names, strict=True)]
    acted, said = chatter(games)
    watcher = None
    try:
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(*(autoplay(game, stop_after=6, acted=acted) for game in games))
            invite = rooms[0].spectator_invite
            assert invite is not None
            watcher = await join_room(invite, name="Eve", settings=settings("Eve"), backoff=QUICK)
            await watcher.wait_started()
            watching = watcher.game(settings("Eve"))
            await asyncio.gather(
                *(autoplay(game, acted=acted) for game in games), autoplay(watching)
            )
        assert {game.ended.reason for game in games if game.ended} == {"finished"}
        await assert_same_verified_logs([*games, watching])
        assert said[0] >= 20 and chats_in(games[0].log_path) == said[0]
    finally:
        await asyncio.gather(*(room.close() for room in [*rooms, *([watcher] if watcher else [])]))
