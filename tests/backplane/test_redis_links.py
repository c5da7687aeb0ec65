"""The one connection each relay process holds to Redis for its appends and its rooms' events
(relay.redis_link): lost in the middle of a join, cut by Redis because the process fell
behind, and over TLS with the URL's own certificates."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import ssl
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis
import redis.asyncio
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from websockets.exceptions import ConnectionClosedError

from relay.client import RelayError, RoomConnection, create_room
from relay.envelope import ErrorCode, Message, Presence, PresenceEvent
from relay.stream import Event
from tests.backplane.conftest import (
    RedisServer,
    RelayProcess,
    back,
    free_port,
    shared_relays,
    stopped,
)
from tests.backplane.test_redis_faults import dropped
from tests.backplane.test_shared import receive
from tests.relay.conftest import ROOT
from tests.relay.test_live import http_get

# --- a join whose link went while it was stored --------------------------------------------


async def test_a_join_stored_after_the_link_dropped_is_refused_and_undone(
    tmp_path: Path, relays: Callable[..., RelayProcess]
) -> None:
    """Bob's join is on its way through Redis when his relay's link to Redis drops: Redis
    stores it, but the relay is down by the time it reads the answer, and what Redis told
    the link of the room went with it. Bob is refused (``unavailable``: his app asks again)
    and his seat is given back before the relay takes another join, never a member let in
    whose messages would vanish.

    The join's calls wait on CLIENT PAUSE WRITE while Redis cuts the link and takes no new
    connection (maxclients), so the relay stays down until the test lets it back."""
    server = RedisServer(tmp_path)
    server.start()
    direct = redis.asyncio.Redis(port=server.port, decode_responses=True)
    try:
        relay = relays(server.fresh_url(), "--backplane-lease", "10")  # renewals seldom
        room = await create_room(relay.url, seats=2)
        ada = await RoomConnection.join(relay.url, room.room_id, room.player_token, "Ada")
        assert await receive(ada) == [Presence(0, 0, PresenceEvent.JOINED, "Ada")]
        await direct.client_pause(10_000, all=False)
        joining = asyncio.create_task(
            RoomConnection.join(relay.url, room.room_id, room.player_token, "Bob")
        )
        async with asyncio.timeout(10):  # until the join's first call waits on the pause
            while not int((await direct.info("clients"))["blocked_clients"]):
                await asyncio.sleep(0.005)
        await direct.config_set("maxclients", 1)  # those connected stay
        await direct.client_kill_filter(_type="pubsub")
        assert await dropped(ada) == 1012  # with the link
        assert (await http_get(_port(relay), "/healthz"))[0] == 503  # and it stays down
        await direct.client_unpause()  # the join goes on, and is stored: Bob's arrival is 1
        with pytest.raises(RelayError) as refused:
            await joining
        assert refused.value.code == ErrorCode.UNAVAILABLE
        await direct.config_set("maxclients", 10_000)
        ada = await back(ada)
        assert await receive(ada, 4) == [
            Presence(1, 1, PresenceEvent.JOINED, "Bob"),
            Presence(2, 1, PresenceEvent.LEFT, "Bob"),
            Presence(3, 1, PresenceEvent.SEAT_EXPIRED, "Bob"),  # nobody has its token
            Presence(4, 0, PresenceEvent.RECONNECTED, "Ada"),
        ]
        bob = await RoomConnection.join(relay.url, room.room_id, room.player_token, "Bob")
        assert bob.seat == 1
        assert await receive(ada) == [Presence(5, 1, PresenceEvent.JOINED, "Bob")]
        for member in (ada, bob):
            await member.close()
    finally:
        await direct.aclose()
        server.stop()


def _port(relay: RelayProcess) -> int:
    return int(relay.url.rstrip("/").rsplit(":", 1)[1])


# --- a relay that falls behind --------------------------------------------------------------


async def test_a_relay_that_falls_behind_is_cut_off_by_redis_and_its_members_resume(
    tmp_path: Path, relays: Callable[..., RelayProcess]
) -> None:
    """Redis cuts a subscriber it has queued too much for (``client-output-buffer-limit
    pubsub``; 256 KiB here, past what the kernel's socket buffers hold): the relay that fell
    behind loses its link, closes its members with 1012, and they resume from the room's
    stream with nothing lost or repeated."""
    server = RedisServer(tmp_path)
    server.start()
    try:
        url = server.fresh_url()
        with redis.Redis(port=server.port) as operator:
            operator.config_set("client-output-buffer-limit", "pubsub 256kb 128kb 1")
        # (one address's bytes unbounded, as many addresses would send them together:
        # --max-bytes-per-ip makes one address need a 31 s stall to pass Redis's 32 MB)
        kept = ("--backplane-lease", "10", "--backlog-bytes", str(16 * 1024 * 1024),
                "--max-bytes-per-ip", str(1 << 30))  # fmt: skip
        one, slow = relays(url, *kept), relays(url, *kept)
        room = await create_room(one.url, seats=2)
        ada = await RoomConnection.join(one.url, room.room_id, room.player_token, "Ada")
        bob = await RoomConnection.join(slow.url, room.room_id, room.player_token, "Bob")
        await receive(ada, 2)
        await receive(bob, 1)
        moves = [bytes([i % 256]) * 15_000 for i in range(400)]  # 6 MB
        async with redis.asyncio.Redis(port=server.port, decode_responses=True) as direct:
            with stopped(slow):
                for move in moves:
                    await ada.send(move)
                async with asyncio.timeout(30):  # until Redis cut the slow relay's link
                    while sum(c["sub"] != "0" for c in await direct.client_list()) > 1:
                        await asyncio.sleep(0.02)
        heard: list[Event] = []
        with pytest.raises(ConnectionClosedError) as closed:
            while True:  # what reached the slow relay before it was cut
                heard.append(await asyncio.wait_for(bob.receive(), 5))
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        assert len(heard) < len(moves)
        bob = await back(bob)
        while len(heard) < len(moves):
            heard.append(await asyncio.wait_for(bob.receive(), 5))
        assert heard == [Message(2 + i, 0, move) for i, move in enumerate(moves)]
        for member in (ada, bob):
            await member.close()
    finally:
        server.stop()


# --- TLS ---------------------------------------------------------------------------------


def _certificates(directory: Path) -> dict[str, Path]:
    """A throwaway CA, a certificate for a server on 127.0.0.1 and one for a client."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "tablier test CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    files = {"ca": directory / "ca.crt"}
    files["ca"].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    for who in ("server", "client"):
        key = ec.generate_private_key(ec.SECP256R1())
        builder = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, who)]))
            .issuer_name(ca_name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
        )
        if who == "server":
            names = [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            builder = builder.add_extension(x509.SubjectAlternativeName(names), critical=False)
        certificate = builder.sign(ca_key, hashes.SHA256())
        files[who] = directory / f"{who}.crt"
        files[who].write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
        files[f"{who}_key"] = directory / f"{who}.key"
        files[f"{who}_key"].write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
    return files


@dataclass
class TlsRedisServer(RedisServer):
    """A redis-server that speaks only TLS, and only to clients with a certificate of its CA."""

    files: dict[str, Path] = field(default_factory=dict)

    def options(self) -> list[str]:
        return [
            "--port", "0", "--tls-port", str(self.port), "--bind", "127.0.0.1",
            "--tls-cert-file", str(self.files["server"]),
            "--tls-key-file", str(self.files["server_key"]),
            "--tls-ca-cert-file", str(self.files["ca"]), "--tls-auth-clients", "yes",
            "--dir", str(self.directory), "--save", "", "--daemonize", "no",
        ]  # fmt: skip

    def answers(self) -> bool:
        try:
            with redis.Redis.from_url(self.url(0), socket_timeout=1) as probe:
                return bool(probe.ping())
        except (redis.RedisError, OSError, ssl.SSLError):
            return False

    def url(self, database: int) -> str:
        return (
            f"rediss://127.0.0.1:{self.port}/{database}?ssl_ca_certs={self.files['ca']}"
            f"&ssl_certfile={self.files['client']}&ssl_keyfile={self.files['client_key']}"
        )


async def test_the_relay_reaches_redis_over_tls_with_the_urls_certificates(
    tmp_path: Path,
) -> None:
    """``rediss://`` with the URL's CA and client certificate (as redis-py reads them): the
    link trusts and shows the same certificates as every other connection of the relay."""
    server = TlsRedisServer(tmp_path, files=_certificates(tmp_path))
    server.start()
    try:
        async with shared_relays(server.url(1), 2) as (one, two):
            assert (await http_get(two.port, "/healthz"))[:1] == (200,)
            room = await create_room(one.url, seats=2)
            ada = await RoomConnection.join(one.url, room.room_id, room.player_token, "Ada")
            bob = await RoomConnection.join(two.url, room.room_id, room.player_token, "Bob")
            await receive(ada, 2)
            await bob.send(b"over TLS")
            assert await receive(ada) == [Message(2, 1, b"over TLS")]
            for member in (ada, bob):
                await member.close()
    finally:
        server.stop()


async def test_rediss_verifies_the_redis_certificate_unless_the_url_says_otherwise(
    tmp_path: Path,
) -> None:
    """``rediss://`` without the CA that signed Redis's certificate: the relay does not
    speak to a Redis it cannot verify (never falls back to trusting it, nor to plain text),
    says why on /healthz and refuses rooms; the URL's own ``ssl_cert_reqs=none`` is
    honoured as the explicit choice it is."""
    server = TlsRedisServer(tmp_path, files=_certificates(tmp_path))
    server.start()
    try:
        client = server.files
        unverified = (
            f"rediss://127.0.0.1:{server.port}/1?ssl_certfile={client['client']}"
            f"&ssl_keyfile={client['client_key']}"
        )
        async with shared_relays(unverified, 1, serving=False) as (relay,):
            async with asyncio.timeout(10):  # until its first try has failed
                while "not connected to Redis yet" in (
                    body := (await http_get(relay.port, "/healthz"))[2]
                ):
                    await asyncio.sleep(0.05)
            status, _, body = await http_get(relay.port, "/healthz")
            assert status == 503
            assert body.startswith(f"unavailable: Redis at rediss://127.0.0.1:{server.port}/1 ")
            assert "certificate verify failed" in body
            assert "ssl_keyfile" not in body  # the URL's query is never shown
            with pytest.raises(RelayError) as refused:
                await create_room(relay.url, seats=2)
            assert refused.value.code == ErrorCode.UNAVAILABLE
        async with shared_relays(f"{unverified}&ssl_cert_reqs=none", 1) as (relay,):
            assert (await http_get(relay.port, "/healthz"))[:1] == (200,)
            assert (await create_room(relay.url, seats=2)).room_id
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("ssl_cert_reqs=bogus", "Invalid SSL Certificate Requirements Flag: bogus"),
        ("ssl_ca_certs=/nonexistent/ca.pem", "its TLS files cannot be read or used"),
        ("ssl_cert_reqz=none", "unexpected keyword argument 'ssl_cert_reqz'"),  # misspelt
    ],
)
def test_a_rediss_url_whose_options_cannot_be_used_stops_the_relay_with_a_sentence(
    query: str, says: str
) -> None:
    """A TLS option redis-py refuses, or a file it cannot read, is a setting to fix: the
    relay says so and exits 2 at start, rather than run on without its Redis (or without
    the option)."""
    result = subprocess.run(
        [sys.executable, "-m", "relay", "--port", "0", "--backplane",
         f"rediss://127.0.0.1:{free_port()}/0?{query}"],
        cwd=ROOT, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.startswith("tablier relay: the backplane URL cannot be used: ")
    assert says in result.stderr
