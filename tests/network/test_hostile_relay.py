"""A hostile relay (``--relay wss://…`` can be anyone's server): what it says never becomes
a path, a log line or screen text before it has the shape Tablier gives such things. Each
lie comes from a real relay process's traffic, rewritten on its way (``LyingRelay``); the
files are real ones."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from client.net.invite import Invite
from client.net.link import LinkFailed
from client.net.room import Room, host_room, join_room
from client.net.untrusted import RelayMisbehaved
from client.setup import SessionSettings
from relay.envelope import Created, Error, Presence, RelayMessage, Welcome
from relay.fault import Fault
from relay.server import RelayServer
from tests.client.terminal import environment, run_in_terminal
from tests.network.conftest import QUICK
from tests.network.lying_relay import LyingRelay
from tests.network.players import TIMEOUT


async def _host_through(
    liar: LyingRelay, relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> RelayMisbehaved | None:
    """Ada hosts through the liar; if she believes it, Bob joins (on the real relay) and the
    match begins — which is when the host's seat file is written."""
    try:
        ada = await host_room(liar.url, "jacquet", {}, seats=2, name="Ada",
                              settings=settings("Ada"), backoff=QUICK)  # fmt: skip
    except RelayMisbehaved as refusal:
        return refusal
    real = Invite(relay.url, liar.rooms[ada.invite.room_id], ada.invite.token, "player")
    bob = await join_room(real, name="Bob", settings=settings("Bob"), backoff=QUICK)
    try:
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(ada.wait_started(), bob.wait_started())
    finally:
        await asyncio.gather(ada.close(), bob.close())
    return None


@pytest.mark.parametrize(
    ("field", "told", "what"),
    [
        ("room_id", "../../victim", "room id"),  # relative to the seats folder
        ("room_id", "{victim}", "room id"),  # absolute
        ("player_token", "\x1b]0;owned\x07" + "T" * 30, "player token"),
        ("spectator_token", "S" * 30 + "\nforged log line", "spectator token"),
    ],
)
async def test_a_created_answer_out_of_shape_stops_the_host_and_nothing_is_written(
    relay: RelayServer,
    settings: Callable[[str], SessionSettings],
    tmp_path: Path,
    field: str,
    told: str,
    what: str,
) -> None:
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    told = told.format(victim=victim)

    def lie(message: RelayMessage) -> RelayMessage:
        return replace(message, **{field: told}) if isinstance(message, Created) else message

    async with LyingRelay(relay.url, lie) as liar:
        refusal = await _host_through(liar, relay, settings)
    assert victim.read_bytes() == b"precious"  # not the host's seat file, secrets and all
    assert refusal is not None
    assert str(refusal).startswith(f"the relay at {liar.url} sent a malformed {what} (")
    assert str(refusal).endswith("): it is not a Tablier relay, or it is hostile")
    assert "\x1b" not in str(refusal) and "\n" not in str(refusal)
    assert not (tmp_path / "Ada").exists()  # no seat file, no log, no folder


def _members(name: str) -> Callable[[RelayMessage], RelayMessage]:
    def lie(message: RelayMessage) -> RelayMessage:
        if isinstance(message, Welcome):
            return replace(message, members=tuple(replace(m, name=name) for m in message.members))
        return message

    return lie


def _presence(name: str) -> Callable[[RelayMessage], RelayMessage]:
    def lie(message: RelayMessage) -> RelayMessage:
        return replace(message, name=name) if isinstance(message, Presence) else message

    return lie


def _welcome(**fields: object) -> Callable[[RelayMessage], RelayMessage]:
    def lie(message: RelayMessage) -> RelayMessage:
        return replace(message, **fields) if isinstance(message, Welcome) else message  # type: ignore[arg-type]

    return lie


def _refuse(text: str) -> Callable[[RelayMessage], RelayMessage]:
    def lie(message: RelayMessage) -> RelayMessage:
        return Error("room_full", text) if isinstance(message, Welcome) else message

    return lie


@pytest.mark.parametrize(
    ("lie", "said"),
    [
        (_members("Ada\x1b[2J"), "sent a malformed member name ('Ada\ufffd[2J')"),
        (_presence("Bob\nrelay: forged line"), "sent a malformed member name ("),
        (_presence(""), "sent a malformed member name ('')"),
        (_welcome(seat_token="../../seat"), "sent a malformed seat token ('../../seat')"),
        (_welcome(seat=99), "sent a malformed seat number ('99')"),
        (_welcome(rate_per_minute=0), "sent a malformed sending rate ('0')"),
        # A code Tablier knows is said in its own words: the relay's text is not shown (an
        # unknown code's text is shown made safe: client.net.failures.refusal).
        (_refuse("Full\x1b]52;c;b3duZWQ=\x07"), "Every seat in this room is taken."),
    ],
    ids=[
        "roster name",
        "presence name",
        "empty name",
        "seat token",
        "seat",
        "rate",
        "refusal",
    ],
)
async def test_a_welcome_or_presence_out_of_shape_stops_the_join_naming_the_relay(
    relay: RelayServer,
    settings: Callable[[str], SessionSettings],
    lie: Callable[[RelayMessage], RelayMessage],
    said: str,
) -> None:
    ada = await host_room(relay.url, "jacquet", {}, seats=2, name="Ada",
                          settings=settings("Ada"), backoff=QUICK)  # fmt: skip
    rooms: list[Room] = [ada]
    try:
        async with LyingRelay(relay.url, lie) as liar:
            invite = Invite(liar.url, ada.invite.room_id, ada.invite.token, "player")
            rooms.append(await join_room(invite, name="Bob", settings=settings("Bob"),
                                         backoff=QUICK))  # fmt: skip
            with pytest.raises(LinkFailed) as failed:
                await rooms[1].wait_started(TIMEOUT)
    finally:
        await asyncio.gather(*(room.close() for room in rooms))
    text = str(failed.value)
    assert said in text and "\x1b" not in text and "\n" not in text
    # A refusal is taken at its word (a full room: the invite's); a malformed answer is the
    # relay's own fault.
    assert failed.value.fault is (Fault.INPUT if said.startswith("Every seat") else Fault.RELAY)
    if "malformed" in said:
        assert text.startswith(f"the relay at {liar.url} ")
    assert rooms[1].link.status.state == "failed"
    names = [member.name for member in rooms[1].match.members.values()]
    assert all(name.isprintable() and name for name in names)  # nothing of the lie kept


async def test_tablier_host_through_a_lying_relay_exits_1_naming_it(
    relay: RelayServer, tmp_path: Path
) -> None:
    def lie(message: RelayMessage) -> RelayMessage:
        return (
            replace(message, room_id="../../../.bashrc")
            if isinstance(message, Created)
            else (message)
        )

    async with LyingRelay(relay.url, lie) as liar:
        done = await asyncio.to_thread(
            run_in_terminal, ["host", "jacquet", "--name", "Ada", "--relay", liar.url],
            env=environment(tmp_path),
        )  # fmt: skip
    assert done.code == 1
    said = (f"tablier host: the relay at {liar.url} sent a malformed room id "
            "('../../../.bashrc'): it is not a Tablier relay, or it is hostile")  # fmt: skip
    assert said in done.words
    assert not any(path.is_file() for path in tmp_path.rglob("*"))
