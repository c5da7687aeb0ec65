"""Words that must be whole and mean one thing: the Goose ledger's plights at 80x24, the
replay's speed, and what a turn is for ``verify`` (a throw or a missed turn) and for
``replay`` (which steps by throw)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from textual.widgets import Static

from client.app import ReplayApp, TablierApp
from client.game.replay import load_replay
from client.setup import GooseSetup
from client.widgets.ledger import GooseLedger
from protocol.selfplay import selfplay
from protocol.verify import verify_log
from tests.client.conftest import FIXED_TIME_MS, screen_text, seeded_settings

NAMES = ("Alice", "Bruno", "Chloé")


async def ledger_rows(tmp_path: Path, names: tuple[str, ...]) -> list[str]:
    """The Goose ledger's rows as drawn at 80x24, each seat held by a hazard."""
    app = TablierApp(GooseSetup(names), seeded_settings(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        ledger = app.screen.query_one(GooseLedger)
        assert ledger.state is not None
        held = dataclasses.replace(
            ledger.state, squares=(52, 31, 19), status=("prison", "well", "inn")
        )
        ledger.show(held)
        await pilot.pause()
        area = ledger.content_region
        lines = screen_text(app).splitlines()[area.y : area.bottom]
        return [line[area.x : area.right].rstrip() for line in lines][1:]


async def test_the_goose_ledger_never_cuts_a_plight_mid_word_at_80x24(tmp_path: Path) -> None:
    rows = await ledger_rows(tmp_path, NAMES)
    for row, plight in zip(rows, ("prison", "well", "inn"), strict=True):
        assert row.endswith((f" {plight}", f" {plight}: held", f" {plight}: skips")), rows
    # A long name leaves room for the hazard's symbol only (the board's and the legend's).
    rows = await ledger_rows(tmp_path, ("Alexandrine", "Bruno", "Chloé"))
    assert rows[0].startswith("▶A Alexandrine ") and rows[0].endswith(" #"), rows
    assert "…" not in "".join(rows)


def _goose_log(tmp_path: Path) -> Path:
    path = tmp_path / "goose.tablier"
    selfplay(
        "goose", {}, seed=3, start_time=FIXED_TIME_MS, players=3, log_path=path, step_ms=1_000
    )
    return path


def test_verify_counts_a_turn_as_a_throw_or_a_missed_turn(tmp_path: Path) -> None:
    report = verify_log(_goose_log(tmp_path))
    missed = report.turns - report.throws
    assert missed > 0  # seed 3: someone sat in the inn, the well or the prison
    line = next(line for line in report.summary().splitlines() if line.startswith("turns:"))
    assert f"({report.throws} thrown, {missed} missed;" in line


async def test_replay_steps_by_throw_says_so_and_says_one_step_a_second(
    tmp_path: Path,
) -> None:
    path = _goose_log(tmp_path)
    replay = load_replay(path)
    assert replay.throws == verify_log(path).throws  # the same count both commands show
    app = ReplayApp(replay)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space")
        bar = str(app.screen.query_one("#replay-bar", Static).render())
        assert f"/{replay.throws} · playing at 1 step/s" in bar
        await pilot.press("space", "9", "9", "9", "enter")
        await pilot.pause()
        said = [notice.message for notice in app._notifications]
        assert f"there is no throw 999: this log has throws 0 to {replay.throws}" in said
