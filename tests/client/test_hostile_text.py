"""Text from other machines is shown as written, never read as markup.

Names, chat, reasons and a log's contents come from other people's programs: a name such as
``[/]`` crashed Textual's markup parser (MarkupError), and ``[@click=app.quit]`` turned a
name into a clickable action. Every screen must show them literally. These tests open the
screens such names reach — the boards and their side panels, prompts, the end screen, the
lobby's list of recorded matches, a replay — and fail on a crash or on text that is not
shown as typed.
"""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import OptionList

from client.app import TablierApp
from client.screens.end import EndScreen
from client.screens.replay import ReplayScreen
from client.setup import GooseSetup, JacquetSetup
from protocol.selfplay import selfplay
from tests.client.conftest import FIXED_TIME_MS, screen_text, seeded_settings

SIZE = (100, 30)
# Each at most 20 characters, as a local name may be; a peer's may be longer (the network
# tests send those).
CLOSER = "[/]"
ACTION = "[@click=app.quit]x"
STYLED = "[b red]Eve"


async def until_end(app: TablierApp, pilot: Pilot[None]) -> EndScreen:
    """Until the end-of-game dialog is up and painted."""
    async with asyncio.timeout(60):
        while not (isinstance(app.screen, EndScreen) and screen_text(app).strip()):
            await pilot.pause(0.01)
    assert isinstance(app.screen, EndScreen)
    return app.screen


async def test_goose_names_with_markup_show_as_written(tmp_path: Path) -> None:
    setup = GooseSetup((CLOSER, ACTION, STYLED), frozenset({0, 1, 2}))
    app = TablierApp(setup, seeded_settings(tmp_path, seed=3))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        board = screen_text(app)
        assert CLOSER in board and ACTION in board and STYLED in board  # the ledger's names
        end = await until_end(app, pilot)
        text = screen_text(app)
        assert any(name in text for name in (CLOSER, ACTION, STYLED)), text
        assert f"{ACTION}: put in" in text  # the balances, one line per name
        assert end.is_active and app.is_running  # [@click=app.quit] did not quit anything


async def test_jacquet_names_with_markup_show_as_written(tmp_path: Path) -> None:
    setup = JacquetSetup((CLOSER, ACTION), frozenset({0, 1}))
    app = TablierApp(setup, seeded_settings(tmp_path, seed=5))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert CLOSER in screen_text(app) and ACTION in screen_text(app)
        await until_end(app, pilot)
        assert CLOSER in screen_text(app) or ACTION in screen_text(app)


async def test_a_log_with_markup_in_its_names_replays_as_written(
    tmp_path: Path,
) -> None:
    """A log file is anyone's: picked from the lobby's list, its replay shows the names."""
    matches = tmp_path / "matches"
    matches.mkdir()
    log = matches / "hostile.tablier"
    selfplay("jacquet", {}, seed="hostile", start_time=FIXED_TIME_MS, names=(CLOSER, ACTION),
             log_path=log)  # fmt: skip
    app = TablierApp(None, seeded_settings(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        listing = app.screen.query_one("#recent-logs", OptionList)
        listing.focus()
        listing.highlighted = 0
        await pilot.press("enter")
        for _ in range(400):
            if isinstance(app.screen, ReplayScreen):
                break
            await pilot.pause(0.01)
        assert isinstance(app.screen, ReplayScreen)
        await pilot.pause()
        text = screen_text(app)
        assert CLOSER in text and ACTION in text


def test_every_text_widget_of_the_client_is_built_without_markup() -> None:
    """The rule behind the tests above, for widgets they cannot reach: a Static, Label or
    OptionList made anywhere in the client is made with ``markup=False`` (the client writes
    no markup of its own; styles come from Rich ``Text`` and the stylesheets)."""
    root = Path(__file__).resolve().parents[2] / "client"
    offenders = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in {"Static", "Label", "OptionList"}
                and not any(
                    keyword.arg == "markup"
                    and isinstance(keyword.value, ast.Constant)
                    and keyword.value.value is False
                    for keyword in node.keywords
                )
            ):
                offenders.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    assert not offenders, offenders
