"""A player whose app quit or crashed mid-match takes his seat back with ``tablier join``.

The crash is real enough: the room's task is cancelled in the middle of the match (right
after the player acted, his message maybe on its way to the relay, maybe not), and nothing is
closed, flushed or deleted. The player is then rebuilt from his disk alone, through
``join_room`` with the same invite, as ``tablier join`` does.
"""

from __future__ import annotations

import asyncio
import contextlib
import doctest
import os
import stat
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import pytest

import client.net.seatfile
from client.app import NetworkApp
from client.net.failures import RoomError
from client.net.game import NetworkGame
from client.net.invite import Invite
from client.net.plan import HostPlan, JoinPlan
from client.net.room import Room, host_room, join_room, start_embedded_relay
from client.net.seatfile import (
    Seat,
    SeatFileError,
    decode_seat,
    encode_seat,
    load_seat,
    room_seat_files,
    save_seat,
    seats_folder,
)
from client.setup import SessionSettings
from protocol.identity import seeded_source
from protocol.local import LocalMatch
from relay.config import RelayConfig
from relay.server import RelayServer
from tests.network.conftest import QUICK, PlayersClock, RelayProcess
from tests.network.players import TIMEOUT, assert_same_verified_logs, autoplay, meet, play_out
from tests.network.test_ui_games import (
    SIZE,
    chat_text,
    hosted_room,
    narrative_text,
    network_game,
    playing,
    says,
    shows_game,
    until,
)


class Crash(Exception):
    """The app dies here."""


def one_seat_file(room_id: str, data_dir: Path | None) -> Path:
    """The seat file kept in *data_dir* for room *room_id* (there must be one)."""
    [path] = room_seat_files(room_id, data_dir)
    return path


def crash_after(actions: int) -> Callable[[NetworkGame], None]:
    """An ``acted`` hook for autoplay: the app dies right after its *actions*-th action."""
    done = 0

    def acted(_game: NetworkGame) -> None:
        nonlocal done
        done += 1
        if done == actions:
            raise Crash

    return acted


async def crash(room: Room) -> None:
    """Kill the room's connection as a dying process would: no close, no flush, no goodbye;
    and let its log go as the system does when a process dies (what was written stays, the
    writer's lock goes)."""
    room.match.forget_listeners()
    room.match.logs.close(over=False)
    assert room.task is not None and room.ticker is not None
    for task in (room.ticker, room.task):
        task.cancel()
        with contextlib.suppress(BaseException):
            await task


async def resume(invite: Invite, name: str, settings: SessionSettings) -> Room:
    room = await join_room(invite, name=name, settings=settings, backoff=QUICK)
    assert room.notice is not None and room.notice.startswith("Back in your seat"), room.notice
    await room.wait_started(TIMEOUT)
    return room


async def back_and_finish(
    invite: Invite,
    name: str,
    settings: SessionSettings,
    live: list[Room],
    following: asyncio.Task[int],
    other: NetworkGame,
    *,
    check: Callable[[Room], None] = lambda room: None,
    caught_up: list[int] | None = None,
) -> NetworkGame:
    """*name* runs ``tablier join`` again (``check`` looks at his room at once); then both
    play to the end, and their logs are the same and verify. *caught_up* gets how many turns
    his screen was handed to catch up on when the game opened."""
    live.append(await resume(invite, name, settings))
    check(live[-1])
    back = live[-1].game(settings)
    if caught_up is not None:
        caught_up.append(back.pending_turns)
    async with asyncio.timeout(TIMEOUT):
        await asyncio.gather(following, autoplay(back))
    await assert_same_verified_logs([other, back])
    return back


