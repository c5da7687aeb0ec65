"""A peer's name and chat are shown as written, on every screen they reach.

The other players' programs choose their names (up to 32 printable characters) and what they
chat; a name like ``[/]`` crashed every other player's app (Textual's MarkupError) and
``[@click=app.quit]`` made a clickable action of it. Real relay, real apps.
"""

from __future__ import annotations

from collections.abc import Callable

from client.app import NetworkApp
from client.net.plan import HostPlan, JoinPlan
from client.screens.end import EndScreen
from client.setup import SessionSettings
from relay.server import RelayServer
from tests.client.conftest import screen_text
from tests.network.test_ui_games import (
    SIZE,
    chat_text,
    hosted_room,
    shows_game,
    stopped_by_a_forged_share,
    until,
)

PEER = "[/]Bob"  # ended every other player's app (MarkupError)
CLICK = "[@click=app.quit]Cy"  # a name that was a button
LONG = "[@click=app.quit]Dan[/b][/]"  # 27 characters: a peer may, a local player may not
CHAT = "[/][b]salut[/b][@click=app.quit]!"


def shows_chat(app: NetworkApp, line: str) -> Callable[[], bool]:
    """The chat panel holds *line* as typed (the panel wraps long lines: compare unwrapped)."""
    return lambda: line in chat_text(app).replace(" ", "")


async def test_a_peer_named_with_markup_is_shown_as_named(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    plan = HostPlan("goose", {}, 4, "Ada", relay_url=relay.url)
    host = NetworkApp(plan, settings("Ada"))
    async with host.run_test(size=SIZE) as ada:
        room = await hosted_room(ada, host)
        guest = NetworkApp(JoinPlan(room.invite, PEER), settings("Bob"))
        async with guest.run_test(size=SIZE) as bob:
            await until(ada, lambda: PEER in screen_text(host), "the peer in the room's list")
            third = NetworkApp(JoinPlan(room.invite, CLICK), settings("Cy"))
            fourth = NetworkApp(JoinPlan(room.invite, LONG), settings("Dan"))
            async with third.run_test(size=SIZE) as cy, fourth.run_test(size=SIZE) as dan:
                apps = ((host, ada), (guest, bob), (third, cy), (fourth, dan))
                for app, pilot in apps:
                    await until(pilot, shows_game(app), "a game screen")
                # The side panel lists every player as he is named (a long name is cut).
                await until(ada, lambda: CLICK in screen_text(host), "the names on the board")
                assert PEER in screen_text(host) and LONG[:16] in screen_text(host)
                await bob.press("t")
                await bob.pause()  # the chat input has the focus
                await bob.press(*CHAT, "enter", "escape")
                for app, pilot in apps:
                    if app is not guest:
                        await until(pilot, shows_chat(app, CHAT), "the chat line as typed")
                # Their turns come: every prompt that names them names them as written.
                await ada.press("space")  # Ada throws for the lots; Bob is next
                await until(ada, lambda: f"Waiting for {PEER} " in screen_text(host), "Bob's turn")
                await bob.press("space")
                await until(ada, lambda: f"Waiting for {CLICK} " in screen_text(host), "Cy's turn")
                assert all(app.is_running for app, _ in apps)  # no click, no crash


async def test_a_cheat_named_with_markup_is_named_as_such(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    """The notice and the end screen that name an offender show his name as he chose it."""
    async with stopped_by_a_forged_share(relay.url, settings, "[/]Mallory") as host:
        assert isinstance(host.screen, EndScreen)
        assert "[/]Mallory (seat 2): " in screen_text(host)
