"""The footer shows every key the screen offers, and is built again only when those change."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Input
from textual.widgets._footer import FooterKey

from client.widgets.footer import KeysFooter


class TwoFields(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f5", "go", "Go"),
        Binding("f6", "switch", "Allow go"),
    ]
    allowed = True

    def compose(self) -> ComposeResult:
        yield Input(id="first")
        yield Input(id="second")
        yield KeysFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "go" and not self.allowed else True

    def action_switch(self) -> None:
        self.allowed = not self.allowed
        self.refresh_bindings()


def shown(app: App[None]) -> list[tuple[str, bool]]:
    return [(key.key, not key.has_class("-disabled")) for key in app.screen.query(FooterKey)]


async def test_a_focus_move_that_changes_no_key_keeps_the_footer_as_drawn() -> None:
    app = TwoFields()
    async with app.run_test(size=(80, 5)) as pilot:
        await pilot.pause()
        drawn = list(app.screen.query(FooterKey))
        assert [key.key for key in drawn][:2] == ["f5", "f6"]
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "second"
        assert list(app.screen.query(FooterKey)) == drawn  # the same widgets, not rebuilt


async def test_a_key_that_changes_is_drawn_again() -> None:
    app = TwoFields()
    async with app.run_test(size=(80, 5)) as pilot:
        await pilot.pause()
        assert shown(app)[:2] == [("f5", True), ("f6", True)]
        await pilot.press("f6")
        await pilot.pause()
        assert shown(app)[:2] == [("f5", False), ("f6", True)]
        await pilot.press("f6")
        await pilot.pause()
        assert shown(app)[:2] == [("f5", True), ("f6", True)]


class ManyKeys(App[None]):
    """More keys than 80 columns hold (as a French networked game's: Écrire, Réclamer…),
    some of them doing nothing at the moment (drawn dimmed), F1 last."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(key, f"act('{key}')", f"Action {key}") for key in "abcdefgh"),
        Binding("f1", "help", "Help"),
    ]

    def compose(self) -> ComposeResult:
        yield KeysFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if parameters and parameters[0] in ("b", "d", "f") else True

    def action_act(self, key: str) -> None:
        pass


async def test_too_many_keys_leave_out_those_that_do_nothing_now_and_f1_stays() -> None:
    app = ManyKeys()
    async with app.run_test(size=(80, 5)) as pilot:
        footer = app.query_one(KeysFooter)
        for _ in range(200):  # the footer fits itself once drawn, a step at a time
            await pilot.pause(0.01)
            keys = {key.key: key for key in footer.query(FooterKey)}
            if "b" not in keys and "f1" in keys:
                break
        assert "ctrl+p" not in keys  # the palette hint went first
        assert set(keys) == {"a", "c", "e", "g", "h", "f1"}  # the dimmed keys went next
        assert keys["f1"].region.right <= footer.region.right  # F1 whole, in view
        await pilot.resize_terminal(200, 5)  # room again: every key, and the hint
        for _ in range(200):
            await pilot.pause(0.01)
            if "b" in {key.key for key in footer.query(FooterKey)}:
                break
        assert {"b", "d", "f", "ctrl+p"} <= {key.key for key in footer.query(FooterKey)}