@pytest.mark.parametrize("who", [1, 0], ids=["player", "host"])
async def test_a_crashed_player_comes_back_from_disk_and_the_match_ends_the_same_for_both(
    relay: RelayServer, settings: Callable[[str], SessionSettings], who: int
) -> None:
    names = ["Ada", "Bob"]
    rooms = await meet(relay.url, "jacquet", {"match_to": 1}, names, settings)
    games = [room.game(settings(name)) for room, name in zip(rooms, names, strict=True)]
    paths = [one_seat_file(rooms[0].invite.room_id, settings(name).data_dir) for name in names]
    assert all(stat.S_IMODE(path.stat().st_mode) == 0o600 for path in paths)
    survivor = games[1 - who]
    live = [rooms[1 - who]]  # the crashed room is never closed: its process is gone
    following = asyncio.create_task(autoplay(survivor))
    try:
        with pytest.raises(Crash):
            async with asyncio.timeout(TIMEOUT):
                await autoplay(games[who], acted=crash_after(7))
        await crash(rooms[who])
        assert survivor.ended is None and paths[who].exists()
        log = games[who].log_path
        assert log is not None
        with log.open("ab") as torn:  # the app died in the middle of writing a record
            torn.write(b"\xc5\x01")

        def told_the_cut(room: Room) -> None:
            assert "damaged end was cut" in (room.notice or "")

        caught_up: list[int] = []
        back = await back_and_finish(rooms[0].invite, names[who], settings(names[who]), live,
                                     following, survivor, check=told_the_cut,
                                     caught_up=caught_up)  # fmt: skip
        assert back.local_seat == games[who].local_seat and caught_up[0] >= 1
        assert back.ended is not None and back.ended.reason == "finished"
        # Between two matches the seats stay (0600): a rematch is joined from them
        assert all(load_seat(path) is not None for path in paths)
    finally:
        following.cancel()
        await asyncio.gather(*(room.close() for room in live))


async def crash_and_come_back(
    url: str,
    settings: Callable[[str], SessionSettings],
    away: Callable[[], Awaitable[None]],
) -> None:
    """Bob's app dies mid-match; ``away()`` happens to the relay meanwhile, so his seat token
    no longer opens anything; Bob comes back from disk with a new one, and both play to the
    end with the same, verified log."""
    rooms = await meet(url, "jacquet", {"match_to": 1}, ["Ada", "Bob"], settings)
    ada, bob = (room.game(settings(name)) for room, name in zip(rooms, ["Ada", "Bob"], strict=True))
    live = [rooms[0]]
    following = asyncio.create_task(autoplay(ada))
    try:
        async with asyncio.timeout(TIMEOUT):
            await autoplay(bob, stop_after=6)
            await crash(rooms[1])
            await away()
        path = one_seat_file(rooms[0].invite.room_id, settings("Bob").data_dir)
        saved = load_seat(path)
        assert saved is not None

        def kept_up_to_date(room: Room) -> None:
            again = load_seat(path)
            assert again is not None and again.seat_token == room.link.seat_token
            assert again.seat_token != saved.seat_token

        await back_and_finish(rooms[0].invite, "Bob", settings("Bob"), live, following, ada,
                              check=kept_up_to_date)  # fmt: skip
    finally:
        following.cancel()
        await asyncio.gather(*(room.close() for room in live))


async def test_back_after_the_seat_expired_and_the_backlog_moved_on(
    settings: Callable[[str], SessionSettings],
) -> None:
    """The relay freed Bob's seat and kept too little to replay: Bob takes a seat with the
    invite again and Ada sends him what he missed."""
    config = RelayConfig(
        port=0, rate=2000, burst=2000, backlog=8, seat_grace=0.2, max_bytes_per_ip=1 << 30
    )
    async with RelayServer(config) as relay:

        async def expire() -> None:
            await asyncio.sleep(0.5)

        await crash_and_come_back(relay.url, settings, expire)


async def test_back_after_the_relay_restarted(
    relay_process: list[RelayProcess], settings: Callable[[str], SessionSettings]
) -> None:
    """The relay lost the room: whoever comes first brings it back, the other catches up."""

    async def restart() -> None:
        relay_process.append(relay_process[-1].restart())

    await crash_and_come_back(relay_process[0].url, settings, restart)


