"""Invites a person pastes, room payloads a peer sends, and the connection line's words."""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import msgpack  # type: ignore[import-untyped]
import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.app import App
from websockets.asyncio.server import ServerConnection, serve

from client.game.link_status import LinkStatus
from client.game.turn import NotYourTurnError
from client.net import wire
from client.net.failures import RoomError
from client.net.invite import (
    Invite,
    InviteError,
    RelayAddressError,
    check_relay_url,
    parse_invite,
)
from client.net.link import LinkFailed
from client.net.room import host_room, join_room, open_hosted_room
from client.screens.end import EndScreen, GameSummary
from client.setup import SessionSettings
from client.widgets.connection import describe_link, describe_peers
from protocol.clock import MIN_TIME_LIMIT_MS
from relay.config import RelayConfig
from relay.envelope import VERSION
from relay.fault import Fault
from relay.server import RelayServer
from tests.network.conftest import QUICK, PlayersClock
from tests.network.players import TIMEOUT

ROOM, TOKEN = "R" * 22, "T" * 43


@pytest.mark.parametrize(
    ("text", "invite"),
    [
        (f"tablier://127.0.0.1:8765/{ROOM}?player={TOKEN}",
         Invite("ws://127.0.0.1:8765/", ROOM, TOKEN, "player")),
        (f"  'tabliers://relay.example.org/tablier/{ROOM}?watch={TOKEN}'\n",
         Invite("wss://relay.example.org/tablier/", ROOM, TOKEN, "watch")),
        (f"tablier://[::1]:9000/{ROOM}?player={TOKEN}",
         Invite("ws://[::1]:9000/", ROOM, TOKEN, "player")),
    ],
)  # fmt: skip
def test_invites_round_trip(text: str, invite: Invite) -> None:
    assert parse_invite(text) == invite
    assert parse_invite(invite.encode()) == invite


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "empty"),
        (f"https://127.0.0.1/{ROOM}?player={TOKEN}", "starts with tablier://"),
        (f"tablier:///{ROOM}?player={TOKEN}", "no relay address"),
        (f"tablier://h:99999/{ROOM}?player={TOKEN}", "address is not valid"),
        (f"tablier://h/short?player={TOKEN}", "room is missing or mistyped"),
        (f"tablier://h/{ROOM}?seat=1", "no token"),
        (f"tablier://h/{ROOM}?player={TOKEN}&watch={TOKEN}", "more than one token"),
        (f"tablier://h/{ROOM}?player=ab!c", "token is mistyped"),
        # Cut short (a paste that lost its end): the whole invite's length, for the role
        # the cut left or, cut before it, a player's (spectators are told by `watch`).
        (f"tablier://h/{ROOM}?player=abc", "cut short: it should be 85 characters, not 45"),
        (f"tablier://h/{ROOM}?wat", "cut short: it should be 84 characters, not 38"),
        (f"tablier://h/{ROOM}", "cut short: it should be 85 characters, not 34"),
        (f"tablier://h/{ROOM[:5]}", "cut short: it should be 85 characters, not 17"),
        # A host no resolver takes (Python's raises UnicodeError, no OSError, for the first
        # two), and an address longer than a seat file keeps: refused here, where it is read.
        (f"tablier://a..b:8765/{ROOM}?player={TOKEN}",
         "relay address is not valid: 'a..b' is not a host name"),
        (f"tablier://{'a' * 64}.example.org/{ROOM}?player={TOKEN}", "label between two dots"),
        (f"tablier://%68:8765/{ROOM}?player={TOKEN}", "'%68' is not a host name"),
        (f"tablier://h/{'p' * 2100}/{ROOM}?player={TOKEN}",
         "it is 2,108 characters long: a relay's address has at most 2,048"),
    ],
)  # fmt: skip
def test_a_bad_invite_says_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(InviteError, match=problem):
        parse_invite(text)


