"""Hostile clients against a real ``python -m relay`` process.

Each attack is answered with its own refusal, and a game already under way in another room
carries on untouched afterwards. The relay here allows 8 connections per address, 5 failed
joins per minute, bursts of 20 messages and 0.5 s to join.
"""

from __future__ import annotations

import asyncio
import os

import msgpack  # type: ignore[import-untyped]
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosedError, InvalidHandshake

from relay.client import RelayError, RoomConnection, create_room
from relay.envelope import (
    VERSION,
    Create,
    Created,
    Error,
    ErrorCode,
    Join,
    Kind,
    Message,
    Presence,
    PresenceEvent,
    Send,
    decode_relay_frame,
    encode,
)
from relay.logs import LINES_PER_ADDRESS
from relay.rooms import new_room
from tests.relay.conftest import RelayProcess, spawn_relay, two_players


async def next_message(member: RoomConnection) -> Message:
    while not isinstance(event := await member.receive(), Message):
        pass  # presence events of the attack's aftermath
    return event


async def assert_game_goes_on(game: tuple[RoomConnection, ...]) -> None:
    ada, bob = game
    await ada.send(b"still playing", tell=True)
    seen = await asyncio.wait_for(asyncio.gather(next_message(ada), next_message(bob)), 2)
    assert seen[0] == seen[1] == Message(seen[0].seq, 0, b"still playing")


async def refusal_and_close(websocket: ClientConnection) -> tuple[str, int]:
    """The error code the relay sent, then the close code it closed with (each awaited
    generously: they come at once, or after a timeout of the relay's, on a loaded machine)."""
    reply = decode_relay_frame(await asyncio.wait_for(websocket.recv(decode=False), 10))
    assert isinstance(reply, Error), reply
    assert reply.text.endswith(".")
    with pytest.raises(ConnectionClosedError) as closed:
        await asyncio.wait_for(websocket.recv(), 10)
    assert closed.value.rcvd is not None
    return reply.code, closed.value.rcvd.code


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        (os.urandom(64), ErrorCode.BAD_ENVELOPE),
        (msgpack.packb({"please": "forward"}), ErrorCode.BAD_ENVELOPE),
        (msgpack.packb([VERSION, 3, 42, None]), ErrorCode.BAD_ENVELOPE),
        (b"\x91" * 10_000 + b"\x00", ErrorCode.BAD_ENVELOPE),  # 10,000 nested arrays
        (b"\xdd\xff\xff\xff\xff", ErrorCode.BAD_ENVELOPE),  # declares 4 billion elements
        (msgpack.packb([9, 5, b"x"]), ErrorCode.UNSUPPORTED_VERSION),
    ],
    ids=["random bytes", "a map", "wrong fields", "deep nesting", "huge array", "version 9"],
)
async def test_malformed_frames_are_refused(
    relay_process: RelayProcess, game: tuple[RoomConnection, ...], frame: bytes, code: str
) -> None:
    async with connect(relay_process.url) as websocket:
        await websocket.send(frame)
        assert await refusal_and_close(websocket) == (code, 1008)
    await assert_game_goes_on(game)


async def test_text_frames_are_refused(
    relay_process: RelayProcess, game: tuple[RoomConnection, ...]
) -> None:
    async with connect(relay_process.url) as websocket:
        await websocket.send('{"join": "please"}')
        assert await refusal_and_close(websocket) == (ErrorCode.TEXT_FRAME, 1003)
    await assert_game_goes_on(game)


async def test_an_oversized_frame_closes_with_1009(
    relay_process: RelayProcess, game: tuple[RoomConnection, ...]
) -> None:
    ada, _ = game
    # Even a seated player cannot push more than 16 KiB in one frame.
    await ada.send(b"x" * (17 * 1024))
    with pytest.raises(ConnectionClosedError) as closed:
        await asyncio.wait_for(ada.receive(), 2)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    ada = await ada.reconnect()
    await assert_game_goes_on((ada, game[1]))
    await ada.close()
    logged = await asyncio.to_thread(relay_process.log_lines)  # the loop must answer closes
    assert any(
        line["event"] == "refused" and line.get("code") == "frame_too_large" for line in logged
    )


