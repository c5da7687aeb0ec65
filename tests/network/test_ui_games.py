"""The real app on both ends (Pilot, one event loop): rooms, the networked screens, chat,
whole games played by the computer through the screens' own controller, identical logs."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

import pytest
from textual.pilot import Pilot

from client.app import NetworkApp
from client.net.game import NetworkGame
from client.net.plan import HostPlan, JoinPlan
from client.net.room import Room
from client.screens.end import EndScreen
from client.screens.game import GameScreen
from client.screens.goose import GooseScreen
from client.screens.jacquet import JacquetScreen
from client.screens.room import RoomScreen
from client.setup import SessionSettings
from client.widgets.chat import ChatPanel
from protocol.verify import verify_log
from relay.server import RelayServer
from tests.client.conftest import screen_text
from tests.network.hostile import Hostile
from tests.network.players import assert_same_verified_logs

TIMEOUT = 150.0
"""How long :func:`until` lets nothing happen: a hang guard, never a budget. Longer than
pytest-timeout's 120 s (pyproject), which stops a real hang first at the line that waited;
a busy machine (load 25 on 2 cores) went 90 s without a move while nothing was wrong."""
SIZE = (80, 24)


WHOLE_MATCH = pytest.mark.timeout(600)
"""A whole match played by two or three apps is some 30 s of work on two quiet cores and
ran past pytest-timeout's 120 s on a busy machine: its hang guard is scaled to the work.
A real hang is still stopped by :func:`until`, which fails when the game's state has not
moved for :data:`TIMEOUT` seconds."""


async def until(
    pilot: Pilot[None],
    condition: Callable[[], bool],
    what: str,
    *,
    moving: Callable[[], object] | None = None,
) -> None:
    """Let the app run until *condition* holds. It fails only on a hang, never on a slow
    machine: when nothing happened for TIMEOUT seconds — where *moving* is given (a whole
    match), when what it returns stayed the same object for that long."""
    loop = asyncio.get_running_loop()
    last, since = moving() if moving is not None else None, loop.time()
    while not condition():
        await pilot.pause(0.02)
        if moving is not None and (now := moving()) is not last:
            last, since = now, loop.time()
        if loop.time() - since > TIMEOUT:
            raise AssertionError(f"timed out waiting for {what}")


def ended(app: NetworkApp) -> bool:
    """The end-of-game screen is up and drawn (its Lobby button: Play again is offered
    only where a rematch can be had)."""
    return isinstance(app.screen, EndScreen) and bool(app.screen.query("#lobby"))


def room_of(app: NetworkApp) -> RoomScreen:
    screen = next(s for s in app.screen_stack if isinstance(s, RoomScreen | GameScreen))
    assert isinstance(screen, RoomScreen)
    return screen


async def hosted_room(pilot: Pilot[None], host: NetworkApp) -> Room:
    """The room the host's app created, once it has one."""
    await until(pilot, lambda: room_of(host).room is not None, "the host's room")
    room = room_of(host).room
    assert room is not None
    return room


GOOSE = {"rules": "daumont", "ante": 4, "fee": 1}


@contextlib.asynccontextmanager
async def host_and_guest(
    relay_url: str,
    game: str,
    options: dict[str, int | str],
    settings: Callable[[str], SessionSettings],
) -> AsyncIterator[tuple[NetworkApp, Pilot[None], NetworkApp, Pilot[None]]]:
    """Ada hosts *game* on the relay, Bob joins with her invite: both apps, each with its
    pilot, once each shows the game."""
    host = NetworkApp(HostPlan(game, options, 2, "Ada", relay_url=relay_url), settings("Ada"))
    async with host.run_test(size=SIZE) as ada:
        room = await hosted_room(ada, host)
        guest = NetworkApp(JoinPlan(room.invite, "Bob"), settings("Bob"))
        async with guest.run_test(size=SIZE) as bob:
            for app, pilot in ((host, ada), (guest, bob)):
                await until(pilot, shows_game(app), "a game screen")
            yield host, ada, guest, bob


def game_screen(app: NetworkApp) -> GameScreen | None:
    """The game screen, once shown: pushed and composed (it is on the stack a moment before
    its widgets are, and a test reading them then failed on a busy machine)."""
    return next((s for s in app.screen_stack if isinstance(s, GameScreen) and s.is_mounted),
                None)  # fmt: skip


