"""A rematch in the same room: the players who just finished ask, the host proposes the same
match again, everyone is seated as before, and a new match (new id, new log) is played.
Real rooms on a real relay; the players are the bot, acting through NetworkGame."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Sequence

import pytest
from textual.pilot import Pilot

from client.app import NetworkApp
from client.game.turn import NotYourTurnError
from client.net import wire
from client.net.game import NetworkGame
from client.net.match import Outgoing
from client.net.meeting import Meeting
from client.net.plan import HostPlan, JoinPlan
from client.net.room import Room, join_room
from client.net.seatfile import load_seat, room_seat_files
from client.screens.end import EndScreen
from client.screens.game import GameScreen
from client.setup import SessionSettings
from protocol.identity import seeded_source
from protocol.logfile import read_log
from protocol.setup import Proposal
from protocol.verify import verify_log
from relay.server import RelayServer
from tests.network.conftest import QUICK
from tests.network.players import TIMEOUT, assert_same_verified_logs, autoplay, meet, play_out
from tests.network.test_seat_resume import Crash, crash, crash_after, resume
from tests.network.test_ui_games import (
    SIZE,
    hosted_room,
    network_game,
    says,
    shows_end,
    shows_game,
    until,
)


async def next_match(game: NetworkGame) -> NetworkGame:
    """Once the host seated everyone in the rematch: its game, as a screen would take it."""
    changed = asyncio.Event()
    unsubscribe = game.subscribe(lambda _news: changed.set())
    try:
        async with asyncio.timeout(TIMEOUT):
            while not game.superseded:
                changed.clear()
                await changed.wait()
    finally:
        unsubscribe()
    following = game.next_game()
    assert isinstance(following, NetworkGame)
    return following


async def rematch(games: Sequence[NetworkGame]) -> list[NetworkGame]:
    return list(await asyncio.gather(*(next_match(game) for game in games)))


@contextlib.asynccontextmanager
async def ada_and_bob(
    url: str, settings: Callable[[str], SessionSettings]
) -> AsyncIterator[tuple[list[Room], list[NetworkGame]]]:
    """Ada (the host) and Bob seated for a Jacquet match to 1 point; their rooms close after."""
    names = ["Ada", "Bob"]
    rooms = await meet(url, "jacquet", {"match_to": 1}, names, settings)
    try:
        yield rooms, [room.game(settings(name)) for room, name in zip(rooms, names, strict=True)]
    finally:
        await asyncio.gather(*(room.close() for room in rooms))


def match_id(game: NetworkGame) -> bytes:
    assert game.match.setup is not None
    return game.match.setup.match_id


async def test_a_player_asks_and_the_rematch_is_a_new_match_with_its_own_log(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    async with ada_and_bob(relay.url, settings) as (rooms, first):
        await play_out(first)
        first_log = await assert_same_verified_logs(first)
        [bob_seat] = room_seat_files(rooms[1].invite.room_id, settings("Bob").data_dir)
        kept = load_seat(bob_seat)  # between two matches too: a crash there is recoverable
        assert kept is not None and kept.log_path == first[1].log_path

        first_id = match_id(first[0])
        first[1].ask_rematch()
        assert first[1].rematch_note == "Waiting for Ada to want a rematch too…"
        first[1].ask_rematch()  # asked twice: still one rematch
        async with asyncio.timeout(TIMEOUT):  # Ada hears it; nothing starts without her
            while first[0].rematch_note != "Bob would like a rematch: press a to play again.":
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        assert not first[0].superseded and not first[0].match.rematching
        first[0].ask_rematch()
        second = await rematch(first)
        assert [game.local_seat for game in second] == [0, 1]
        assert second[0].names == second[1].names == ("Ada", "Bob")
        assert match_id(second[0]) == match_id(second[1]) != first_id
        assert second[0].setup == first[0].setup  # the same game, options and names
        saved = load_seat(bob_seat)  # the rematch keeps a seat file of its own
        assert saved is not None and saved.log_path == second[1].log_path

        await play_out(second)
        second_log = await assert_same_verified_logs(second)
        assert {game.log_path for game in first}.isdisjoint({game.log_path for game in second})
        for game in first:  # the first match's log is as it was, and still that match's
            assert game.log_path is not None and game.log_path.read_bytes() == first_log
        assert read_log(second[0].log_path).setup.match_id == match_id(second[0])  # type: ignore[arg-type]
        assert first_log != second_log


async def test_the_host_asks_for_a_goose_rematch_with_the_others_and_a_spectator_follows_it(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    names = ["Ada", "Bob", "Cy"]
    rooms = await meet(relay.url, "goose", {"rules": "daumont"}, names, settings)
    assert rooms[0].spectator_invite is not None
    watcher = await join_room(rooms[0].spectator_invite, name="Eve", settings=settings("Eve"),
                              backoff=QUICK)  # fmt: skip
    rooms.append(watcher)
    try:
        await watcher.wait_started(TIMEOUT)
        first = [room.game(settings(name)) for room, name in zip(rooms, [*names, "Eve"],
                                                                 strict=True)]  # fmt: skip
        await play_out(first)
        await assert_same_verified_logs(first)
        with pytest.raises(NotYourTurnError, match="only the players"):
            first[3].ask_rematch()

        for game in first[:3]:  # everyone at once: the host proposes when all asks reach him
            game.ask_rematch()
        assert first[0].rematch_note == "Waiting for Bob, Cy to want a rematch too…"
        second = await rematch(first)
        assert [game.local_seat for game in second] == [0, 1, 2, None]
        assert len({match_id(game) for game in second}) == 1
        assert not any(game.match.offences for game in second)
        await play_out(second)
        await assert_same_verified_logs(second)
    finally:
        await asyncio.gather(*(room.close() for room in rooms))


async def test_no_rematch_while_the_match_is_still_being_played(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    async with ada_and_bob(relay.url, settings) as (rooms, games):
        with pytest.raises(NotYourTurnError, match="still being played"):
            games[1].ask_rematch()
        # A client that asks anyway (sent by hand, as a broken one would) is named and ignored.
        rooms[1].match.outbox.append(Outgoing(wire.encode(wire.Rematch(match_id(games[1])))))
        rooms[1].link.flush()
        async with asyncio.timeout(TIMEOUT):
            while not games[0].match.offences:
                await asyncio.sleep(0.01)
        offence = games[0].match.offences[0]
        assert (offence.who, offence.fatal) == ("Bob", False)
        assert offence.text == "asked for a rematch while the match is still being played"
        await play_out(games)
        assert not any(game.superseded for game in games)
        assert all(game.ended and game.ended.reason == "finished" for game in games)
        assert all(game.rematch_note is None for game in games)


@pytest.mark.parametrize(
    ("gone", "told"),
    [
        (0, "Ada, the host, has left the room: there is no rematch without the host"),
        (1, "Bob left the room: a rematch needs every player of the match"),
    ],
    ids=["host", "player"],
)
async def test_with_a_player_gone_the_one_who_asks_is_told_there_is_no_rematch(
    relay: RelayServer, settings: Callable[[str], SessionSettings], gone: int, told: str
) -> None:
    async with ada_and_bob(relay.url, settings) as (rooms, games):
        await play_out(games)
        await rooms[gone].close()
        stays = games[1 - gone]
        async with asyncio.timeout(TIMEOUT):
            while (left := stays.match.member_for_seat(gone)) is None or left.connected:
                await asyncio.sleep(0.01)
        with pytest.raises(NotYourTurnError, match=told):
            stays.ask_rematch()
        assert stays.rematch_note == told + "."
        assert not stays.superseded and not stays.match.rematching


async def test_a_player_back_from_his_seat_file_in_a_rematch_plays_on_and_asks_again(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    """Bob's app dies in the rematch; back from disk, the relay replays him the whole room,
    the first match included, which must not reach the rematch. Then he asks for a third."""
    names = ["Ada", "Bob"]
    rooms = await meet(relay.url, "jacquet", {"match_to": 1}, names, settings)
    live = [rooms[0]]
    try:
        first = [room.game(settings(name)) for room, name in zip(rooms, names, strict=True)]
        await play_out(first)
        first_id = match_id(first[0])
        for game in first:
            game.ask_rematch()
        ada, bob = await rematch(first)
        second_id = match_id(ada)
        following = asyncio.create_task(autoplay(ada))
        with pytest.raises(Crash):
            async with asyncio.timeout(TIMEOUT):
                await autoplay(bob, acted=crash_after(5))
        await crash(rooms[1])
        live.append(await resume(rooms[0].invite, "Bob", settings("Bob")))
        back = live[1].game(settings("Bob"))
        assert back.match.setup == bob.match.setup
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(following, autoplay(back))
        await assert_same_verified_logs([ada, back])

        back.ask_rematch()
        ada.ask_rematch()
        third = await rematch([ada, back])
        assert match_id(third[0]) == match_id(third[1]) not in {first_id, second_id}
        await play_out(third)
        await assert_same_verified_logs(third)
    finally:
        await asyncio.gather(*(room.close() for room in live))


def on_a_new_board(app: NetworkApp, before: Sequence[NetworkGame]) -> Callable[[], bool]:
    """The rematch's board is the screen shown, and mounted: its title and panels are set as
    it mounts, which on a loaded machine comes a while after it is pushed."""
    return lambda: (
        isinstance(screen := app.screen, GameScreen)
        and screen.is_mounted
        and network_game(app) not in before
    )


async def resign(pilot: Pilot[None]) -> None:
    await pilot.press("ctrl+r")
    await pilot.press("y")


async def test_play_again_on_the_end_screen_opens_the_rematch_board_in_both_apps(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    """Both matches end by resignation: playing a whole match through two apps is
    test_ui_games' part; here what counts is the way from one end screen to the next board."""
    plan = HostPlan("jacquet", {"match_to": 1, "bearoff": "backgammon"}, 2, "Ada",
                    relay_url=relay.url)  # fmt: skip
    host = NetworkApp(plan, settings("Ada"))
    async with host.run_test(size=SIZE) as ada:
        room = await hosted_room(ada, host)
        guest = NetworkApp(JoinPlan(room.invite, "Bob"), settings("Bob"))
        async with guest.run_test(size=SIZE) as bob:
            apps, pilots = (host, guest), (ada, bob)
            for app, pilot in zip(apps, pilots, strict=True):
                await until(pilot, shows_game(app), "the first match's board")
            await resign(bob)
            for app, pilot in zip(apps, pilots, strict=True):
                await until(pilot, shows_end(app), "the end of the first match")
            first = [network_game(app) for app in apps]
            first_id = match_id(first[0])
            first[1].chat("encore une")  # said between the matches: the first match's log
            await until(ada, says(host, "Bob (seat 2): encore une"), "Bob's line")
            await bob.press("a")  # Bob asks; Ada is told, and nothing starts without her
            await until(ada, lambda: "Bob would like a rematch" in (first[0].rematch_note or ""),
                        "Ada told of Bob's wish")  # fmt: skip
            assert isinstance(host.screen, EndScreen)
            await ada.press("a")  # now Ada's app proposes; both join
            for app, pilot in zip(apps, pilots, strict=True):
                await until(pilot, on_a_new_board(app, first), "the rematch's board")
                # The chat panel goes on: the new board's panel is filled from the room's chat
                # as it mounts, which on a loaded machine may be a few frames after the screen.
                await until(pilot, says(app, "Bob (seat 2): encore une"), "the first match's chat")
            second = [network_game(app) for app in apps]
            assert match_id(second[0]) == match_id(second[1]) != first_id
            for app in apps:  # the room's score so far, on the new board's title
                assert "Running score after 1 game: Ada 1, Bob 0" in (app.screen.sub_title or "")
            await resign(ada)  # the new board is live: its keys reach its match
            for app, pilot in zip(apps, pilots, strict=True):
                await until(pilot, shows_end(app), "the end of the rematch")
            assert all(game.ended and game.ended.reason == "resigned" for game in second)
            await assert_same_verified_logs(second)
            logs = [game.log_path for game in first]  # the first match's, closed as they were
            assert logs[0] is not None and logs[1] is not None
            assert logs[0].read_bytes() == logs[1].read_bytes() and verify_log(logs[0]).ok
            assert b"encore une" in logs[0].read_bytes()
            assert second[0].log_path is not None
            assert b"encore une" not in second[0].log_path.read_bytes()


