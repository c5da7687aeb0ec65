"""An in-process relay on a loopback port, driven by real websockets clients."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import ssl
import time
from dataclasses import replace
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosedError

from relay.client import RelayError, RoomConnection, create_room
from relay.envelope import (
    Create,
    Created,
    Error,
    ErrorCode,
    Message,
    Notice,
    Presence,
    PresenceEvent,
    decode_relay_frame,
    encode,
)
from relay.server import RelayServer
from tests.relay.conftest import FAST, two_players


async def http_get(port: int, path: str) -> tuple[int, str, str]:
    """Status, headers and body of a plain HTTP/1.1 GET, the way a monitoring probe asks."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: relay\r\nConnection: close\r\n\r\n".encode())
    raw = (await reader.read()).decode()
    writer.close()
    head, _, body = raw.partition("\r\n\r\n")
    return int(head.split()[1]), head, body


async def test_players_and_a_spectator_share_one_ordered_stream(relay: RelayServer) -> None:
    ada, bob, spectator_token = await two_players(relay.url)
    eve = await RoomConnection.join(relay.url, ada.room_id, spectator_token, "Eve")
    # Both players send at once; the relay picks one order and everyone sees that order.
    # Each one's last asks for its number: nothing may come after it to place it.
    await asyncio.gather(
        *(ada.send(f"ada {i}".encode(), tell=i == 19) for i in range(20)),
        *(bob.send(f"bob {i}".encode(), tell=i == 19) for i in range(20)),
    )
    streams = [[await member.receive() for _ in range(40)] for member in (ada, bob, eve)]
    assert streams[0] == streams[1] == streams[2]
    assert [event.seq for event in streams[0]] == list(range(2, 42))  # type: ignore[union-attr]
    by_seat: dict[int, list[bytes]] = {0: [], 1: []}
    for event in streams[0]:
        assert isinstance(event, Message)
        by_seat[event.seat].append(event.payload)
    assert by_seat[0] == [f"ada {i}".encode() for i in range(20)]  # each sender's order kept
    assert by_seat[1] == [f"bob {i}".encode() for i in range(20)]
    for member in (ada, bob, eve):
        await member.close()


async def test_a_spectator_cannot_send_and_keeps_watching(relay: RelayServer) -> None:
    ada, bob, spectator_token = await two_players(relay.url)
    async with await RoomConnection.join(relay.url, ada.room_id, spectator_token, "Eve") as eve:
        await eve.send(b"let me play")
        with pytest.raises(RelayError) as refused:
            await eve.receive()
        assert refused.value.code == ErrorCode.SPECTATOR_CANNOT_SEND
        await ada.send(b"move")
        assert await eve.receive() == Message(2, 0, b"move")
        assert await bob.receive() == Message(2, 0, b"move")  # Eve's attempt never reached Bob
    await ada.close()
    await bob.close()


@pytest.mark.parametrize("which", ["forged token", "spectator token for another room"])
async def test_wrong_tokens_are_refused_and_closed(relay: RelayServer, which: str) -> None:
    room = await create_room(relay.url, seats=2)
    other = await create_room(relay.url, seats=2)
    token = "A" * 43 if which == "forged token" else other.spectator_token
    with pytest.raises(RelayError) as refused:
        await RoomConnection.join(relay.url, room.room_id, token, "Mallory")
    assert refused.value.code == ErrorCode.BAD_TOKEN
    assert "invite" in refused.value.text


