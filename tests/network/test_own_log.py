"""The log of a networked match is this app's own file: a file already at --log gets a
sibling (as ``tablier play`` does), and a log this app cannot write stops its match as its
own failure — never an offence of the player whose message began the match."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from client.net.link import LinkFailed
from client.net.room import host_room, join_room
from client.setup import SessionSettings
from relay.fault import Fault
from relay.server import RelayServer
from tests.network.conftest import QUICK
from tests.network.players import TIMEOUT


async def test_an_existing_log_file_gets_a_sibling_and_blames_nobody(
    relay: RelayServer, settings: Callable[[str], SessionSettings], tmp_path: Path
) -> None:
    existing = tmp_path / "bob.tablier"
    existing.write_bytes(b"Bob's previous match log")
    ann = await host_room(relay.url, "goose", {}, seats=2, name="Ann", settings=settings("Ann"),
                          backoff=QUICK)  # fmt: skip
    bob = await join_room(ann.invite, name="Bob", backoff=QUICK,
                          settings=replace(settings("Bob"), log_path=existing))  # fmt: skip
    try:
        async with asyncio.timeout(TIMEOUT):
            await ann.wait_started()
            await bob.wait_started()
        assert bob.match.session is not None
        assert bob.match.offences == [] and ann.match.offences == []
        assert existing.read_bytes() == b"Bob's previous match log"
        assert bob.match.logs.path == tmp_path / "bob-2.tablier"
    finally:
        await bob.close()
        await ann.close()


async def test_a_log_this_app_cannot_write_stops_the_match_as_its_own(
    relay: RelayServer, settings: Callable[[str], SessionSettings], tmp_path: Path
) -> None:
    (tmp_path / "Bob").mkdir()
    (tmp_path / "Bob" / "matches").write_text("a file where the logs' folder goes")
    ann = await host_room(relay.url, "goose", {}, seats=2, name="Ann", settings=settings("Ann"),
                          backoff=QUICK)  # fmt: skip
    bob = await join_room(ann.invite, name="Bob", settings=settings("Bob"), backoff=QUICK)
    try:
        async with asyncio.timeout(TIMEOUT):
            with pytest.raises(LinkFailed) as failed:
                await bob.wait_started()
        said = str(failed.value)
        assert said.startswith("the match stopped: this app cannot write your log of it"), said
        assert "Ann" not in said and bob.match.offences == []
        assert failed.value.fault is Fault.OURS  # this machine's disk: nobody else's fault
    finally:
        await bob.close()
        await ann.close()
