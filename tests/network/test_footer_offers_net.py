"""A networked game's footer offers the throw to the player whose turn it is, not to the
one waiting at the other terminal (issue 29): it comes and goes as the turn does."""

from __future__ import annotations

from collections.abc import Callable

from client.setup import SessionSettings
from engine.awaiting import ThrowDice
from relay.server import RelayServer
from tests.client.test_footer_offers import footer_keys, help_keys
from tests.network.test_ui_games import GOOSE, host_and_guest, playing, until


async def test_only_the_player_to_throw_is_offered_the_throw(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    async with host_and_guest(relay.url, "goose", GOOSE, settings) as (host, ada, guest, bob):
        awaiting = playing(host).game.awaiting
        assert isinstance(awaiting, ThrowDice) and awaiting.seat == 0  # Ada throws first
        await until(ada, lambda: "space" in footer_keys(host), "Ada offered the throw")
        await until(bob, lambda: playing(guest).held_back() is None, "Bob's board current")
        await bob.pause()
        assert "space" not in footer_keys(guest)  # Ada's turn: nothing for Bob to throw
        assert "Throw" in help_keys(guest)  # F1 still lists it
        await ada.press("space")  # Ada throws for the lots: Bob's turn
        await until(bob, lambda: "space" in footer_keys(guest), "Bob offered the throw")
        await until(ada, lambda: "space" not in footer_keys(host), "Ada's throw gone")