@pytest.mark.parametrize("damage", ["garbage", "another log", "fifo"])
async def test_an_unusable_seat_file_is_named_and_the_join_goes_on(
    relay: RelayServer, settings: Callable[[str], SessionSettings], tmp_path: Path, damage: str
) -> None:
    """A seat file that cannot be read, one whose log is another match's, one whose log is
    a FIFO nobody writes (opening it to read would wait for ever, the app's loop with it):
    each is named in a sentence, and Bob joins anew."""
    host = await host_room(relay.url, "jacquet", {}, seats=2, name="Ada",
                           settings=settings("Ada"), backoff=QUICK)  # fmt: skip
    path = seats_folder(settings("Bob").data_dir) / host.invite.room_id  # an older version's name
    if damage == "garbage":
        path.parent.mkdir(parents=True)
        path.write_bytes(b"\x93not a seat")
    else:  # a well-formed seat whose log is some other match's, or no file at all
        other = tmp_path / "other.tablier"
        if damage == "fifo":
            os.mkfifo(other)
        else:
            LocalMatch.create("jacquet", {}, names=("X", "Y"), now=0, log_path=other,
                              random_source=seeded_source("other")).close()  # fmt: skip
        secret = seeded_source("secret")(32)
        save_seat(path, Seat(relay.url, host.invite.room_id, host.invite.token, "S" * 43, None,
                             "Bob", "player", other, secret, secret))  # fmt: skip
    bob = await join_room(host.invite, name="Bob", settings=settings("Bob"), backoff=QUICK)
    try:
        assert bob.notice is not None and "saved seat in this room cannot be used" in bob.notice
        if damage == "fifo":
            assert "other.tablier is not a regular file: not a match log" in bob.notice
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(host.wait_started(), bob.wait_started())
        seat = load_seat(path)  # the new seat replaced the unusable file
        assert seat is not None and seat.log_path == bob.match.log_path
    finally:
        await asyncio.gather(host.close(), bob.close())


def test_a_seat_file_round_trips_and_refuses_damage() -> None:
    assert doctest.testmod(client.net.seatfile).failed == 0
    secret = bytes(range(32))
    seat = Seat("ws://h:1/", "R" * 22, "P" * 43, "S" * 43, "K" * 43, "Bob", "player",
                Path("/x.tablier"), secret, secret)  # fmt: skip
    data = encode_seat(seat)
    assert decode_seat(data) == seat
    for broken in (data[:-1], data + b"\x00", data.replace(b"player", b"viewer")):
        with pytest.raises(SeatFileError):
            decode_seat(broken)


