"""``tablier host``, ``join`` and ``watch`` in a real terminal: a room that cannot be opened
or reached says so in one line naming what was tried and exits 1; the invites go to
standard output on request."""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from relay.client import create_room
from relay.config import RelayConfig
from relay.server import RelayServer
from tests.client.terminal import CTRL_Q, environment, run_in_terminal
from tests.network.conftest import RelayProcess
from tests.relay.test_live import _self_signed  # a certificate for 127.0.0.1

ROOM, TOKEN = "R" * 22, "T" * 43


def written(home: Path) -> list[Path]:
    return sorted(path for path in home.rglob("*") if path.is_file())


@pytest.fixture
def free_port() -> Iterator[int]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    yield port


def test_a_busy_listen_port_is_said_in_words_and_exits_1(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = run_in_terminal(["host", "jacquet", "--name", "Ada", "--listen",
                                f"127.0.0.1:{port}"], env=environment(tmp_path))  # fmt: skip
    assert done.code == 1
    assert f"tablier host: port {port} is already in use — pick another with --listen" in (
        done.words
    )
    assert "Errno" not in done.output and "Copy invite" not in done.output
    assert written(tmp_path) == []


def test_a_relay_that_does_not_answer_is_named_and_the_host_exits_1(
    tmp_path: Path, free_port: int
) -> None:
    url = f"ws://127.0.0.1:{free_port}/"
    done = run_in_terminal(["host", "goose", "--relay", url], env=environment(tmp_path))
    assert done.code == 1
    assert f"tablier host: no relay answers at {url} (nothing listens there)" in done.words
    assert "Errno" not in done.output
    assert written(tmp_path) == []


@pytest.fixture
def one_room_relay() -> Iterator[RelayProcess]:
    """A relay process that holds one room at most, and holds one already."""
    relay = RelayProcess.spawn(0, "--max-rooms", "1")
    try:
        asyncio.run(create_room(relay.url, 2))
        yield relay
    finally:
        relay.kill()


def test_a_relay_that_refuses_the_room_is_named_with_its_reason_and_the_host_exits_1(
    tmp_path: Path, one_room_relay: RelayProcess
) -> None:
    """The relay's refusal (relay.client.RelayError, a ConnectionError) is said as the
    relay's refusal, not as a connection that failed."""
    url = one_room_relay.url
    done = run_in_terminal(["host", "goose", "--relay", url], env=environment(tmp_path))
    assert done.code == 1
    assert (f"tablier host: the relay at {url} refused: The relay holds as many rooms as it "
            "may (from your address or in all); try again later or use another relay."
            ) in done.words  # fmt: skip
    assert "no relay answers" not in done.output
    assert written(tmp_path) == []


def test_an_invite_to_a_room_the_relay_does_not_hold_is_refused_and_the_join_exits_1(
    tmp_path: Path, one_room_relay: RelayProcess
) -> None:
    """The link given up for good (client.net.link.LinkFailed, a ConnectionError) on the
    relay's refusal: said in the relay's words as Tablier knows them."""
    invite = f"tablier://127.0.0.1:{one_room_relay.port}/{ROOM}?player={TOKEN}"
    done = run_in_terminal(["join", invite, "--name", "Bob"], env=environment(tmp_path))
    assert done.code == 1
    assert ("tablier join: There is no such room on this relay: it may have expired, or the "
            "invite is mistyped.") in done.words  # fmt: skip
    assert written(tmp_path) == []


def test_a_join_gives_up_after_its_connect_timeout_naming_the_relay(
    tmp_path: Path, free_port: int
) -> None:
    url = f"ws://127.0.0.1:{free_port}/"
    invite = f"tablier://127.0.0.1:{free_port}/{ROOM}?player={TOKEN}"
    done = run_in_terminal(["join", invite, "--name", "Bob", "--connect-timeout", "1.5"],
                           env=environment(tmp_path), timeout=30)  # fmt: skip
    assert done.code == 1
    assert "giving up in" in done.output  # the screen said how long it would try
    assert f"tablier join: no relay answered at {url} in 1.5 s (" in done.words
    assert "the last: the relay is not answering)" in done.words
    assert written(tmp_path) == []


def test_quitting_before_the_relay_answered_is_not_a_success(
    tmp_path: Path, free_port: int
) -> None:
    invite = f"tablier://127.0.0.1:{free_port}/{ROOM}?watch={TOKEN}"
    done = run_in_terminal(["watch", invite], env=environment(tmp_path),
                           keys=[("giving up in", CTRL_Q)])  # fmt: skip
    assert done.code == 1
    said = f"tablier watch: left before the relay at ws://127.0.0.1:{free_port}/ answered"
    assert said in done.words


def test_the_invites_go_to_standard_output_on_request(tmp_path: Path) -> None:
    read, write = os.pipe()
    with os.fdopen(read) as printed:
        try:
            done = run_in_terminal(["host", "jacquet", "--name", "Ada", "--invite-file", "-"],
                                   env=environment(tmp_path), stdout=write,
                                   keys=[("Invite a player", CTRL_Q)])  # fmt: skip
        finally:
            os.close(write)
        lines = printed.read().splitlines()
    assert done.code == 0
    assert len(lines) == 2
    assert lines[0].startswith("tablier://127.0.0.1:") and "?player=" in lines[0]
    assert lines[1].startswith("tablier://127.0.0.1:") and "?watch=" in lines[1]
    assert lines[0].partition("?")[0] == lines[1].partition("?")[0]  # the same room


def test_invites_to_standard_output_are_refused_when_it_is_the_screen(tmp_path: Path) -> None:
    done = run_in_terminal(["host", "jacquet", "--invite-file", "-"], env=environment(tmp_path))
    assert done.code == 2
    assert "--invite-file - writes the invites to standard output, which is this terminal" in (
        done.words
    )


async def test_hosting_through_a_wss_relay_uses_the_systems_trust(tmp_path: Path) -> None:
    """`tablier host --relay wss://…`, as the README shows it: the certificate is checked
    against what this machine trusts (here, SSL_CERT_FILE names the relay's own)."""
    cert, key = _self_signed(tmp_path)
    invites = tmp_path / "invites.txt"
    config = RelayConfig(port=0, certfile=str(cert), keyfile=str(key))
    async with RelayServer(config) as relay:
        url, port = relay.url, relay.port
        trusted = await asyncio.to_thread(
            run_in_terminal, ["host", "goose", "--relay", url, "--invite-file", str(invites)],
            env=environment(tmp_path, SSL_CERT_FILE=str(cert)), keys=[("Invite a player", CTRL_Q)],
        )  # fmt: skip
        untrusted = await asyncio.to_thread(
            run_in_terminal, ["host", "goose", "--relay", url], env=environment(tmp_path)
        )
    assert trusted.code == 0
    assert invites.read_text().startswith(f"tabliers://127.0.0.1:{port}/")
    assert untrusted.code == 1
    assert (f"tablier host: cannot reach the relay at {url} securely: its TLS certificate "
            "is not one this machine trusts (it is self-signed)") in untrusted.words  # fmt: skip