def test_an_invite_as_long_as_may_be_saves_a_seat_that_reads_back(tmp_path: Path) -> None:
    """The bound on a relay's address is the seat file's: an invite at it (accents in its
    path, escaped as the relay is asked for them) is taken, and its seat file reads back;
    one character more and the invite is refused where it is pasted."""
    from client.net.invite import MAX_URL_CHARS
    from client.net.seatfile import Seat, load_seat, save_seat

    prefix = "ws://h/"
    escaped = "%C3%A9"  # é, as its path holds it
    fill = MAX_URL_CHARS - len(prefix) - 1  # the path's last slash
    path = "é" * (fill // len(escaped)) + "p" * (fill % len(escaped))
    invite = parse_invite(f"tablier://h/{path}/{ROOM}?player={TOKEN}")
    assert len(invite.relay_url) == MAX_URL_CHARS and invite.relay_url.isascii()
    seat = Seat(invite.relay_url, ROOM, TOKEN, TOKEN, None, "Bob", "player",
                tmp_path / "m.tablier", bytes(32), bytes(32))  # fmt: skip
    save_seat(tmp_path / "seat", seat)
    assert load_seat(tmp_path / "seat") == seat
    with pytest.raises(InviteError, match="at most 2,048"):
        parse_invite(f"tablier://h/p{path}/{ROOM}?player={TOKEN}")


async def test_a_host_that_slips_past_the_gate_is_no_relay_address(
    settings: Callable[[str], SessionSettings],
) -> None:
    """A relay's address that reaches the network unchecked (from an older seat file, say):
    the resolver's UnicodeError says the address is no relay's, and blames no relay, which
    was never reached: for a join (the link's failure) and for a host (the room's)."""
    bob = await join_room(Invite("ws://a..b:8765/", ROOM, TOKEN, "player"), name="Bob",
                          settings=settings("Bob"), backoff=QUICK)  # fmt: skip
    try:
        with pytest.raises(LinkFailed) as failed:
            await bob.wait_started(TIMEOUT)
    finally:
        await bob.close()
    assert (
        str(failed.value) == "ws://a..b:8765/ is not a relay address (ws://HOST:PORT/ or wss://…)"
    )
    with pytest.raises(RoomError) as refused:
        await open_hosted_room("goose", {}, seats=2, name="Ada", settings=settings("Ada"),
                               relay_url="ws://a..b:1/", listen=("127.0.0.1", 0))  # fmt: skip
    assert (
        str(refused.value) == "ws://a..b:1/ is not a relay address (ws://HOST:PORT/ or wss://HOST/)"
    )


@pytest.mark.parametrize("relay", ["ws://a..b:1/", f"ws://{'a' * 64}.example.org/"])
def test_tablier_host_refuses_a_relay_host_no_resolver_takes(relay: str, tmp_path: Path) -> None:
    """The real command: one line saying why, status 2, no traceback (it was a Rich one)."""
    from tests.client.terminal import ROOT, TABLIER, environment

    done = subprocess.run([*TABLIER, "host", "goose", "--relay", relay], capture_output=True,
                          text=True, env=environment(tmp_path), cwd=ROOT, timeout=60,
                          stdin=subprocess.DEVNULL)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "UnicodeError" not in done.stderr
    said = (f"--relay takes the relay's address, ws://HOST:PORT/ or wss://…: {relay!r} is "
            f"not one ({relay[5:-1].split(':')[0]!r} is not a host name")  # fmt: skip
    assert said in done.stderr, done.stderr


@given(st.binary(max_size=200))
def test_room_payloads_from_peers_decode_or_raise_wire_error(data: bytes) -> None:
    try:
        payload = wire.decode(data)
    except wire.WireError:
        return
    assert wire.decode(wire.encode(payload)) == payload


def test_the_connection_line_says_what_is_going_on() -> None:
    assert str(describe_link(LinkStatus("connected"))) == "● connected"
    retry = LinkStatus("reconnecting", 3, time.monotonic() + 4.2, "the relay is not answering")
    assert str(describe_link(retry)) == (
        "◌ reconnecting (attempt 3, next try in 0:05): the relay is not answering"
    )
    assert "cannot join: Every seat" in str(
        describe_link(LinkStatus("failed", detail="Every seat in this room is taken."))
    )


async def test_a_silent_peer_is_shown_away_then_claimed_abandoned(
    relay: RelayServer, settings: Callable[[str], SessionSettings], clock: PlayersClock
) -> None:
    ada = await host_room(relay.url, "goose", {}, seats=2, name="Ada", settings=settings("Ada"),
                          time_limit_ms=MIN_TIME_LIMIT_MS, backoff=QUICK)  # fmt: skip
    bob = await join_room(ada.invite, name="Bob", settings=settings("Bob"), backoff=QUICK)
    try:
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(ada.wait_started(), bob.wait_started())
            game = ada.game(settings("Ada"))
            await bob.close()  # Bob's terminal goes away mid-match
            while "Bob (seat 2) away, seat held" not in str(describe_peers(game.describe_peers())):
                await asyncio.sleep(0.02)
            # The lots: Ada throws hers; Bob never reveals. Past the limit, Ada may claim.
            if game.awaiting.seat == 0:  # type: ignore[union-attr]
                game.throw()
            assert game.claimable(clock()) is None  # not before the limit
            clock.advance(MIN_TIME_LIMIT_MS)
            assert game.claimable(clock()) == 1
            game.claim_abandonment(1)
            turn = await game.next_turn()
        assert game.ended is not None and game.ended.reason == "abandoned"
        assert game.ended.seat == 1 and game.ended.winner == 0
        assert turn.events[-1] == game.ended
        # Nobody to play again with: the end screen does not offer it, and asking is refused
        # by the same rule (issue 29).
        assert game.extras.rematch is game and not game.can_ask_rematch
        with pytest.raises(NotYourTurnError, match="nobody to play again with"):
            game.ask_rematch()
        app: App[None] = App()
        async with app.run_test(size=(80, 24)) as pilot:
            end = EndScreen(GameSummary("Bob abandoned the match.", (), None), game)
            await app.push_screen(end)
            await pilot.pause()
            assert not end.query("#again")
            offered = {a.binding.key for a in end.active_bindings.values() if a.enabled}
            assert "a" not in offered and {"l", "q"} <= offered
    finally:
        await ada.close()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["join", "tablier://h/short?player=x"], "tablier join: the invite's room is missing"),
        (["watch", f"tablier://h:1/{ROOM}?player={TOKEN}"], "that is a player's invite"),
        (["join", f"tablier://h:1/{ROOM}?watch={TOKEN}"], "that is a spectator's invite"),
        (["host", "goose", "--players", "16"], "played by 2 to 15 players, not 16"),
        (["host", "jacquet", "--name", " "], "a name is 1 to 20 printable characters"),
    ],
)
def test_the_commands_refuse_bad_arguments_in_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from client.cli import main

    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_host_refuses_a_relay_address_that_is_not_a_websocket(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from client.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["host", "jacquet", "--relay", "http://example.org/"])
    assert exit_.value.code == 2
    assert "--relay takes the relay's address, ws://" in capsys.readouterr().err


