"""Goose over the network: after a chat line, escape gives the keys back to the game.

The Goose board takes no focus (unlike Jacquet's), so "back to the board" must leave the
chat input by other means; otherwise space typed spaces into the chat forever.
"""

from __future__ import annotations

from collections.abc import Callable

from client.setup import SessionSettings
from client.widgets.chat import ChatInput
from engine.awaiting import ThrowDice
from relay.server import RelayServer
from tests.network.test_ui_games import GOOSE, host_and_guest, playing, says, until


async def test_escape_leaves_the_chat_and_space_throws_again(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    async with host_and_guest(relay.url, "goose", GOOSE, settings) as (host, ada, guest, bob):
        screen = playing(host)
        awaiting = screen.game.awaiting
        assert isinstance(awaiting, ThrowDice) and awaiting.seat == 0  # Ada throws first
        await ada.press("t")
        # A loaded machine may still be focusing the line when the next keys come: type
        # into it once it has the focus, as a person who sees the cursor there does.
        await until(ada, lambda: isinstance(host.focused, ChatInput), "the chat line")
        await ada.press(*"salut", "enter")
        await until(bob, says(guest, "Ada (seat 1): salut"), "the chat")
        await ada.press("escape")
        assert not isinstance(host.focused, ChatInput)
        throws_before = screen.game.state
        await ada.press("space")  # Ada throws for the lots
        await until(ada, lambda: screen.game.state != throws_before, "Ada's throw")
        assert screen.query_one(ChatInput).value == ""
