"""The room's invites stay at hand once the match began (issue 29, item 3): `i` on the game
screen (and its palette entry) shows both and copies each, for every player."""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import Label

from client.app import NetworkApp
from client.net.plan import HostPlan, JoinPlan
from client.screens.game import GameScreen
from client.screens.invites import InvitesScreen
from client.setup import SessionSettings
from relay.server import RelayServer
from tests.network.test_ui_games import SIZE, game_screen, hosted_room, room_of, until


async def test_every_player_shows_and_copies_both_invites_mid_match(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    host = NetworkApp(HostPlan("jacquet", {"match_to": 3}, 2, "Ada", relay_url=relay.url),
                      settings("Ada"))  # fmt: skip
    async with host.run_test(size=SIZE) as ada:
        room = await hosted_room(ada, host)
        hosted = room_of(host).room
        assert hosted is not None and hosted.spectator_invite is not None
        expected = (room.invite.encode(), hosted.spectator_invite.encode())
        guest = NetworkApp(JoinPlan(room.invite, "Bob"), settings("Bob"))
        async with guest.run_test(size=SIZE) as bob:
            for app, pilot in ((host, ada), (guest, bob)):
                await until(pilot, lambda app=app: game_screen(app) is not None, "the game")
                playing = game_screen(app)
                assert isinstance(playing, GameScreen)
                titles = [command.title for command in app.get_system_commands(playing)]
                assert "Invites" in titles  # the palette offers it too
                await pilot.press("i")
                await until(pilot, lambda app=app: isinstance(app.screen, InvitesScreen),
                            "the invites")  # fmt: skip
                shown = app.screen
                assert isinstance(shown, InvitesScreen)
                player = str(shown.query_one("#invite-player", Label).render())
                watch = str(shown.query_one("#invite-watch", Label).render())
                assert (player, watch) == expected
                told: list[str] = []
                app.notify = lambda message, told=told, **_kw: told.append(str(message))  # type: ignore[method-assign,misc]
                await pilot.press("w")
                await until(pilot, lambda told=told: bool(told), "the copy's notice")
                assert told[0].startswith("The spectator invite")
                await pilot.press("escape")
                await until(pilot, lambda app=app: isinstance(app.screen, GameScreen), "back")
