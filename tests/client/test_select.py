"""LightSelect is Textual's Select for the user: drawn the same, cell by cell, and used the
same, by keys and by the mouse — with its list of choices made only when it first opens."""

from __future__ import annotations

from typing import Any

import pytest
from rich.style import Style
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.pilot import Pilot
from textual.widgets import Input, Label, Select
from textual.widgets._select import SelectOverlay

from client.widgets.select import LightSelect

Cells = list[list[tuple[str, Style]]]


class Selects(App[None]):
    """Selects as the lobby has them (compact, 16 wide), blank, disabled, and bordered."""

    CSS = """
    Select { width: 16; }
    Horizontal { height: auto; margin: 1 0 0 0; }
    """

    def __init__(self, kind: type[Select[Any]], *, ansi_color: bool = False) -> None:
        super().__init__(ansi_color=ansi_color)
        self.kind = kind
        self.changes: list[tuple[str | None, object]] = []

    def compose(self) -> ComposeResult:
        kind = self.kind
        with Horizontal():
            yield Label("Players ")
            yield kind([(str(n), n) for n in range(2, 16)], value=3, allow_blank=False,
                       compact=True, id="players")  # fmt: skip
            yield Label(" Rules ")
            yield kind([("daumont", "daumont"), ("classique", "classique")], value="daumont",
                       allow_blank=False, compact=True, id="rules")  # fmt: skip
        with Horizontal():
            yield kind([("x", 1), ("y", 2)], compact=True, prompt="Pick", id="blank")
            yield kind([("x", 1), ("y", 2)], value=1, allow_blank=False, compact=True,
                       disabled=True, id="disabled")  # fmt: skip
            yield kind([("x", 1), ("y", 2)], value=1, allow_blank=False, id="bordered")
        elsewhere = Input("elsewhere", id="elsewhere")
        elsewhere.cursor_blink = False  # (a blinking cursor would draw each screen by the clock)
        yield elsewhere

    def on_select_changed(self, event: Select.Changed) -> None:
        self.changes.append((event.select.id, event.value))


def _cells(app: App[Any]) -> Cells:
    """What the screen shows: every cell's character and style."""
    return [
        [(character, segment.style or Style()) for segment in strip for character in segment.text]
        for strip in app.screen._compositor.render_strips()
    ]


async def _use(pilot: Pilot[None]) -> list[Cells]:
    """Keys, clicks and settings on every select, with the screen after each."""
    app = pilot.app
    screens: list[Cells] = []

    async def shown() -> None:
        await pilot.pause()
        screens.append(_cells(app))

    await shown()
    app.query_one("#players").focus()
    await shown()
    await pilot.press("enter")  # opens the list
    await shown()
    await pilot.press("down", "down", "enter")  # 3 -> 5
    await shown()
    await pilot.press("space", "1", "4", "enter")  # typed to search: 14
    await shown()
    app.query_one("#blank").focus()
    await shown()
    await pilot.press("down")
    await shown()
    await pilot.press("escape")
    await shown()
    await pilot.click("#rules SelectCurrent")  # opens it
    await shown()
    await pilot.click("#rules SelectCurrent")  # shuts it
    await shown()
    await pilot.click("#rules SelectCurrent")
    await pilot.press("down", "enter")  # classique
    await shown()
    app.query_one("#elsewhere").focus()
    app.query_one("#players", Select).value = 9
    await shown()
    await pilot.hover("#bordered")
    await shown()
    await pilot.click("#disabled SelectCurrent")  # nothing: it is disabled
    await shown()
    app.query_one("#disabled").disabled = False
    app.query_one("#players").disabled = True
    await shown()
    await pilot.click("#disabled SelectCurrent")
    await pilot.press("down", "enter")
    await shown()
    return screens


@pytest.mark.parametrize("ansi_color", [False, True])
async def test_the_light_select_is_drawn_and_used_as_textuals(ansi_color: bool) -> None:
    seen: dict[type[Select[Any]], tuple[list[Cells], list[tuple[str | None, object]]]] = {}
    for kind in (Select, LightSelect):
        app = Selects(kind, ansi_color=ansi_color)
        async with app.run_test(size=(80, 16)) as pilot:
            screens = await _use(pilot)
            values = [(select.id, select.value) for select in app.query(Select)]
            seen[kind] = screens, app.changes + values
    textual_screens, textual_changes = seen[Select]
    light_screens, light_changes = seen[LightSelect]
    assert len({repr(screen) for screen in textual_screens}) > 10  # (the steps show things)
    for step, (textual, light) in enumerate(zip(textual_screens, light_screens, strict=True)):
        assert light == textual, f"step {step}"
    assert light_changes == textual_changes
    assert {("players", 14), ("rules", "classique"), ("disabled", 2)} <= set(light_changes)


async def test_the_list_of_choices_is_made_when_it_first_opens() -> None:
    app = Selects(LightSelect)
    async with app.run_test(size=(80, 16)) as pilot:
        await pilot.pause()
        assert not app.query(SelectOverlay)
        app.query_one("#players").focus()
        await pilot.press("enter")
        assert len(app.query("#players SelectOverlay")) == 1
        await pilot.press("escape", "enter")  # opened again: the same list
        assert len(app.query("#players SelectOverlay")) == 1
        await pilot.press("escape")
        await pilot.click("#rules SelectCurrent")
        assert len(app.query(SelectOverlay)) == 2
