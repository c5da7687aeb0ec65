"""A connection refused for the number its address holds is closed at once behind its refusal
(relay.outputs.Close.at_once): the relay does not wait for the client's close frame, so that
neither the relay nor, behind --trust-proxy, nginx's two connections stay held for the close
timeout by a client that never answers."""

from __future__ import annotations

import asyncio

from relay.envelope import Error, ErrorCode
from tests.relay.conftest import spawn_relay
from tests.relay.test_hostile_transport import RawClient, _address, upgrade_request


async def test_one_over_its_addresss_limit_gets_its_refusal_and_is_closed_unanswered() -> None:
    """Behind a trusted proxy, the second connection forwarded for one address (limit 1) is
    told ``too_many_connections`` with close 1013, and the relay closes the TCP connection
    although the client never sends its close (a close timeout of 60 s would hold it)."""
    relay = spawn_relay(
        "--trust-proxy", "--max-connections-per-ip", "1", "--shutdown-timeout", "60"
    )  # fmt: skip
    forwarded = b"X-Forwarded-For: 203.0.113.9\r\n"
    clients: list[RawClient] = []
    try:
        for _ in range(2):
            reader, writer = await asyncio.open_connection(*_address(relay.url))
            writer.write(upgrade_request(forwarded))
            status = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            assert status.startswith(b"HTTP/1.1 101 ")
            clients.append(RawClient(reader, writer))
        refusal, code = await clients[1].relay_frames()
        assert isinstance(refusal, Error) and refusal.code == ErrorCode.TOO_MANY_CONNECTIONS
        assert code == 1013
        assert await asyncio.wait_for(clients[1].reader.read(), 10) == b""  # closed, unanswered
    finally:
        for client in clients:
            client.close()
        relay.process.kill()
        relay.process.wait()
