"""The end screen's rematch keys at 80x24: a asks, w withdraws (the host's), and a refusal
is said in a sentence while the note shows where the rematch stands."""

from __future__ import annotations

from textual.app import App
from textual.widgets import Label

from client.game.driver import GameDriver
from client.game.turn import NotYourTurnError
from client.screens.end import EndScreen, GameSummary


class Offer:
    """A rematch as the host sees it: proposed, then withdrawn once; never twice."""

    def __init__(self) -> None:
        self.rematch_note: str | None = "Ada proposed the rematch: 1 of 2 players joined…"

    def ask_rematch(self) -> None:
        self.rematch_note = "Ada proposed the rematch: 1 of 2 players joined…"

    def withdraw_rematch(self) -> None:
        if self.rematch_note is None or "withdrew" in self.rematch_note:
            raise NotYourTurnError("only the host withdraws the rematch he proposed")
        self.rematch_note = "Ada withdrew the rematch: press a to ask for one again."

    def next_game(self) -> GameDriver:
        raise AssertionError("no rematch begins here")


async def test_w_withdraws_the_rematch_and_a_second_w_is_refused_in_words() -> None:
    offer = Offer()
    app: App[None] = App()
    told: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        end = EndScreen(GameSummary("Bob resigned.", (), None), offer)
        await app.push_screen(end)
        await pilot.pause()
        note = end.query_one("#rematch", Label)
        assert "1 of 2 players joined" in str(note.render())
        await pilot.press("w")
        assert str(note.render()) == "Ada withdrew the rematch: press a to ask for one again."
        app.notify = lambda message, **_kw: told.append(str(message))  # type: ignore[method-assign]
        await pilot.press("w")
        assert told == ["Only the host withdraws the rematch he proposed"]
        await pilot.press("a")
        assert "1 of 2 players joined" in str(note.render())
        assert isinstance(app.screen, EndScreen)  # asking keeps the screen, as ever
