"""A peer's offences on the board, told at once and never covering it: one toast per sender
and reason with its repeats counted, and at most MAX_OFFENCE_TOASTS up at once. Ada is the
real app (Pilot, 80x24) hosting on a real relay; Mallory meets honestly, then sends junk."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import msgpack  # type: ignore[import-untyped]

from client.app import NetworkApp
from client.net.plan import HostPlan
from client.screens.game import MAX_OFFENCE_TOASTS
from client.setup import SessionSettings
from relay.server import RelayServer
from tests.network.hostile import Hostile
from tests.network.test_ui_games import SIZE, hosted_room, shows_game, until

JUNK = b"\x91\xcc"  # "not msgpack": each one an offence of the same reason
REPEATS = 30
JUNK_SAID = ("Mallory (seat 2): sent something that is not Tablier traffic (a payload that is "
             "not msgpack)")  # fmt: skip


def offence_toasts(app: NetworkApp) -> list[str]:
    return [n.message for n in app._notifications if n.title == "Ignored"]


async def test_repeated_junk_is_one_toast_counted_and_reasons_are_capped(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    plan = HostPlan("goose", {"rules": "daumont"}, 2, "Ada", relay_url=relay.url)
    host = NetworkApp(plan, settings("Ada"))
    async with host.run_test(size=SIZE, notifications=True) as ada:
        room = await hosted_room(ada, host)
        mallory = Hostile(room.invite, settings("Mallory"))
        await mallory.enter()
        follower = asyncio.create_task(mallory.follow(lambda: False))
        try:
            await until(ada, shows_game(host), "the game screen")
        finally:
            follower.cancel()
        connection = mallory.connection
        assert connection is not None
        # Junk alone, nothing else changing: each is told as it comes (not with the next
        # change), on one toast that counts them.
        for _ in range(REPEATS):
            await connection.send(JUNK)
        counted = f"{JUNK_SAID} (×{REPEATS})"  # noqa: RUF001 - the multiplication sign
        await until(ada, lambda: counted in offence_toasts(host), "the junk counted on a toast")
        assert offence_toasts(host) == [counted]
        assert len(room.match.offences) == REPEATS  # each one is still an offence of its own
        # Payloads of kinds nobody knows, each its own reason: the newest stay up, no more.
        kinds = [90, 91, 92]
        for kind in kinds:
            await connection.send(msgpack.packb([kind]))
        last = ("Mallory (seat 2): sent something that is not Tablier traffic (a payload of "
                f"unknown kind {kinds[-1]})")  # fmt: skip
        await until(ada, lambda: last in offence_toasts(host), "the last reason told")
        told = offence_toasts(host)
        assert len(told) == MAX_OFFENCE_TOASTS == 2
        assert told == [f"{last[:-3]}{kind})" for kind in kinds[-MAX_OFFENCE_TOASTS:]]
