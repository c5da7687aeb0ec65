"""The relay as an operator runs it: options, environment, signals, logs."""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import re
import signal
import socket
import subprocess
import sys
import time

import pytest
from websockets.exceptions import ConnectionClosedError

from client.commands import relay as relay_command
from relay.client import RelayError, create_room
from relay.config import RelayConfig, add_arguments, config_from
from relay.envelope import ErrorCode, Notice
from tests.relay.conftest import ROOT, spawn_relay, two_players


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(argv)


def test_flags_win_over_environment_which_wins_over_defaults() -> None:
    env = {
        "TABLIER_RELAY_MAX_ROOMS": "7",
        "TABLIER_RELAY_PORT": "9000",
        "TABLIER_RELAY_LOG_JSON": "yes",
    }
    config = config_from(parse("--port", "9100", "--seat-grace", "1.5"), env)
    assert config == RelayConfig(port=9100, max_rooms=7, seat_grace=1.5, log_json=True)
    assert config_from(parse(), {}) == RelayConfig()
    assert RelayConfig().host == "127.0.0.1" and RelayConfig().port == 8765


@pytest.mark.parametrize(
    ("argv", "env", "says"),
    [
        ((), {"TABLIER_RELAY_PORT": "eighty"}, "TABLIER_RELAY_PORT='eighty'"),
        (("--max-seats", "16"), {}, "max seats must be 1..15"),
        (("--certfile", "cert.pem"), {}, "--certfile and --keyfile go together"),
        (
            ("--backplane", "redis://127.0.0.1:6379/0?ssl_ca_certs=ca.pem&ssl_cert_reqs=required"),
            {},
            "backplane TLS options (ssl_ca_certs, ssl_cert_reqs) need a rediss:// URL",
        ),
    ],
)
def test_bad_settings_are_explained(argv: tuple[str, ...], env: dict[str, str], says: str) -> None:
    with pytest.raises(ValueError, match=re.escape(says)):
        config_from(parse(*argv), env)


def test_tablier_relay_offers_every_setting() -> None:
    parser = argparse.ArgumentParser(prog="tablier")
    relay_command.register(parser.add_subparsers())
    args = parser.parse_args(["relay", "--max-frame", "4096", "--log-json"])
    assert args.run is not None and args.max_frame == 4096 and args.log_json is True
    assert config_from(args, {}).max_frame == 4096


def test_a_bad_environment_variable_exits_2_with_a_sentence() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "relay"],
        cwd=ROOT,
        env={"TABLIER_RELAY_RATE": "fast", "PATH": ""},
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert result.returncode == 2
    assert result.stderr.strip().startswith(
        "tablier relay: invalid relay settings: TABLIER_RELAY_RATE='fast' is not"
    )


def test_a_busy_port_exits_1_with_a_sentence() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "relay", "--port", str(port)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=20,
        )
    assert result.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr


async def test_tablier_relay_serves_rooms() -> None:
    relay = spawn_relay(command=("client.cli", "relay"))
    try:
        ada, bob, _ = await two_players(relay.url)
        await ada.send(b"through tablier relay")
        assert (await bob.receive()).payload == b"through tablier relay"  # type: ignore[union-attr]
        await ada.close()
        await bob.close()
    finally:
        assert "stopped" in [line["event"] for line in relay.log_lines()]


async def test_environment_limits_apply_to_a_running_relay() -> None:
    relay = spawn_relay(env={"TABLIER_RELAY_MAX_ROOMS": "1"})
    try:
        await create_room(relay.url, seats=2)
        with pytest.raises(RelayError) as refused:
            await create_room(relay.url, seats=2)
        assert refused.value.code == ErrorCode.TOO_MANY_ROOMS
    finally:
        relay.log_lines()


async def test_sigterm_tells_clients_the_relay_is_restarting_and_exits_promptly() -> None:
    relay = spawn_relay("--shutdown-timeout", "2")
    ada, bob, _ = await two_players(relay.url)
    started = time.monotonic()
    relay.process.send_signal(signal.SIGTERM)
    for member in (ada, bob):
        notice = await asyncio.wait_for(member.receive(), 3)
        assert isinstance(notice, Notice) and notice.code == "relay_restarting"
        with pytest.raises(ConnectionClosedError) as closed:
            await member.receive()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    assert await asyncio.to_thread(relay.process.wait, 5) == 0
    assert time.monotonic() - started < 3
    events = [line["event"] for line in relay.log_lines()]
    # One line per connection event: the create's connection, then Ada's and Bob's.
    assert events[:2] == ["open", "created"]
    assert events.count("joined") == 2 and events.count("close") == 3
    assert events[events.index("stopping") :] == ["stopping", "close", "close", "stopped"]


@pytest.mark.parametrize("content", [None, "not a certificate"])
def test_an_unusable_certificate_exits_1_with_a_sentence(
    tmp_path: pathlib.Path, content: str | None
) -> None:
    cert = tmp_path / "cert.pem"
    if content is not None:
        cert.write_text(content)
    result = subprocess.run(
        [sys.executable, "-m", "relay", "--port", "0", "--certfile", str(cert), "--keyfile",
         str(cert)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=20,
    )  # fmt: skip
    assert result.returncode == 1
    expected = "cannot read" if content is None else "are not a PEM certificate chain"
    assert expected in result.stderr and str(cert) in result.stderr
