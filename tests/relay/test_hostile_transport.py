"""Hostile clients below the envelope, against a real ``python -m relay`` process: what they
send before their connection is open, in their HTTP upgrade, and as control frames (pings,
pongs), and what a connection that dies mid-replay makes the relay write. Each is bounded by
a count the relay states (relay.limits, the rate limit); none of them stops a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import struct

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from relay.client import RoomConnection, create_room
from relay.envelope import (
    Create,
    Created,
    ErrorCode,
    Join,
    Message,
    Welcome,
    decode_relay_frame,
    encode,
)
from relay.limits import READ_SLICE, UPGRADE_REQUEST_BYTES
from tests.relay.conftest import RelayProcess, spawn_relay, two_players
from tests.relay.test_hostile import assert_game_goes_on, refusal_and_close

PING, PONG, BINARY, CLOSE = 0x9, 0xA, 0x2, 0x8


def _address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("ws://").rstrip("/").rsplit(":", 1)
    return host, int(port)


def frame(opcode: int, payload: bytes = b"") -> bytes:
    """A client's frame (masked with a zero key: the payload goes as it is)."""
    size = len(payload)
    if size < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
    else:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
    return head + b"\0\0\0\0" + payload


def upgrade_request(*extra: bytes) -> bytes:
    return (
        b"GET / HTTP/1.1\r\nHost: relay\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        + b"".join(extra)
        + b"\r\n"
    )