def playing(app: NetworkApp) -> GameScreen:
    screen = game_screen(app)
    assert screen is not None
    return screen


def network_game(app: NetworkApp) -> NetworkGame:
    """The networked match the app's game screen plays through."""
    game = playing(app).game
    assert isinstance(game, NetworkGame)
    return game


def shows_game(app: NetworkApp) -> Callable[[], bool]:
    return lambda: game_screen(app) is not None


def shows_end(app: NetworkApp) -> Callable[[], bool]:
    return lambda: ended(app)


def chat_text(app: NetworkApp) -> str:
    screen = game_screen(app)
    if screen is None or not screen.query(ChatPanel):  # (a new screen composes it soon after)
        return ""
    panel = screen.query_one(ChatPanel)
    lines = panel.query_one("#chat-log").lines  # type: ignore[attr-defined]
    return " ".join(" ".join(line.text.split()) for line in lines)  # (a line may wrap)


@WHOLE_MATCH
async def test_two_apps_play_a_whole_jacquet_match(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    plan = HostPlan(
        "jacquet",
        {"match_to": 1, "bearoff": "backgammon"},
        2,
        "Ada",
        relay_url=relay.url,
        computer=True,
    )
    host = NetworkApp(plan, settings("Ada"))
    async with host.run_test(size=SIZE) as ada:
        room = await hosted_room(ada, host)
        assert room.invite.encode() == str(room_of(host).query_one("#invite-player").render())
        await ada.press("c")  # copies the invite (and says so)
        guest = NetworkApp(JoinPlan(room.invite, "Bob", computer=True), settings("Bob"))
        async with guest.run_test(size=SIZE) as bob:
            await until(ada, lambda: game_screen(host) is not None, "the host's game screen")
            await until(bob, lambda: game_screen(guest) is not None, "the guest's game screen")
            screens = [game_screen(host), game_screen(guest)]
            assert all(isinstance(screen, JacquetScreen) for screen in screens)
            games = [screen.game for screen in screens if screen is not None]
            await until(ada, lambda: ended(host), "the host's end screen",
                        moving=lambda: games[0].state)  # fmt: skip
            await until(bob, lambda: ended(guest), "the guest's end screen",
                        moving=lambda: games[1].state)  # fmt: skip
            assert all(game.ended and game.ended.reason == "finished" for game in games)
            # The board each side sees is the end position (the same on both).
            assert games[0].state == games[1].state
            await assert_same_verified_logs(games)


@WHOLE_MATCH
async def test_three_apps_play_a_whole_goose_game(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    plan = HostPlan(
        "goose",
        {"rules": "daumont", "ante": 4, "fee": 1},
        3,
        "Ada",
        relay_url=relay.url,
        computer=True,
    )
    host = NetworkApp(plan, settings("Ada"))
    async with host.run_test(size=SIZE) as ada:
        room = await hosted_room(ada, host)
        invite = room.invite
        apps = [host] + [
            NetworkApp(JoinPlan(invite, name, computer=True), settings(name))
            for name in ("Bob", "Cy")
        ]
        async with apps[1].run_test(size=SIZE) as bob, apps[2].run_test(size=SIZE) as cy:
            pilots = [ada, bob, cy]
            for app, pilot in zip(apps, pilots, strict=True):
                await until(pilot, shows_game(app), "a game screen")
            assert all(isinstance(game_screen(app), GooseScreen) for app in apps)
            games = [network_game(app) for app in apps]
            for game, app, pilot in zip(games, apps, pilots, strict=True):
                await until(pilot, shows_end(app), "the end",
                            moving=lambda game=game: game.state)  # fmt: skip
            await assert_same_verified_logs(games)


def says(app: NetworkApp, line: str) -> Callable[[], bool]:
    return lambda: line in chat_text(app)


def told_more(app: NetworkApp, before: str) -> Callable[[], bool]:
    return lambda: narrative_text(app) != before


def narrative_text(app: NetworkApp) -> str:
    screen = game_screen(app)
    if screen is None:
        return ""
    return " ".join(line.text for line in screen.query_one("#narrative").lines)  # type: ignore[attr-defined]


async def test_people_chat_a_watcher_follows_and_cannot_act(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    plan = HostPlan(
        "jacquet", {"match_to": 1, "bearoff": "backgammon"}, 2, "Ada", relay_url=relay.url
    )
    host = NetworkApp(plan, settings("Ada"))
    async with host.run_test(size=SIZE) as ada:
        room = await hosted_room(ada, host)
        assert room.spectator_invite is not None
        guest = NetworkApp(JoinPlan(room.invite, "Bob"), settings("Bob"))
        watcher = NetworkApp(JoinPlan(room.spectator_invite, "Eve"), settings("Eve"))
        async with guest.run_test(size=SIZE) as bob, watcher.run_test(size=SIZE) as eve:
            for app, pilot in ((host, ada), (guest, bob), (watcher, eve)):
                await until(pilot, shows_game(app), "a game screen")
            # Nobody has thrown: Bob and Eve wait for Ada, and Eve's keys do nothing.
            await until(
                bob,
                lambda: (
                    "Waiting for Ada" in str(playing(guest).query_one("#jacquet-message").render())
                ),
                "Bob's prompt",
            )
            await eve.press("r", "enter", "c")
            assert playing(watcher).game.awaiting == playing(host).game.awaiting

            await ada.press("t", *"salut", "space", *"Bob", "enter", "escape")
            for app, pilot in ((guest, bob), (watcher, eve)):
                await until(pilot, says(app, "Ada (seat 1): salut Bob"), "the chat")
            await bob.press("t", *"bonjour", "enter", "escape")
            await until(ada, lambda: "Bob (seat 2): bonjour" in chat_text(host), "Bob's answer")

            # Ada throws the opening: the turn reaches every screen, told in its side log.
            told = {app: narrative_text(app) for app in (host, guest, watcher)}
            await ada.press("r")
            for app, pilot in ((host, ada), (guest, bob), (watcher, eve)):
                await until(pilot, told_more(app, told[app]), "the throw")
                assert "Ada" in narrative_text(app)
            states = [playing(app).game.state for app in (host, guest, watcher)]
            assert states[0] == states[1] == states[2]


@contextlib.asynccontextmanager
async def stopped_by_a_forged_share(
    url: str, settings: Callable[[str], SessionSettings], name: str
) -> AsyncIterator[NetworkApp]:
    """Ada hosts a two-player Goose match that *name* joins and cheats in (his dice share is
    forged): the host's app, once it shows the end of the match."""
    plan = HostPlan("goose", {"rules": "daumont", "ante": 4, "fee": 1}, 2, "Ada",
                    relay_url=url)  # fmt: skip
    host = NetworkApp(plan, settings("Ada"))
    async with host.run_test(size=SIZE) as ada:
        room = await hosted_room(ada, host)
        mallory = Hostile(room.invite, settings("Mallory"), name=name)
        mallory.rewrite = Hostile.forge_shares
        await mallory.enter()
        follower = asyncio.create_task(mallory.follow(lambda: False))
        try:
            await until(ada, shows_game(host), "the game screen")
            await ada.press("space")  # Ada throws for the lots; Mallory's share is forged
            await until(ada, shows_end(host), "the end of the match")
            # (drawn, not only mounted: a busy machine read its text still empty)
            await until(ada, lambda: "The match was stopped." in screen_text(host), "its text")
        finally:
            follower.cancel()
        yield host


async def test_a_cheat_is_named_on_screen_and_the_match_stops_with_its_log(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    async with stopped_by_a_forged_share(relay.url, settings, "Mallory") as host:
        end = host.screen
        assert isinstance(end, EndScreen)
        assert end.summary.title == "The match was stopped."
        assert end.summary.lines[0].startswith("Mallory (seat 2): Mallory's dice share")
        bar = str(playing(host).query_one("#connection").render())
        assert "match stopped: Mallory" in bar
        assert end.summary.log_path is not None
        report = verify_log(end.summary.log_path)
        assert not report.ok and "Mallory's dice share" in (report.error or "")


async def test_quitting_while_a_turn_is_on_its_way_closes_cleanly(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    """A screen's worker waiting for the next turn must not wake into a half-closed app
    (its widgets gone: a traceback at exit). The moment varies, so a few tries."""
    for attempt in range(3):
        plan = HostPlan("jacquet", {"match_to": 3}, 2, "Ada", relay_url=relay.url, computer=True)
        host = NetworkApp(plan, settings(f"Ada{attempt}"))
        async with host.run_test(size=SIZE) as ada:
            room = await hosted_room(ada, host)
            guest = NetworkApp(
                JoinPlan(room.invite, "Bob", computer=True), settings(f"Bob{attempt}")
            )
            async with guest.run_test(size=SIZE) as bob:
                await until(bob, shows_game(guest), "Bob's game screen")
                await asyncio.sleep(0.3 + 0.35 * attempt)  # somewhere in the match
                guest.exit()  # run_test re-raises what a worker raised while closing


async def test_quitting_as_the_game_screen_opens_closes_cleanly(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    """The room screen gives way to the game screen, and the app quits a few event-loop
    turns later, while the new screen mounts its chat panel and connection line."""
    for ticks in (0, 1, 3):
        plan = HostPlan("goose", {}, 2, "Ada", relay_url=relay.url, computer=True)
        host = NetworkApp(plan, settings(f"Ada{ticks}"))
        async with host.run_test(size=SIZE) as ada:
            room = await hosted_room(ada, host)
            guest = NetworkApp(JoinPlan(room.invite, "Bob"), settings(f"Bob{ticks}"))
            async with guest.run_test(size=SIZE):
                async with asyncio.timeout(TIMEOUT):
                    while game_screen(guest) is None:  # every turn of the loop: no pause
                        await asyncio.sleep(0)
                for _ in range(ticks):
                    await asyncio.sleep(0)
                guest.exit()


async def test_quitting_while_reconnecting_closes_cleanly(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    """The relay is gone and both apps try again and again: quitting then leaves no
    traceback, no task behind, and does not wait for a relay that will not answer."""
    opened = host_and_guest(relay.url, "jacquet", {"match_to": 3}, settings)
    async with opened as (host, _, guest, bob):
        await relay.close()
        games = [network_game(app) for app in (host, guest)]
        await until(
            bob,
            lambda: all(game.status.state == "reconnecting" for game in games),
            "both apps reconnecting",
        )
        guest.exit()
        await bob.pause()
    # Each room closed by itself, not cut at the bound.
    assert guest.closings_cut_short == 0 and host.closings_cut_short == 0


async def test_a_player_resigns_during_the_others_turn_and_both_see_the_end(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    """ctrl+r asks, then ends the match for both: Bob's screen was waiting for Ada's throw,
    Ada's was waiting for her own key, and both must show the end."""
    opened = host_and_guest(relay.url, "jacquet", {"match_to": 3}, settings)
    async with opened as (host, ada, guest, bob):
        games = [network_game(app) for app in (host, guest)]
        await bob.press("ctrl+r")
        await bob.press("n")  # asked first: no, and nothing happened
        assert games[1].ended is None and not isinstance(guest.screen, EndScreen)
        await bob.press("ctrl+r")
        await bob.press("y")
        for app, pilot in ((host, ada), (guest, bob)):
            await until(pilot, shows_end(app), "the end screen")
            assert "Bob resigned: Ada wins the match." in str(
                app.screen.query_one("#title").render()
            )
        assert all(game.ended and game.ended.reason == "resigned" for game in games)
        await assert_same_verified_logs(games)


async def test_escape_while_join_is_still_connecting_ends_the_command(
    settings: Callable[[str], SessionSettings],
) -> None:
    """Issue 29, item 11: esc on `tablier join` before the relay answered ends the command
    (status 1, saying why), rather than dropping the person into a lobby."""
    import socket

    from client.net.invite import Invite

    with socket.socket() as listener:  # a port that accepts nothing: the join keeps trying
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        invite = Invite(f"ws://127.0.0.1:{port}/", "R" * 22, "P" * 43, "player")
        guest = NetworkApp(JoinPlan(invite, "Bob", connect_timeout=600), settings("Bob"))
        async with guest.run_test(size=SIZE) as bob:
            await until(bob, lambda: isinstance(guest.screen, RoomScreen), "the room screen")
            await bob.press("escape")
            await until(bob, lambda: not guest.is_running, "the command's end")
    assert guest.return_code == 1
    assert guest.problem() == f"left before the relay at ws://127.0.0.1:{port}/ answered"