async def test_the_app_quit_mid_match_and_run_again_opens_on_the_board(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    plan = HostPlan("jacquet", {"match_to": 1}, 2, "Ada", relay_url=relay.url)
    host = NetworkApp(plan, settings("Ada"))
    async with host.run_test(size=SIZE) as ada:
        room = await hosted_room(ada, host)
        guest = NetworkApp(JoinPlan(room.invite, "Bob"), settings("Bob"))
        async with guest.run_test(size=SIZE) as bob:
            await until(bob, shows_game(guest), "Bob's game screen")
            await until(ada, shows_game(host), "Ada's game screen")
            await until(bob, lambda: bool(playing(guest).query("#chat-input")), "Bob's chat")
            await bob.press("t", *"one", "enter", "escape")
            await ada.press("r")  # Ada throws the opening
            await until(ada, lambda: "Ada" in narrative_text(host), "the throw")
        # Bob's app quit mid-match; he runs `tablier join` with the same invite again.
        assert one_seat_file(room.invite.room_id, settings("Bob").data_dir).exists()
        again = NetworkApp(JoinPlan(room.invite, "Bob"), settings("Bob"))
        async with again.run_test(size=SIZE) as bob:
            await until(bob, shows_game(again), "Bob's board again")
            await until(bob, lambda: network_game(again).state == network_game(host).state,
                        "the position where the match stands")  # fmt: skip
            await until(bob, lambda: "Bob (seat 2): one" in chat_text(again),
                        "what was said, shown again")  # (the panel fills as it is laid out)
            await bob.press("t", *"back", "enter", "escape")  # signed with the same key
            await until(ada, says(host, "Bob (seat 2): back"), "Bob's line")


async def test_a_host_whose_app_ran_the_relay_brings_it_back_with_his_seat(
    settings: Callable[[str], SessionSettings],
) -> None:
    """``tablier host`` without --relay runs the relay in the host's app: when that app dies,
    the relay dies with it. ``tablier join`` with the player invite starts it again on the
    same port, brings the room back, and both players carry on."""
    ada_room, bob, following, live = await host_relay_killed(settings)
    try:
        await back_and_finish(ada_room.invite, "Ada", settings("Ada"), live, following, bob)
    finally:
        following.cancel()
        await asyncio.gather(*(room.close() for room in live))


async def host_relay_killed(
    settings: Callable[[str], SessionSettings],
) -> tuple[Room, NetworkGame, asyncio.Task[None], list[Room]]:
    """Ada hosts with the relay in her app, Bob joins, she plays a few turns and her app
    (and so the relay) is killed: her dead room, Bob's game still playing (*following*, his
    autoplay), and the rooms still open (Bob's), for the caller to close."""
    embedded = await start_embedded_relay("127.0.0.1", 0)
    ada_room = await host_room(embedded.local_url, "jacquet", {"match_to": 1}, seats=2,
                               name="Ada", settings=settings("Ada"), backoff=QUICK)  # fmt: skip
    ada_room.listen = embedded.listen
    bob_room = await join_room(ada_room.invite, name="Bob", settings=settings("Bob"), backoff=QUICK)
    live = [bob_room]
    async with asyncio.timeout(TIMEOUT):
        await asyncio.gather(ada_room.wait_started(), bob_room.wait_started())
    ada, bob = ada_room.game(settings("Ada")), bob_room.game(settings("Bob"))
    following = asyncio.create_task(autoplay(bob))
    try:
        async with asyncio.timeout(TIMEOUT):
            await autoplay(ada, stop_after=5)
            await crash(ada_room)
            await embedded.close()
    except BaseException:
        following.cancel()
        await bob_room.close()
        raise
    return ada_room, bob, following, live


@pytest.mark.parametrize("again_as", ["Ada", "root"], ids=["named", "login-name"])
async def test_host_and_guest_on_one_machine_each_keep_their_own_seat(
    relay: RelayServer,
    settings: Callable[[str], SessionSettings],
    tmp_path: Path,
    again_as: str,
) -> None:
    """The README's first example: Ada hosts and Bob joins from two terminals of one machine
    (one data folder). Each seat has its own file; after Ada's app is killed, her `tablier
    join` — under her name, or under the login name `join` uses by default — takes back
    Ada's seat, never Bob's (whose app is still playing), and the match ends alike."""
    machine = tmp_path / "one-machine"

    def on_this_machine(name: str) -> SessionSettings:
        return replace(settings(name), data_dir=machine)

    rooms = await meet(relay.url, "jacquet", {"match_to": 1}, ["Ada", "Bob"], on_this_machine)
    ada, bob = (room.game(on_this_machine(name))
                for room, name in zip(rooms, ["Ada", "Bob"], strict=True))  # fmt: skip
    files = room_seat_files(rooms[0].invite.room_id, machine)
    seats = [load_seat(path) for path in files]
    assert sorted(seat.name for seat in seats if seat is not None) == ["Ada", "Bob"]
    following = asyncio.create_task(autoplay(bob))
    live = [rooms[1]]
    try:
        with pytest.raises(Crash):
            async with asyncio.timeout(TIMEOUT):
                await autoplay(ada, acted=crash_after(3))
        await crash(rooms[0])

        def took_ada_s_seat(room: Room) -> None:
            assert (room.notice or "").startswith("Back in your seat as Ada;")
            assert room.match.name == "Ada" and room.match.seat == 0

        back = await back_and_finish(rooms[0].invite, again_as, on_this_machine("Ada"), live,
                                     following, bob, check=took_ada_s_seat)  # fmt: skip
        assert back.ended is not None
    finally:
        following.cancel()
        await asyncio.gather(*(room.close() for room in live))


async def test_a_second_terminal_cannot_take_a_seat_still_played_and_says_where(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    """Bob's first app is still running when he joins again in another terminal: the second
    is refused with a sentence (the seat's log has one writer, the first app's), the first
    goes on undisturbed and the match ends the same for both; once the first app is gone
    (a crash lets its lock go), the seat is his to take back."""
    rooms = await meet(relay.url, "jacquet", {"match_to": 1}, ["Ada", "Bob"], settings)
    ada, bob = (room.game(settings(name)) for room, name in zip(rooms, ["Ada", "Bob"], strict=True))
    following = asyncio.create_task(autoplay(ada))
    live = list(rooms)
    try:
        async with asyncio.timeout(TIMEOUT):
            await autoplay(bob, stop_after=5)
        with pytest.raises(
            RoomError,
            match="Your seat as Bob in this room is being played in "
            "another terminal: quit Tablier there first",
        ):
            await join_room(rooms[0].invite, name="Bob", settings=settings("Bob"), backoff=QUICK)
        assert rooms[1].link.status.state == "connected"
        log = rooms[1].match.logs.path
        assert log is not None
        written = log.read_bytes()
        async with asyncio.timeout(TIMEOUT):
            await autoplay(bob, stop_after=3)
        assert log.read_bytes().startswith(written)  # the refused one wrote nothing to it
        await crash(rooms[1])
        live.remove(rooms[1])
        await back_and_finish(rooms[0].invite, "Bob", settings("Bob"), live, following, ada)
    finally:
        following.cancel()
        await asyncio.gather(*(room.close() for room in live))


async def test_back_in_a_match_that_ended_meanwhile_shows_the_end_and_keeps_the_seat(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    """The app died after the last move: the seat file stays between two matches (the
    rematch is joined from it)."""
    rooms = await meet(relay.url, "jacquet", {"match_to": 1}, ["Ada", "Bob"], settings)
    games = [room.game(settings(name)) for room, name in zip(rooms, ["Ada", "Bob"], strict=True)]
    path = one_seat_file(rooms[0].invite.room_id, settings("Bob").data_dir)
    seat = load_seat(path)
    assert seat is not None
    live = [rooms[0]]
    try:
        await play_out(games)
        await assert_same_verified_logs(games)
        await crash(rooms[1])
        save_seat(path, seat)  # as if the app had died before removing it
        live.append(await resume(rooms[0].invite, "Bob", settings("Bob")))
        back = live[-1].game(settings("Bob"))
        while back.pending_turns:  # his screen catches up on the match, to its end
            await back.next_turn()
        assert back.ended is not None and back.ended.reason == "finished"
        kept = load_seat(path)
        assert kept is not None and kept.log_path == seat.log_path
        back.ask_rematch()  # and he takes part in the rematch, in his seat
        games[0].ask_rematch()
        changed = asyncio.Event()
        for game in (games[0], back):
            game.subscribe(lambda _news: changed.set())
        async with asyncio.timeout(TIMEOUT):
            while not (games[0].superseded and back.superseded):
                changed.clear()
                await changed.wait()
        assert back.next_game().home_seat == 1
        assert live[-1].match.setup == rooms[0].match.setup
    finally:
        await asyncio.gather(*(room.close() for room in live))


async def test_back_during_the_first_turn_takes_a_claim_made_in_time_and_makes_none_early(
    relay: RelayServer, settings: Callable[[str], SessionSettings], clock: PlayersClock
) -> None:
    """The first thrower never throws; a player's app dies at once and he is back 20 s
    later. The first turn's limit runs from the start time, not from his return: the claim
    another player makes 1 s after the limit ends his match too (it was refused, "19 s
    before the limit", naming the honest claimant). His own claim waits the whole limit
    from his return (when the others saw the setup is not his to know)."""
    names = ["Ada", "Bob", "Cy"]
    rooms = await meet(relay.url, "goose", {"rules": "daumont"}, names, settings)
    by_seat = {room.match.seat: (room, name) for room, name in zip(rooms, names, strict=True)}
    session = rooms[0].match.session
    assert session is not None
    [stalls] = session.awaited_seats()
    away, claims = (seat for seat in sorted(by_seat) if seat != stalls)  # type: ignore[type-var]
    room, name = by_seat[away]
    live = [r for r in rooms if r is not room]
    try:
        await crash(room)
        clock.advance(20_000)
        live.append(await resume(rooms[0].invite, name, settings(name)))
        limit = session.setup.proposal.time_limit_ms
        clock.advance(limit - 20_000 + 1_000)
        back = live[-1].game(settings(name))
        assert back.claimable(clock()) is None  # his own: the whole limit after he came
        claimant = by_seat[claims][0].game(settings(by_seat[claims][1]))
        claimant.claim_abandonment(stalls)
        match = live[-1].match
        async with asyncio.timeout(TIMEOUT):
            while match.session is None or match.session.ended is None:
                await asyncio.sleep(0.02)
        assert match.session.ended.reason == "abandoned" and match.session.ended.seat == stalls
        assert not match.offences and match.session.records == session.records
    finally:
        await asyncio.gather(*(r.close() for r in live))