async def test_a_flood_past_the_rate_limit_is_refused_then_closed(
    relay_process: RelayProcess, game: tuple[RoomConnection, ...]
) -> None:
    room = await create_room(relay_process.url, seats=1)
    flooder = await RoomConnection.join(relay_process.url, room.room_id, room.player_token, "F")
    frame = encode(Send(b"spam"))
    for _ in range(400):
        await flooder.websocket.send(frame)
    seen = []
    with pytest.raises(RelayError) as refused:
        while True:
            seen.append(await asyncio.wait_for(flooder.receive(), 2))
    assert refused.value.code == ErrorCode.RATE_LIMITED
    assert len(seen) < 200  # its arrival, the burst and a little rate; never the flood
    with pytest.raises(ConnectionClosedError) as closed:
        await flooder.receive()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    await assert_game_goes_on(game)


async def test_a_connection_that_never_finishes_its_handshakes_is_dropped(
    relay_process: RelayProcess, game: tuple[RoomConnection, ...]
) -> None:
    host, port = relay_process.url.removeprefix("ws://").rstrip("/").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(b"GET / HTTP/1.1\r\nHost: relay\r\n")  # and never the blank line
    assert await asyncio.wait_for(reader.read(), 10) == b""  # the relay hung up
    writer.close()
    async with connect(relay_process.url) as websocket:  # upgraded, but never joins
        assert await refusal_and_close(websocket) == (ErrorCode.HANDSHAKE_TIMEOUT, 1008)
    await assert_game_goes_on(game)


async def test_too_many_connections_from_one_address(
    relay_process: RelayProcess, game: tuple[RoomConnection, ...]
) -> None:
    extra = [await connect(relay_process.url) for _ in range(6)]  # 2 players + 6 = the cap
    async with connect(relay_process.url) as refused:
        assert await refusal_and_close(refused) == (ErrorCode.TOO_MANY_CONNECTIONS, 1013)
    for websocket in extra:
        await websocket.close()
    await assert_game_goes_on(game)
    await create_room(relay_process.url, seats=2)  # the freed places can be used again


async def test_guessing_room_ids_is_throttled(
    relay_process: RelayProcess, game: tuple[RoomConnection, ...]
) -> None:
    real = await create_room(relay_process.url, seats=2)
    codes = []
    for _ in range(6):
        guess = encode(Join(os.urandom(16).hex()[:22], real.player_token, "Guesser"))
        async with connect(relay_process.url) as websocket:
            await websocket.send(guess)
            codes.append(await refusal_and_close(websocket))
    assert codes == [(ErrorCode.UNKNOWN_ROOM, 1008)] * 5 + [(ErrorCode.TOO_MANY_FAILURES, 1008)]
    with pytest.raises(RelayError) as refused:  # this address may not even use a real invite
        await RoomConnection.join(relay_process.url, real.room_id, real.player_token, "Guess")
    assert refused.value.code == ErrorCode.TOO_MANY_FAILURES
    await assert_game_goes_on(game)  # seated players are not affected


async def test_a_room_id_alone_cannot_take_a_lost_room(
    relay_process: RelayProcess, game: tuple[RoomConnection, ...]
) -> None:
    """A spectator knows a room's id and its spectator token: after a relay restart he must
    not be able to bring the room back under a player token of his own (the players would
    then be refused until their address was locked out for guessing)."""
    lost = new_room(2)  # the secrets of a room this relay never held (it "restarted")
    squat = Created(lost.room_id, "m" * 43, lost.spectator_token)
    for _ in range(8):  # more tries than the 5 failed joins a minute this relay allows
        async with connect(relay_process.url) as websocket:
            await websocket.send(encode(Create(2, squat)))
            assert await refusal_and_close(websocket) == (ErrorCode.BAD_TOKEN, 1008)
    # The same address, with the invite's real secrets: never counted, never locked out.
    assert await create_room(relay_process.url, 2, again=lost) == lost
    url = relay_process.url
    async with await RoomConnection.join(url, lost.room_id, lost.player_token, "Ada") as ada:
        assert ada.seat == 0
    await assert_game_goes_on(game)


