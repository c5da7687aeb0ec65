"""Networked matches without the UI: rooms on a real relay, NetworkGame driven by the bot."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from client.setup import SessionSettings
from relay.server import RelayServer
from tests.network.players import assert_same_verified_logs, meet, play_out


async def test_two_players_finish_a_jacquet_game_with_identical_verified_logs(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    rooms = await meet(relay.url, "jacquet", {"match_to": 1}, ["Ada", "Bob"], settings)
    try:
        games = [room.game(room_settings) for room, room_settings in
                 zip(rooms, [settings("Ada"), settings("Bob")], strict=True)]  # fmt: skip
        assert [game.local_seat for game in games] == [0, 1]
        await play_out(games)
        assert all(game.ended is not None and game.ended.reason == "finished" for game in games)
        await assert_same_verified_logs(games)
    finally:
        await asyncio.gather(*(room.close() for room in rooms))


async def test_three_players_finish_a_goose_game_with_identical_verified_logs(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    names = ["Ada", "Bob", "Cy"]
    rooms = await meet(relay.url, "goose", {"rules": "daumont"}, names, settings)
    try:
        games = [room.game(settings(name)) for room, name in zip(rooms, names, strict=True)]
        await play_out(games)
        assert {game.ended.reason for game in games if game.ended} == {"finished"}
        await assert_same_verified_logs(games)
    finally:
        await asyncio.gather(*(room.close() for room in rooms))