async def test_a_disconnected_player_resumes_with_exactly_what_it_missed(
    relay: RelayServer,
) -> None:
    ada, bob, _ = await two_players(relay.url)
    await bob.send(b"before", tell=True)
    assert (await bob.receive()).seq == 2  # type: ignore[union-attr]
    await bob.close()
    assert await ada.receive() == Message(2, 1, b"before")
    assert await ada.receive() == Presence(3, 1, PresenceEvent.LEFT, "Bob")
    for i in range(5):
        await ada.send(bytes([i]))
    bob = await bob.reconnect()
    assert bob.seat == 1 and not bob.welcome.resync
    replayed = [await bob.receive() for _ in range(7)]
    assert replayed == [
        Presence(3, 1, PresenceEvent.LEFT, "Bob"),
        *(Message(4 + i, 0, bytes([i])) for i in range(5)),
        Presence(9, 1, PresenceEvent.RECONNECTED, "Bob"),
    ]
    await ada.send(b"live")
    assert await bob.receive() == Message(10, 0, b"live")  # nothing twice, nothing missing
    await ada.close()
    await bob.close()


async def test_an_expired_seat_cannot_be_reclaimed(relay: RelayServer) -> None:
    ada, bob, _ = await two_players(relay.url)
    await ada.close()
    assert await bob.receive() == Presence(2, 0, PresenceEvent.LEFT, "Ada")
    expired = await asyncio.wait_for(bob.receive(), timeout=3)  # grace is 0.5 s here
    assert expired == Presence(3, 0, PresenceEvent.SEAT_EXPIRED, "Ada")
    with pytest.raises(RelayError) as refused:
        await ada.reconnect()
    assert refused.value.code == ErrorCode.SEAT_EXPIRED
    # Bob's token is Bob's seat, never Ada's: reclaiming it just replaces Bob's connection.
    bob_again = await RoomConnection.join(relay.url, ada.room_id, bob.token, "Bob")
    assert bob_again.seat == 1
    await bob_again.close()


async def test_healthz_and_metrics_answer_on_the_websocket_port(relay: RelayServer) -> None:
    ada, bob, _ = await two_players(relay.url)
    await ada.send(b"x" * 100)
    await bob.receive()
    with pytest.raises(RelayError):
        await RoomConnection.join(relay.url, "guess", "guess", "Mallory")

    status, _, body = await http_get(relay.port, "/healthz")
    assert (status, body) == (200, "ok\n")
    status, head, body = await http_get(relay.port, "/metrics")
    assert status == 200 and "text/plain; version=0.0.4" in head
    samples = dict(line.rsplit(" ", 1) for line in body.splitlines() if not line.startswith("#"))
    assert samples["tablier_relay_connections"] == "2"
    assert samples["tablier_relay_rooms"] == "1"
    # One payload delivered to the other player (not back to its sender): a 107-byte frame.
    assert samples["tablier_relay_messages_forwarded_total"] == "1"
    assert samples["tablier_relay_bytes_forwarded_total"] == "107"
    assert samples['tablier_relay_refusals_total{reason="unknown_room"}'] == "1"
    assert samples['tablier_relay_refusals_total{reason="rate_limited"}'] == "0"
    assert (await http_get(relay.port, "/nope"))[0] == 404
    await ada.close()
    await bob.close()


async def test_closing_the_relay_tells_clients_it_is_restarting() -> None:
    relay = RelayServer(FAST)
    await relay.start()
    ada, bob, _ = await two_players(relay.url)
    await relay.close()
    for member in (ada, bob):
        notice = await member.receive()
        assert isinstance(notice, Notice) and notice.code == "relay_restarting"
        with pytest.raises(ConnectionClosedError) as closed:
            await member.receive()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012


async def test_closing_is_bounded_even_by_a_client_that_never_finishes_its_handshake() -> None:
    relay = RelayServer(replace(FAST, handshake_timeout=30.0, shutdown_timeout=0.5))
    await relay.start()
    _, writer = await asyncio.open_connection("127.0.0.1", relay.port)
    writer.write(b"GET / HTTP/1.1\r\nHost: relay\r\n")  # and never the blank line
    await asyncio.sleep(0.05)
    started = time.monotonic()
    await relay.close()
    assert time.monotonic() - started < 3  # not the 30 s its handshake may take
    writer.close()


