"""The end screen's rematch keys at 80x24: a asks, w withdraws (the host's), a refusal is said
in a sentence while the note shows where the rematch stands, and only what the reader can do
is offered (issue 29, item 6): no withdrawing before a rematch is proposed, no playing again
for a spectator."""

from __future__ import annotations

from textual.app import App
from textual.widgets import Label

from client.game.driver import GameDriver
from client.game.turn import NotYourTurnError
from client.screens.end import EndScreen, GameSummary


class Offer:
    """A rematch as the host sees it: proposed, then withdrawn once; never twice."""

    def __init__(self, *, player: bool = True) -> None:
        self.rematch_note: str | None = "Ada proposed the rematch: 1 of 2 players joined…"
        self.can_ask_rematch = player

    @property
    def can_withdraw_rematch(self) -> bool:
        return self.rematch_note is not None and "proposed" in self.rematch_note

    def ask_rematch(self) -> None:
        self.rematch_note = "Ada proposed the rematch: 1 of 2 players joined…"

    def withdraw_rematch(self) -> None:
        if self.rematch_note is None or "withdrew" in self.rematch_note:
            raise NotYourTurnError("only the host withdraws the rematch he proposed")
        self.rematch_note = "Ada withdrew the rematch: press a to ask for one again."

    def next_game(self) -> GameDriver:
        raise AssertionError("no rematch begins here")


def offered(screen: EndScreen) -> set[str]:
    """The keys the screen offers now (those its footer shows)."""
    return {active.binding.key for active in screen.active_bindings.values() if active.enabled}


async def test_w_withdraws_the_rematch_and_is_offered_only_while_there_is_one() -> None:
    offer = Offer()
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        end = EndScreen(GameSummary("Bob resigned.", (), None), offer)
        await app.push_screen(end)
        await pilot.pause()
        note = end.query_one("#rematch", Label)
        assert "1 of 2 players joined" in str(note.render())
        assert {"a", "l", "q", "w"} <= offered(end)
        await pilot.press("w")
        assert str(note.render()) == "Ada withdrew the rematch: press a to ask for one again."
        await pilot.pause()
        assert "w" not in offered(end)  # nothing left to withdraw: not offered
        await pilot.press("w")
        assert str(note.render()) == "Ada withdrew the rematch: press a to ask for one again."
        await pilot.press("a")
        assert "1 of 2 players joined" in str(note.render())
        await pilot.pause()
        assert "w" in offered(end)
        assert isinstance(app.screen, EndScreen)  # asking keeps the screen, as ever


async def test_a_refused_withdrawal_is_said_in_a_sentence() -> None:
    offer = Offer()
    app: App[None] = App()
    told: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        end = EndScreen(GameSummary("Bob resigned.", (), None), offer)
        await app.push_screen(end)
        await pilot.pause()
        offer.rematch_note = "Ada proposed the rematch (withdrew it in another way)"
        app.notify = lambda message, **_kw: told.append(str(message))  # type: ignore[method-assign]
        end.action_withdraw()
        assert told == ["Only the host withdraws the rematch he proposed"]


async def test_a_spectator_is_offered_neither_to_play_again_nor_to_withdraw() -> None:
    offer = Offer(player=False)
    offer.rematch_note = None
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        end = EndScreen(GameSummary("Bob resigned.", (), None), offer)
        await app.push_screen(end)
        await pilot.pause()
        assert not end.query("#again")
        assert offered(end) >= {"l", "q"} and not offered(end) & {"a", "w"}
        await pilot.press("a")
        assert offer.rematch_note is None and isinstance(app.screen, EndScreen)
