"""Hostile joins against a real ``python -m relay`` process, its rooms in memory or in a real
redis-server: what a room id alone tells (nothing of the match), what expired seat tokens
cost a room (a bounded list), and what a crowd of joins or spectators costs (a per-address
rate, replays weighed by their frames, one ``watching`` event a room in a few seconds).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest
from websockets.asyncio.client import connect

from relay.client import RelayError, RoomConnection, create_room
from relay.envelope import (
    Error,
    ErrorCode,
    Join,
    Message,
    Presence,
    PresenceEvent,
    Welcome,
    decode_relay_frame,
    encode,
)
from relay.limits import REPLAYED_FRAMES_PER_JOIN
from relay.rooms import EXPIRED_TOKENS
from tests.relay.conftest import RelayProcess, spawn_relay


def relay_with(request: pytest.FixtureRequest, *flags: str) -> Iterator[RelayProcess]:
    """A relay process with these flags, its rooms in memory or in Redis (the test's param)."""
    backplane: tuple[str, ...] = ()
    if request.param == "redis":
        backplane = ("--backplane", request.getfixturevalue("redis_server").fresh_url())
    proc = spawn_relay("--seat-grace", "0.5", "--handshake-timeout", "2", *flags, *backplane)
    yield proc
    if proc.process.poll() is None:
        proc.process.kill()
        proc.process.wait()


@pytest.fixture(params=["memory", "redis"])
def tight(request: pytest.FixtureRequest) -> Iterator[RelayProcess]:
    """Ten joins a minute an address; messages fast enough to fill a backlog quickly."""
    yield from relay_with(request, "--joins-per-minute", "10", "--rate", "1000", "--burst", "1000")


@pytest.fixture(params=["memory", "redis"])
def roomy(request: pytest.FixtureRequest) -> Iterator[RelayProcess]:
    """The default join rate, a small backlog (eight events) and failures allowed."""
    yield from relay_with(request, "--backlog", "8", "--join-failures-per-minute", "100")


async def answer(url: str, join: Join) -> Welcome | Error:
    """The relay's first answer to a join, the connection then closed."""
    async with connect(url) as websocket:
        await websocket.send(encode(join))
        reply = decode_relay_frame(await asyncio.wait_for(websocket.recv(decode=False), 10))
    assert isinstance(reply, Welcome | Error), reply
    return reply


async def code_of(url: str, join: Join) -> str:
    reply = await answer(url, join)
    return "welcome" if isinstance(reply, Welcome) else reply.code


@pytest.fixture
async def moves(roomy: RelayProcess) -> AsyncIterator[tuple[RoomConnection, str, str]]:
    """A room of roomy's where Ada made three moves: Ada, the room id, the spectator token."""
    room = await create_room(roomy.url, seats=2)
    ada = await RoomConnection.join(roomy.url, room.room_id, room.player_token, "Ada")
    for move in (b"1", b"2", b"3"):
        await ada.send(move, tell=True)
    while ada.next_seq < 4:  # her join and her three moves
        await asyncio.wait_for(ada.receive(), 10)
    yield ada, room.room_id, room.spectator_token
    await ada.close()


async def test_a_room_id_alone_tells_nothing_of_the_match(
    roomy: RelayProcess, moves: tuple[RoomConnection, str, str]
) -> None:
    """Without a token of the room, a resume from any number gets the one answer, bad_token:
    whether the room reached it (how many moves were made) is told only to its members."""
    ada, room_id, spectator = moves
    epoch = ada.welcome.epoch
    guesses = [Join(room_id, "x" * 43, "Eve", resume, epoch) for resume in (None, 0, 4, 10**6)]
    assert [await code_of(roomy.url, join) for join in guesses] == [ErrorCode.BAD_TOKEN] * 4
    # A holder of the spectator token is told (the test can see the difference it hides).
    join = Join(room_id, spectator, "Sam", 10**6, epoch)
    assert await code_of(roomy.url, join) == ErrorCode.BAD_RESUME


async def test_expired_seat_tokens_are_forgotten_past_a_bound(roomy: RelayProcess) -> None:
    """A player token joining and leaving in a loop leaves an expired seat token each time:
    the room remembers the newest relay.rooms.EXPIRED_TOKENS of them (so a late player is
    told his seat expired), and forgets the oldest beyond (then a bad token)."""
    url = roomy.url
    room = await create_room(url, seats=7)
    watcher = await RoomConnection.join(url, room.room_id, room.spectator_token, "Sam")
    tokens: list[str] = []  # in the order the relay said their seats expired
    while len(tokens) <= EXPIRED_TOKENS:  # one more than the room remembers
        names = [f"P{len(tokens)}-{n}" for n in range(7)]
        players = [
            await RoomConnection.join(url, room.room_id, room.player_token, name) for name in names
        ]
        token_of = {name: player.token for name, player in zip(names, players, strict=True)}
        for player in players:
            await player.close()
        expired = 0
        while expired < len(players):  # the relay expires their seats after the grace
            event = await asyncio.wait_for(watcher.receive(), 10)
            if isinstance(event, Presence) and event.event == PresenceEvent.SEAT_EXPIRED:
                # Seats left together may expire in any order (with rooms in Redis, their
                # departures are stored concurrently): the relay's own order is what counts.
                tokens.append(token_of[event.name])
                expired += 1
        if len(tokens) == 7:  # the first ones are remembered while they are the newest
            assert await code_of(url, Join(room.room_id, tokens[0], "P0")) == "seat_expired"
    assert await code_of(url, Join(room.room_id, tokens[-1], "P")) == ErrorCode.SEAT_EXPIRED
    forgotten = tokens[: len(tokens) - EXPIRED_TOKENS]
    assert await code_of(url, Join(room.room_id, forgotten[-1], "P")) == ErrorCode.BAD_TOKEN
    await watcher.close()


async def test_joins_are_paced_per_address(tight: RelayProcess) -> None:
    """--joins-per-minute 10: the eleventh join at once from one address is refused (failed
    or not: these are a spectator's), told to come back later (1013)."""
    room = await create_room(tight.url, seats=2)
    codes = [
        await code_of(tight.url, Join(room.room_id, room.spectator_token, "Sam")) for _ in range(12)
    ]
    assert codes[:10] == ["welcome"] * 10
    assert codes[10:] == [ErrorCode.TOO_MANY_CONNECTIONS] * 2
    logged = await asyncio.to_thread(tight.log_lines)
    # (past the address's 30 lines: counted in its summary, which the relay's stop writes)
    (summary,) = [line for line in logged if line["event"] == "suppressed"]
    assert "too_many_connections:2" in str(summary["codes"]).split(",")


async def test_a_replay_counts_against_the_joins_by_its_frames(tight: RelayProcess) -> None:
    """A spectator replaying a room's 1,000 messages costs his address 1 + 1001/64 joins:
    of its ten at once, the first such join passes (into debt), the next ones are refused
    (until the debt is paid, a minute later), where ten plain joins would pass."""
    url = tight.url
    room = await create_room(url, seats=1)
    ada = await RoomConnection.join(url, room.room_id, room.player_token, "Ada")
    for n in range(1000):
        await ada.send(b"%d" % n, tell=n == 999)
    while ada.next_seq < 1001:
        await asyncio.wait_for(ada.receive(), 10)
    replays = []
    for _ in range(3):
        reply = await answer(url, Join(room.room_id, room.spectator_token, "Sam", 0))
        replays.append("welcome" if isinstance(reply, Welcome) else reply.code)
    cost = 1 + 1001 / REPLAYED_FRAMES_PER_JOIN  # the replay: her join and the 1,000
    assert cost > 10
    refused = ErrorCode.TOO_MANY_CONNECTIONS
    assert replays == ["welcome", refused, refused]
    await ada.close()


async def test_spectators_naming_a_made_up_epoch_cannot_wipe_a_backlog(
    roomy: RelayProcess, moves: tuple[RoomConnection, str, str]
) -> None:
    """Thirty spectators joining with a made-up epoch each need the match from the players
    (a ``watching`` event): the room announces them at most once in WATCHING_EVERY seconds,
    so its backlog of eight events still serves a member who resumes."""
    ada, room_id, spectator = moves
    bob = await RoomConnection.join(roomy.url, room_id, ada.token, "Ada")  # replaces ada
    for _ in range(30):
        join = Join(room_id, spectator, "Sam", 3, 12345)
        reply = await answer(roomy.url, join)
        assert isinstance(reply, Welcome) and reply.resync
    marker = b"after the thirty"
    await bob.send(marker)
    watching = 0
    while True:  # every event the room numbered before Ada's marker came back
        event = await bob.receive()
        if isinstance(event, Message) and (event.seat, event.payload) == (bob.seat, marker):
            break
        if isinstance(event, Presence) and event.event == PresenceEvent.WATCHING:
            watching += 1
    # Thirty arrivals are announced together (one event in WATCHING_EVERY), not one each.
    assert 1 <= watching < 30
    await bob.close()
    again = await RoomConnection.join(roomy.url, room_id, bob.token, "Ada", resume_from=4,
                                      epoch=bob.welcome.epoch)  # fmt: skip
    assert not again.welcome.resync
    await again.close()


@pytest.fixture(params=["memory", "redis"])
def narrow(request: pytest.FixtureRequest) -> Iterator[RelayProcess]:
    """32 KiB a second an address, whatever its connections' own rate."""
    yield from relay_with(request, "--max-bytes-per-ip", "32768", "--rate", "1000")


async def test_one_address_sends_at_most_its_bytes_a_second(narrow: RelayProcess) -> None:
    """--max-bytes-per-ip bounds what all the connections of one address send together (and
    so, with a backplane, what Redis publishes to a relay process for it): two players of
    one address, each well under his own rate, are together refused past the address's."""
    room = await create_room(narrow.url, seats=2)
    ada = await RoomConnection.join(narrow.url, room.room_id, room.player_token, "Ada")
    bob = await RoomConnection.join(narrow.url, room.room_id, room.player_token, "Bob")
    big = b"x" * 15_000
    for member in (ada, bob, ada):  # 45 KB at once: the third is one too many
        await member.send(big)
    # Whichever of them the relay read third is refused (each connection's frames are read
    # in its own order); the other goes on, seeing the departure.
    codes = await asyncio.gather(refusal(ada), refusal(bob))
    assert sorted(codes, key=str) == ["left", ErrorCode.RATE_LIMITED]
    await ada.close()
    await bob.close()
    logged = await asyncio.to_thread(narrow.log_lines)
    assert any(line.get("why") == "address" for line in logged if line["event"] == "refused")


async def refusal(member: RoomConnection) -> str:
    """How ``member``'s connection ends: its refusal's code, or "left" once it sees another
    member leave."""
    try:
        async with asyncio.timeout(10):
            while True:
                event = await member.receive()
                if isinstance(event, Presence) and event.event == PresenceEvent.LEFT:
                    return "left"
    except RelayError as refused:
        return refused.code