async def test_the_seat_on_each_message_is_its_senders(
    relay_process: RelayProcess, game: tuple[RoomConnection, ...]
) -> None:
    """A player cannot make the relay stamp another seat on his messages: the payload is
    opaque, a send has no seat field, and a relay's own message envelope is refused."""
    ada, bob = game
    looks_like_ada = encode(Message(99, 0, b"I resign"))
    await bob.send(looks_like_ada)
    non_canonical = b"\xdc\x00\x03" + bytes((VERSION, Kind.SEND)) + msgpack.packb(b"slow path")
    await bob.websocket.send(non_canonical)  # decoded the long way, stamped all the same
    first, second = await next_message(ada), await next_message(ada)
    assert (first.seat, first.payload) == (1, looks_like_ada)
    assert (second.seat, second.payload) == (1, b"slow path")
    await bob.websocket.send(looks_like_ada)  # the relay's envelope, sent to the relay
    with pytest.raises(RelayError) as refused:
        while True:
            await asyncio.wait_for(bob.receive(), 2)
    assert refused.value.code == ErrorCode.BAD_ENVELOPE
    assert await asyncio.wait_for(ada.receive(), 2) == Presence(
        first.seq + 2, 1, PresenceEvent.LEFT, "Bob"
    )  # nothing of Bob's reached Ada but his departure


def _address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("ws://").rstrip("/").rsplit(":", 1)
    return host, int(port)


async def _refused_at_once(url: str) -> None:
    """A TCP connection the relay closes the moment it connects (not in 10 s)."""
    reader, writer = await asyncio.open_connection(*_address(url))
    assert await asyncio.wait_for(reader.read(), 2) == b""
    writer.close()


