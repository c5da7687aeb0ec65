"""A hostile peer: an illegal play, a forged share, a wrong state hash. The honest client
names the offender, stops the match, keeps the log (which verify rejects, naming the record),
and stays up."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from client.net.room import host_room
from client.setup import SessionSettings
from protocol.verify import verify_log
from relay.server import RelayServer
from tests.network.conftest import QUICK
from tests.network.hostile import Hostile, attack_host
from tests.network.players import TIMEOUT


@pytest.mark.parametrize(
    ("attack", "expected"),
    [
        ("illegal play", "played"),
        ("forged share", "does not follow from their committed chain"),
        ("wrong state hash", "state differs from ours"),
    ],
)
async def test_the_honest_client_names_the_offender_and_survives(
    relay: RelayServer, settings: Callable[[str], SessionSettings], attack: str, expected: str
) -> None:
    honest = await host_room(relay.url, "jacquet", {"match_to": 1}, seats=2, name="Ada",
                             settings=settings("Ada"), backoff=QUICK)  # fmt: skip
    mallory = Hostile(honest.invite, settings("Mallory"))
    try:
        async with asyncio.timeout(TIMEOUT):
            game = await attack_host(honest, mallory, attack, settings("Ada"))
        assert game.ended is not None and game.ended.reason == "stopped"
        assert game.ended.seat == 1
        offences = honest.match.offences
        assert len(offences) == 1 and offences[0].fatal
        assert offences[0].who == "Mallory" and expected in offences[0].text
        assert honest.task is not None and not honest.task.done()  # still connected
        assert game.log_path is not None
        report = verify_log(game.log_path)
        assert not report.ok and report.error is not None and expected in report.error
        assert report.bad_record == len(honest.match.session.records) - 1  # type: ignore[union-attr]
        assert honest.link.status.state == "connected"
    finally:
        await honest.close()