async def test_a_rematch_nobody_asked_for_is_an_offer_the_player_accepts_with_a(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    """A hostile host proposes a rematch nobody asked for (his client skips the vote; attack
    peer/05): Bob's app does not join it, since nobody is put into a match he did not ask for
    (else the host throws, waits out the limit and claims Bob abandoned while he reads his
    end screen). Bob's end screen shows it as an offer; `a` plays it."""
    async with ada_and_bob(relay.url, settings) as (rooms, first):
        await play_out(first)
        first_id = match_id(first[0])
        host = rooms[0].match
        meetings = host.meetings
        assert meetings.setup is not None and meetings.spectator_token is not None
        before = meetings.setup.proposal
        forced = Proposal.create(before.game, dict(before.options), seats=before.seats,
                                 start_time=settings("Ada").clock(),
                                 random_source=seeded_source("forced"),
                                 time_limit_ms=before.time_limit_ms)  # fmt: skip
        ended_meeting, meetings.meeting = meetings.meeting, Meeting(previous=meetings.setup)
        meetings._ended_meeting = ended_meeting
        host._carry_out(meetings.propose(forced, meetings.spectator_token))
        rooms[0].link.flush()
        offer = "Ada proposed the rematch: 1 of 2 players joined… Press a to play it."
        async with asyncio.timeout(TIMEOUT):
            while first[1].rematch_note != offer:
                await asyncio.sleep(0.01)
        bob_key = rooms[1].match.identity.public_key
        assert bob_key not in [join.public_key for join in meetings.meeting.joins]
        assert not first[0].superseded and not first[1].superseded
        first[1].ask_rematch()  # Bob accepts the offer: he joins, and the rematch begins
        second = await rematch(first)
        assert [game.local_seat for game in second] == [0, 1]
        assert match_id(second[0]) == match_id(second[1]) != first_id