class RawClient:
    """A websocket client that writes whatever bytes it is given, and reads frames."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, url: str, then: bytes = b"") -> RawClient:
        """Upgrade, with ``then`` written in the same write as the request (before the 101)."""
        reader, writer = await asyncio.open_connection(*_address(url))
        writer.write(upgrade_request() + then)
        status = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        assert status.startswith(b"HTTP/1.1 101 "), status
        return cls(reader, writer)

    async def read_frame(self) -> tuple[int, bytes]:
        head = await self.reader.readexactly(2)
        size = head[1] & 0x7F
        if size == 126:
            (size,) = struct.unpack("!H", await self.reader.readexactly(2))
        elif size == 127:
            (size,) = struct.unpack("!Q", await self.reader.readexactly(8))
        return head[0] & 0x0F, await self.reader.readexactly(size)

    async def relay_frames(self) -> list[object]:
        """Every envelope the relay sends until it closes (control frames skipped)."""
        seen: list[object] = []
        async with asyncio.timeout(10):
            while True:
                opcode, payload = await self.read_frame()
                if opcode == BINARY:
                    seen.append(decode_relay_frame(payload))
                elif opcode == CLOSE:
                    seen.append(struct.unpack("!H", payload[:2])[0])
                    return seen

    def close(self) -> None:
        self.writer.close()


# --- frames before the connection is open (F8) ---------------------------------------------


async def test_frames_before_the_connection_is_open_are_held_within_one_frame() -> None:
    """A client that writes frames behind its upgrade request, before the 101: the relay
    holds at most --max-frame bytes of them (each counted 64 bytes more, control frames
    too), then refuses the connection as one over its burst, after answering what it held."""
    relay = spawn_relay("--max-frame", "256", "--burst", "100")
    try:
        # A create, then 10 unsolicited pongs (counted, none kept): 5 + 64 + 3 x 64 passes 256.
        early = frame(BINARY, encode(Create(2))) + frame(PONG) * 10
        client = await RawClient.open(relay.url, then=early)
        seen = await client.relay_frames()
        client.close()
        assert isinstance(seen[0], Created)
        assert [getattr(each, "code", each) for each in seen[1:]] == [
            ErrorCode.RATE_LIMITED,
            1008,
        ]
        # An honest client (it waits for the 101) is not affected.
        await create_room(relay.url, seats=2)
    finally:
        logged = await asyncio.to_thread(relay.log_lines)
    refused = [line for line in logged if line["event"] == "refused"]
    assert [(line["code"], line["why"]) for line in refused] == [("rate_limited", "early")]


# --- the upgrade request (F4) --------------------------------------------------------------


@pytest.mark.parametrize("finished", [True, False], ids=["whole", "unfinished"])
async def test_an_upgrade_request_larger_than_any_clients_is_answered_431_and_closed(
    finished: bool,
) -> None:
    """websockets alone reads 128 headers of 8 KiB (a megabyte a half-open connection): the
    relay answers one past relay.limits.UPGRADE_REQUEST_BYTES with 431 and closes it at once,
    whole or unfinished (unread past the bound), and an honest upgrade (with a proxy's
    headers) goes through."""
    relay = spawn_relay("--handshake-timeout", "10")
    try:
        padding = [b"X-Padding-%d: %s\r\n" % (n, b"a" * 1000) for n in range(8)]
        assert len(b"".join(padding)) > UPGRADE_REQUEST_BYTES  # each line far within 8 KiB
        reader, writer = await asyncio.open_connection(*_address(relay.url))
        request = upgrade_request(*padding)
        writer.write(request if finished else request[:-2])
        answer = await asyncio.wait_for(reader.read(), 10)  # all of it: then closed
        assert answer.startswith(b"HTTP/1.1 431 ")  # an answer a proxy passes back, not a reset
        writer.close()
        proxied = RawClient(*await asyncio.open_connection(*_address(relay.url)))
        proxied.writer.write(
            upgrade_request(b"X-Forwarded-For: 203.0.113.7, 198.51.100.2\r\n", b"X-Real-IP: x\r\n")
        )
        status = await asyncio.wait_for(proxied.reader.readuntil(b"\r\n\r\n"), 10)
        assert status.startswith(b"HTTP/1.1 101 ")
        proxied.close()
    finally:
        logged = await asyncio.to_thread(relay.log_lines)
    refused = [line for line in logged if line["event"] == "refused"]
    assert [(line["why"], line["ip"]) for line in refused] == [("request_too_large", "127.0.0.1")]


# --- control frames (F1, F2) ---------------------------------------------------------------


@pytest.mark.parametrize("control", ["ping", "pong"])
async def test_a_flood_of_control_frames_is_refused_like_one_of_messages(
    relay_process: RelayProcess, game: tuple[RoomConnection, ...], control: str
) -> None:
    """Pings (each of which websockets answers with a pong) and unsolicited pongs cost a
    token of the connection's rate limit: past its burst (20 here) it is refused and closed,
    and the game in another room goes on.

    How it ends depends on how far the flood got when the refusal was written: closed with
    1008 if the flooder stopped there, cut off (a reset, which may overtake the refusal on
    the wire) if he went on pinging a connection being closed. Either way the relay's log
    says it refused him for his control frames, and the connection is over."""
    async with connect(relay_process.url, ping_interval=None) as websocket:
        with contextlib.suppress(ConnectionClosed):
            for n in range(100):
                if control == "ping":
                    await websocket.ping(b"%d" % n)  # its pong is not awaited
                else:
                    await websocket.pong(b"unasked")
            while True:  # the refusal, then the end (a timeout here: never closed)
                await asyncio.wait_for(websocket.recv(decode=False), 10)
    await assert_game_goes_on(game)
    logged = await asyncio.to_thread(relay_process.log_lines)  # it stops the relay
    assert any(line.get("why") == "control" and line.get("code") == ErrorCode.RATE_LIMITED
               for line in logged if line["event"] == "refused")  # fmt: skip


async def test_a_pinger_that_does_not_read_is_cut_off(
    relay_process: RelayProcess, game: tuple[RoomConnection, ...]
) -> None:
    """A member who floods pings and never reads made websockets queue a pong for each in
    the relay (megabytes, and no keepalive could fire): now its flood is refused, and as it
    goes on pinging without reading the refusal, its connection is dropped."""
    ada, bob, spectator_token = await two_players(relay_process.url)
    room_id = ada.room_id
    await ada.close()
    await bob.close()
    client = await RawClient.open(relay_process.url)
    client.writer.write(frame(BINARY, encode(Join(room_id, spectator_token, "Pinger"))))
    assert isinstance(decode_relay_frame((await client.read_frame())[1]), Welcome)
    # Then only pings, 2.6 MB of them (each answered by a 127-byte pong), never reading.
    flood = frame(PING, b"p" * 125) * 2000
    with pytest.raises(ConnectionError):
        async with asyncio.timeout(30):
            for _ in range(10):
                client.writer.write(flood)
                await client.writer.drain()
            while await client.reader.read(1 << 16):  # the relay's end: EOF or a reset
                pass
            raise ConnectionResetError("closed")  # EOF: the relay closed it
    client.close()
    await assert_game_goes_on(game)
    logged = await asyncio.to_thread(relay_process.log_lines)
    assert any(line.get("why") == "control" for line in logged if line["event"] == "refused")


async def test_one_read_of_tiny_frames_is_parsed_only_up_to_its_refusal(
    relay_process: RelayProcess, game: tuple[RoomConnection, ...]
) -> None:
    """256 KiB of empty pings in one write (43,690 frames, which the relay may read at once):
    websockets would parse them all and write a pong for each before the rate limit saw one.
    Fed a slice at a time (relay.limits.READ_SLICE), the relay parses and answers at most
    the burst and one slice's worth once it refused the connection."""
    ada, _ = game
    client = await RawClient.open(relay_process.url)
    client.writer.write(frame(BINARY, encode(Join(ada.room_id, "x" * 43, "Pinger"))))
    # (refused with bad_token, and closed: its pings come while it is open in the core)
    client.writer.write(frame(PING) * (256 * 1024 // 6))
    pongs = 0
    with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
        async with asyncio.timeout(10):
            while True:
                opcode, _ = await client.read_frame()
                pongs += opcode == PONG
    client.close()
    assert pongs <= 20 + 2 * (READ_SLICE // 6)  # the burst (--burst 20), a slice or two
    await assert_game_goes_on(game)


# --- a connection that dies mid-replay (F7) ------------------------------------------------


async def test_a_replay_to_a_dead_connection_writes_nothing_but_json_lines() -> None:
    """A spectator asks to resume from the start of a long backlog and closes at once: the
    relay used to go on writing the replay to the failed socket, and asyncio printed one
    plain-text warning per frame into the JSON log."""
    relay = spawn_relay("--rate", "10000", "--burst", "10000", "--max-connections-per-ip", "64")
    try:
        ada, bob, spectator_token = await two_players(relay.url)
        for n in range(600):
            await ada.send(b"move %d" % n + b"." * 200)
        for _ in range(600):  # all in the backlog
            while not isinstance(await bob.receive(), Message):
                pass
        for _ in range(10):
            reader, writer = await asyncio.open_connection(*_address(relay.url))
            writer.write(upgrade_request())
            await reader.readuntil(b"\r\n\r\n")
            writer.write(frame(BINARY, encode(Join(ada.room_id, spectator_token, "W", 0))))
            writer.transport.abort()
        await ada.close()
        await bob.close()
        await create_room(relay.url, seats=2)  # it still answers
    finally:
        text = await asyncio.to_thread(relay.log_text)
    lines = text.splitlines()
    assert [line for line in lines if not line.startswith("{")] == []
    assert sum('"joined"' in line for line in lines) >= 3  # the replays were asked for


# --- log lines and creates (F3) ------------------------------------------------------------


async def test_one_connection_creates_once_and_every_line_names_its_address(
    relay_process: RelayProcess,
) -> None:
    """A connection that asked for a room may not ask again (each re-create was a log line
    and a reply, without limit); joins and creates name the address, so the log's pacer
    counts them against it."""
    first = await create_room(relay_process.url, seats=2)
    async with connect(relay_process.url) as websocket:
        await websocket.send(encode(Create(2, first)))
        assert decode_relay_frame(await websocket.recv(decode=False)) == first
        await websocket.send(encode(Create(2, first)))
        assert await refusal_and_close(websocket) == (ErrorCode.ALREADY_JOINED, 1008)
    ada, bob, _ = await two_players(relay_process.url)
    await ada.close()
    await bob.close()
    logged = await asyncio.to_thread(relay_process.log_lines)
    lines = [line for line in logged if line["event"] in ("created", "recreated", "joined")]
    assert len(lines) == 1 + 1 + 1 + 2  # created, recreated, created, joined twice
    assert all(line["ip"] == "127.0.0.1" for line in lines)