async def _upgrade(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bytes:
    """Finish a half-open connection's upgrade: the status line the relay answers."""
    writer.write(
        b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )
    return await asyncio.wait_for(reader.readline(), 2)


async def test_half_open_and_upgraded_connections_count_together_per_address() -> None:
    """Connections that never finish their HTTP upgrade cost memory until the handshake
    timeout: one address holds at most --max-connections-per-ip connections, upgraded or
    not, and one more (which is told why if it upgrades); the ones it holds still upgrade."""
    relay = spawn_relay("--max-connections-per-ip", "8", "--handshake-timeout", "10")
    try:
        game = await two_players(relay.url)  # two upgraded connections of 127.0.0.1
        half_open = [await asyncio.open_connection(*_address(relay.url)) for _ in range(7)]
        for _, writer in half_open:
            writer.write(b"GET / HTTP/1.1\r\nHost: relay\r\n")  # and no blank line yet
        await _refused_at_once(relay.url)  # the tenth: 2 upgraded + 6 half-open + 1 over
        await assert_game_goes_on(game[:2])
        for reader, writer in half_open:  # each one the relay held finishes its upgrade
            assert await _upgrade(reader, writer) == b"HTTP/1.1 101 Switching Protocols\r\n"
        # Eight upgraded: the ninth is the one over, told why and closed at once behind its
        # refusal (relay.outputs.Close.at_once), so the next is again let through to be told.
        reader, writer = await asyncio.open_connection(*_address(relay.url))
        writer.write(b"GET / HTTP/1.1\r\nHost: relay\r\n")
        assert await _upgrade(reader, writer) == b"HTTP/1.1 101 Switching Protocols\r\n"
        # Its refusal, then its close frame (1013, the code's name), then the end.
        assert (await asyncio.wait_for(reader.read(), 10)).endswith(b"too_many_connections")
        writer.close()
        for _, writer in half_open:
            writer.close()
        async with asyncio.timeout(5):  # once the relay has seen them go, room again
            while True:
                try:
                    await create_room(relay.url, seats=1)
                    break
                except (OSError, InvalidHandshake):
                    await asyncio.sleep(0.05)
                except RelayError as refused:  # let through as the one over, told why
                    assert refused.code == ErrorCode.TOO_MANY_CONNECTIONS
                    await asyncio.sleep(0.05)
        for member in game[:2]:
            await member.close()
    finally:
        logged = await asyncio.to_thread(relay.log_lines)
    refused = [line for line in logged if line.get("code") == "too_many_connections"]
    assert len(refused) >= 2 and all(line["ip"] == "127.0.0.1" for line in refused)
    # The ones over the cap were told why once they upgraded (an error, then 1013): the
    # ninth, and any create that came before the relay saw the half-open ones go.
    assert len([line for line in refused if "conn" in line]) >= 2


async def test_half_open_connections_are_capped_in_all() -> None:
    """--max-half-open bounds the connections still in their upgrade from every address
    together (here all from one address, whose own cap is far above): the next is closed
    at once, and a websocket client gets in again once one of them upgrades."""
    relay = spawn_relay(
        "--max-connections-per-ip", "100", "--max-half-open", "4", "--handshake-timeout", "10"
    )
    try:
        half_open = [await asyncio.open_connection(*_address(relay.url)) for _ in range(4)]
        for _, writer in half_open:
            writer.write(b"GET / HTTP/1.1\r\nHost: relay\r\n")
        await _refused_at_once(relay.url)
        with pytest.raises((OSError, InvalidHandshake)):
            await create_room(relay.url, seats=1)
        reader, writer = half_open[0]
        assert await _upgrade(reader, writer) == b"HTTP/1.1 101 Switching Protocols\r\n"
        async with asyncio.timeout(5):  # its place among the half-open ones is free
            while True:
                try:
                    await create_room(relay.url, seats=1)
                    break
                except (OSError, InvalidHandshake):
                    await asyncio.sleep(0.05)
        for _, writer in half_open:
            writer.close()
    finally:
        logged = await asyncio.to_thread(relay.log_lines)
    refused = [line for line in logged if line.get("code") == "too_many_connections"]
    assert refused and all(line["why"] == "half_open" for line in refused)
    assert all(line["ip"] == "127.0.0.1" for line in refused)


async def test_hostile_room_ids_cannot_forge_log_lines() -> None:
    """Room ids a client names reach the relay's plain-text log escaped: a newline cannot
    start a line of the attacker's, an escape sequence cannot reach the operator's terminal."""
    relay = spawn_relay("--handshake-timeout", "2", json_logs=False)
    forged = "\x1b[2J\nX relay joined conn=1 room=all"
    try:
        for frame in (
            encode(Join(forged, "t" * 43, "Mallory")),
            encode(Create(2, Created(forged, "p" * 43, "s" * 43))),
        ):
            async with connect(relay.url) as websocket:
                await websocket.send(frame)
                code, _ = await refusal_and_close(websocket)
                assert code in (ErrorCode.UNKNOWN_ROOM, ErrorCode.BAD_TOKEN)
    finally:
        text = await asyncio.to_thread(relay.log_text)
    assert "\x1b" not in text
    lines = text.splitlines()
    assert lines and all(line[:4].isdigit() and line[23:30] == " relay " for line in lines)
    assert sum('room="\\x1b[2J\\nX r"' in line for line in lines) == 2  # both, escaped


async def test_one_address_cannot_grow_the_log_without_bound() -> None:
    """Two hundred refusals from one address (each connection opened, refused, closed):
    the log holds at most relay.logs.LINES_PER_ADDRESS lines naming it, then one line
    counting the rest; every refusal line names the address, too_slow and 1009 included."""
    relay = spawn_relay("--max-connections-per-ip", "1000")
    try:
        for _ in range(200):
            async with connect(relay.url) as websocket:
                await websocket.send('{"join": "please"}')
                assert await refusal_and_close(websocket) == (ErrorCode.TEXT_FRAME, 1003)
    finally:
        logged = await asyncio.to_thread(relay.log_lines)
    named = [line for line in logged if line.get("ip") == "127.0.0.1"]
    (summary,) = [line for line in named if line["event"] == "suppressed"]
    assert len(named) == LINES_PER_ADDRESS + 1
    assert summary["lines"] == 3 * 200 - LINES_PER_ADDRESS
    assert summary["codes"] == f"close:{200 - 10},open:{200 - 10},text_frame:{200 - 10}"
    assert all("ip" in line for line in logged if line["event"] in ("open", "close", "refused"))


async def test_one_ipv6_block_cannot_blind_the_log() -> None:
    """Behind a proxy, sixty clients of one IPv6 /64 (a block one host holds whole), each
    refused: their lines are paced as one address's (relay.logs.IPV6_PREFIX), so they can
    neither grow the log nor use up the table of addresses the pacer follows."""
    relay = spawn_relay("--trust-proxy", "--max-connections-per-ip", "1000")
    try:
        for n in range(1, 61):
            forwarded = {"X-Forwarded-For": f"2001:db8:1:2::{n:x}"}
            async with connect(relay.url, additional_headers=forwarded) as websocket:
                await websocket.send('{"join": "please"}')
                assert await refusal_and_close(websocket) == (ErrorCode.TEXT_FRAME, 1003)
    finally:
        logged = await asyncio.to_thread(relay.log_lines)
    named = [line for line in logged if str(line.get("ip", "")).startswith("2001:db8:1:2:")]
    (summary,) = [line for line in named if line["event"] == "suppressed"]
    assert summary["ip"] == "2001:db8:1:2::/64"
    assert len(named) == LINES_PER_ADDRESS + 1
    assert summary["lines"] == 3 * 60 - LINES_PER_ADDRESS
