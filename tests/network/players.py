"""Computer-driven players for the network tests: they act only through NetworkGame, as the
screens do (throw, play, next_turn), so the tests exercise the same controller."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path

from client.net.game import NetworkGame
from client.net.room import Room, host_room, join_room
from client.setup import SessionSettings
from engine.awaiting import ChoosePlay, Finished, ThrowDice
from engine.bot import choose_play
from engine.jacquet import JacquetState
from protocol.logfile import read_log
from protocol.verify import verify_log
from tests.network.conftest import QUICK

TIMEOUT = 150.0
"""A hang guard, never a budget: longer than pytest-timeout's 120 s (pyproject), which stops
a real hang first; a busy machine makes a match slow, never wrong."""


async def meet(
    url: str,
    game: str,
    options: dict[str, int | str],
    names: Sequence[str],
    settings: Callable[[str], SessionSettings],
) -> list[Room]:
    """The first name hosts, the others join with the invite; returns once all are seated."""
    host = await host_room(url, game, options, seats=len(names), name=names[0],
                           settings=settings(names[0]), backoff=QUICK)  # fmt: skip
    rooms = [host]
    for name in names[1:]:
        rooms.append(
            await join_room(host.invite, name=name, settings=settings(name), backoff=QUICK)
        )
    async with asyncio.timeout(TIMEOUT):
        await asyncio.gather(*(room.wait_started() for room in rooms))
    return rooms


async def autoplay(
    game: NetworkGame,
    *,
    stop_after: int | None = None,
    acted: Callable[[NetworkGame], None] | None = None,
) -> int:
    """Play this seat by the level-1 bot and follow everyone else's turns until the end
    (or until ``stop_after`` turns were shown); returns the number of turns shown.
    ``acted(game)`` is called right after each throw or play of this seat, while it is still
    on its way to the relay."""
    shown = 0
    while not isinstance(game.awaiting, Finished) and (stop_after is None or shown < stop_after):
        awaiting = game.awaiting
        if game.catching_up and not game.pending_turns:  # as the screen: nothing meanwhile
            await until_caught_up_or_a_turn(game)
            continue
        caught_up = not game.pending_turns
        if (
            caught_up
            and isinstance(awaiting, ThrowDice | ChoosePlay)
            and awaiting.seat == game.local_seat
        ):
            state = game.state
            if isinstance(awaiting, ChoosePlay):
                assert isinstance(state, JacquetState)
                game.play(choose_play(state.position, awaiting.dice, bearoff=state.options.bearoff))
            else:
                game.throw()
            if acted is not None:
                acted(game)
        await game.next_turn()
        shown += 1
    return shown


async def until_caught_up_or_a_turn(game: NetworkGame) -> None:
    """Until *game* caught up with its match, or a turn came to show."""
    changed = asyncio.Event()
    unsubscribe = game.subscribe(lambda _news: changed.set())
    try:
        while game.catching_up and not game.pending_turns:
            changed.clear()
            await changed.wait()
    finally:
        unsubscribe()


async def play_out(games: Sequence[NetworkGame]) -> None:
    async with asyncio.timeout(TIMEOUT):
        await asyncio.gather(*(autoplay(game) for game in games))


async def settled(games: Sequence[NetworkGame]) -> None:
    """Until every client logged everything: the same number of records everywhere, and no
    message of its own still waiting for the relay's echo to find its place in the log."""

    def counts() -> set[int]:
        return {len(game.match.session.records) for game in games}  # type: ignore[union-attr]

    async with asyncio.timeout(TIMEOUT):
        while True:
            before = counts()
            if len(before) == 1 and all(
                game.match.session is not None and game.match.session.unlogged() == 0
                for game in games
            ):
                await asyncio.sleep(0.1)  # nothing more on its way
                if counts() == before:
                    return
            await asyncio.sleep(0.01)


async def assert_same_verified_logs(games: Sequence[NetworkGame]) -> bytes:
    """Every client's log (once settled) is byte-identical, and verifies."""
    await settled(games)
    paths = [game.log_path for game in games]
    assert all(path is not None for path in paths)
    contents = [Path(path).read_bytes() for path in paths if path is not None]
    assert all(data == contents[0] for data in contents), "the clients' logs differ"
    report = verify_log(Path(paths[0]))  # type: ignore[arg-type]
    assert report.ok, report.error
    assert read_log(Path(paths[0])).problem is None  # type: ignore[arg-type]
    return contents[0]