def _self_signed(directory: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


async def test_with_a_certificate_the_relay_serves_wss(tmp_path: Path) -> None:
    cert, key = _self_signed(tmp_path)
    config = replace(FAST, certfile=str(cert), keyfile=str(key))
    async with RelayServer(config) as relay:
        assert relay.url.startswith("wss://127.0.0.1:")
        trust = ssl.create_default_context(cafile=str(cert))
        room = await create_room(relay.url, seats=1, tls=trust)
        async with await RoomConnection.join(
            relay.url, room.room_id, room.player_token, "Ada", tls=trust
        ) as ada:
            await ada.receive()
            await ada.send(b"secret", tell=True)
            assert await ada.receive() == Message(1, 0, b"secret")


@pytest.mark.parametrize("trust_proxy", [False, True])
async def test_behind_a_trusted_proxy_limits_count_the_forwarded_address(
    trust_proxy: bool,
) -> None:
    config = replace(FAST, max_connections_per_ip=1, trust_proxy=trust_proxy)
    async with RelayServer(config) as relay:
        first = await connect(relay.url, additional_headers={"X-Forwarded-For": "203.0.113.1"})
        # A client's own header comes first; the proxy appends the address it saw.
        forwarded = {"X-Forwarded-For": "203.0.113.1, 198.51.100.7"}
        async with connect(relay.url, additional_headers=forwarded) as second:
            if trust_proxy:  # counted per forwarded address, the second client is alone
                await second.send(encode(Create(1)))
                assert isinstance(decode_relay_frame(await second.recv(decode=False)), Created)
            else:  # counted per peer, it is one connection too many
                refusal = decode_relay_frame(await second.recv(decode=False))
                assert refusal == Error(ErrorCode.TOO_MANY_CONNECTIONS, refusal.text)  # type: ignore[union-attr]
        await first.close()


async def test_a_member_that_stops_reading_is_cut_off_and_the_room_goes_on() -> None:
    # (its sender's bytes unbounded: the member who does not read is under test)
    config = replace(FAST, rate=10_000, burst=10_000, max_bytes_per_ip=1 << 30)
    async with RelayServer(config) as relay:
        ada, bob, spectator_token = await two_players(relay.url)
        # A watcher that never reads: the relay's queue for it grows until the limit.
        sleeper = await RoomConnection.join(relay.url, ada.room_id, spectator_token, "Zzz")
        chunk = b"x" * (15 * 1024)
        for _ in range(2000):  # here it takes about 360 (kernel buffers fill first)
            await ada.send(chunk)
            await bob.receive()
            if relay.core.stats.refusals[ErrorCode.TOO_SLOW]:
                break
        assert relay.core.stats.refusals[ErrorCode.TOO_SLOW] == 1
        with pytest.raises(ConnectionClosedError):
            while True:
                await asyncio.wait_for(sleeper.receive(), 2)
        await ada.send(b"still here")
        assert (await bob.receive()).payload == b"still here"  # type: ignore[union-attr]
        for member in (ada, bob, sleeper):
            await member.close()


async def test_a_silent_connection_is_dropped_by_keepalive_and_its_seat_held() -> None:
    # The relay gives a failed connection shutdown_timeout to close before cutting it.
    config = replace(
        FAST, ping_interval=0.2, ping_timeout=0.2, shutdown_timeout=0.3, seat_grace=30.0
    )
    async with RelayServer(config) as relay:
        ada, bob, _ = await two_players(relay.url)
        ada.websocket.transport.pause_reading()  # a dead peer: no pong will ever come back
        left = await asyncio.wait_for(bob.receive(), 3)
        assert left == Presence(2, 0, PresenceEvent.LEFT, "Ada")
        ada.websocket.transport.abort()  # her side gives up on the dead connection too
        ada = await ada.reconnect()  # the seat waited for her token
        assert ada.seat == 0
        for member in (ada, bob):
            await member.close()