async def test_an_older_relay_is_named_and_not_retried(
    settings: Callable[[str], SessionSettings],
) -> None:
    """A relay of envelope version 1 refuses a newer join with its own old error frame."""
    joins = 0

    async def old_relay(websocket: ServerConnection) -> None:
        nonlocal joins
        await websocket.recv()
        joins += 1
        old_refusal = [1, 8, "unsupported_version", "This relay speaks envelope version 1."]
        await websocket.send(msgpack.packb(old_refusal))
        await websocket.close(1008)

    async with serve(old_relay, "127.0.0.1", 0) as server:
        url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}/"
        room = await join_room(
            Invite(url, ROOM, TOKEN, "player"), name="Bob", settings=settings("bob"), backoff=QUICK
        )
        with pytest.raises(LinkFailed) as failed:
            await room.wait_started(TIMEOUT)
        await room.close()
    expected = f"speaks version 1 of the relay protocol and Tablier version {VERSION}"
    assert expected in str(failed.value)
    assert failed.value.fault is Fault.RELAY  # the relay of another version: not the invite
    assert joins == 1


def test_the_lengths_an_invite_is_measured_by_are_the_relays() -> None:
    """A cut-short invite is told by the lengths of a room id and a token: those the relay
    makes (relay/rooms.py), or every whole invite would read as cut short."""
    from client.net.invite import ROOM_ID_CHARS, TOKEN_CHARS
    from relay.rooms import new_token, room_id_for

    player, spectator = new_token(), new_token()
    assert len(player) == TOKEN_CHARS
    assert len(room_id_for(2, player, spectator)) == ROOM_ID_CHARS


@pytest.mark.parametrize("zone", ["eth0", "\x1b[2J", "\u202e", "été"])
def test_a_relay_address_with_an_ipv6_zone_is_refused(zone: str) -> None:
    """A zone id names an interface of one machine, and ``ipaddress`` takes anything after
    the ``%`` (attack stop36b/08: an escape sequence passed the gate into --relay and the
    seat file)."""
    with pytest.raises(RelayAddressError, match="is not an IPv6 address"):
        check_relay_url(f"ws://[fe80::1%{zone}]:9000/")
    assert check_relay_url("ws://[fe80::1]:9000/") == "ws://[fe80::1]:9000/"


async def test_a_peer_whose_seat_expired_is_shown_gone_not_here(
    settings: Callable[[str], SessionSettings],
) -> None:
    """Bob's app is gone past the relay's grace: his seat is given up, and Ada's connection
    line says so (the trial saw "Bob (seat 2) ✓" beside a claim against him: the seat's
    binding went with the expiry, and a player unheard of was drawn as here)."""
    config = RelayConfig(port=0, seat_grace=0.2)
    async with RelayServer(config) as relay:
        ada = await host_room(relay.url, "jacquet", {}, seats=2, name="Ada",
                              settings=settings("Ada"), backoff=QUICK)  # fmt: skip
        bob = await join_room(ada.invite, name="Bob", settings=settings("Bob"), backoff=QUICK)
        try:
            async with asyncio.timeout(TIMEOUT):
                await asyncio.gather(ada.wait_started(), bob.wait_started())
                game = ada.game(settings("Ada"))
                await bob.close()
                while "Bob (seat 2): seat given up" not in str(
                    describe_peers(game.describe_peers())
                ):
                    await asyncio.sleep(0.02)
            assert "✓" not in str(describe_peers(game.describe_peers()))
        finally:
            await ada.close()
