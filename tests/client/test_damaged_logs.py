"""The lobby's Recorded match tab among hostile logs (issue 28): a validly signed log built
on values this program cannot handle, or one whose header cannot be read, is listed as
damaged, naming its record, and the list goes on; opening it, or going back into the
unfinished game it belongs to, says so in a sentence; the app never stops. A log with
extreme values the engine can hold opens on its board."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from client.app import TablierApp
from client.game.local_seats import LocalSeats, encode_local_seats, local_seats_path
from client.screens.game import GameScreen
from client.screens.lobby import LobbyScreen
from client.screens.match_logs import ReplayForm, recorded_result
from client.widgets.unfinished_games import unfinished_games
from protocol.logfile import parse_log
from tests.client.conftest import seeded_settings
from tests.protocol.hostile_logs import Recipe, build, build_with_secrets, recipes

ANTE = Recipe("goose", (("ante", 2**63),), 2, 2, 60_000, 1_764_500_000_000, ("Ann", "Bob"),
              3, 1000, (), (), (), 0)  # fmt: skip
"""An ante of 2^63: the thrower's first share is signed, and no engine can apply it."""
EXTREME = Recipe("goose", (("ante", 2**31), ("fee", 2**31)), 3, 3, 86_400_000,
                 2**63 - 10**9, ("ㅤ", "e\u0301\u0301\u0301", "\ufdfd" * 4), 12, 1000,
                 (), (), (), 0)  # fmt: skip
"""Values the engine holds: a pot in the billions, a start near the end of time, odd names."""


async def _until(pilot: Pilot[None], done: object, what: str) -> None:
    for _ in range(300):
        if callable(done) and done():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"{what} never happened")


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """``matches``: the ante log, a log whose header's match id was changed, a log of
    extreme values; ``local``: the seat file of the ante log's unfinished game."""
    folder = tmp_path / "matches"
    folder.mkdir()
    ante = build_with_secrets(ANTE)
    (folder / "ante.tablier").write_bytes(ante.data)
    good = bytearray(build(EXTREME))
    (folder / "extreme.tablier").write_bytes(bytes(good))
    header_end = parse_log(bytes(good)).offsets[0]
    good[header_end - 1] ^= 1  # the last byte of the match id
    (folder / "header.tablier").write_bytes(bytes(good))
    setup = parse_log(ante.data).setup
    seats = LocalSeats(folder / "ante.tablier", frozenset(), 1, ante.keys, ante.chain_seeds,
                       (bytes(32), bytes(32)))  # fmt: skip
    seat_file = local_seats_path(setup.match_id, tmp_path)
    seat_file.parent.mkdir()
    seat_file.write_bytes(encode_local_seats(seats))
    return tmp_path


def test_each_damaged_log_is_listed_naming_its_record(data_dir: Path) -> None:
    results = {path.stem: recorded_result(path) for path in (data_dir / "matches").iterdir()}
    assert results["ante"].startswith("damaged: record 0 — a value this program cannot ")
    assert results["header"].startswith("damaged: its header — bad header: the match id")
    assert results["extreme"] == "unfinished"
    [game] = unfinished_games(data_dir)
    assert game.usable and game.title.startswith("Jeu de l'oie: Ann, Bob (")


def test_the_damage_is_said_in_french(data_dir: Path) -> None:
    from client import i18n

    i18n.use("fr")
    try:
        ante = recorded_result(data_dir / "matches" / "ante.tablier")
        header = recorded_result(data_dir / "matches" / "header.tablier")
    finally:
        i18n.use("en")
    assert ante.startswith("abîmé\u00a0: enregistrement 0 — une valeur que ce programme ne ")
    assert header.startswith("abîmé\u00a0: son en-tête — ")


async def test_the_tab_lists_them_opens_none_and_goes_on(data_dir: Path) -> None:
    app = TablierApp(settings=seeded_settings(data_dir))
    async with app.run_test(size=(100, 30)) as pilot:
        for visit in range(2):  # every visit reads them again
            await pilot.press("f4")
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            lobby = app.screen
            listed = lobby.query_one("#recent-logs", OptionList)
            prompts = [str(listed.get_option_at_index(i).prompt)
                       for i in range(listed.option_count)]  # fmt: skip
            by_log = dict(prompt.split("  ·  ") for prompt in prompts)
            assert by_log["ante.tablier"].startswith("damaged: record 0 — "), visit
            assert by_log["header.tablier"].startswith("damaged: its header — "), visit
            assert app.is_running
        names = [path.name for path in lobby.query_one(ReplayForm).logs]
        error = lobby.query_one("#replay-error", Static)
        for damaged, said in (("ante.tablier", "fails verification: record 0 "),
                              ("header.tablier", "fails verification: the header: ")):  # fmt: skip
            listed.focus()
            listed.highlighted = names.index(damaged)
            await pilot.press("enter")
            await _until(pilot, lambda said=said: said in str(error.render()), damaged)
            assert app.screen is lobby and app.is_running

        unfinished = lobby.query_one("#unfinished-list", OptionList)
        assert unfinished.option_count == 1
        unfinished.focus()
        await pilot.press("enter")
        refusal = "Its log fails verification, so the game cannot be taken up again: record 0"
        await _until(pilot, lambda: str(error.render()).startswith(refusal), "the refusal")
        assert "a value this program cannot handle" in str(error.render())
        assert app.screen is lobby and app.is_running

        listed.focus()
        listed.highlighted = names.index("extreme.tablier")
        await pilot.press("enter")
        await _until(pilot, lambda: isinstance(app.screen, GameScreen), "the replay")
        await pilot.press("end")  # every frame of it, drawn
        await pilot.pause()
        await pilot.press("escape")
        await _until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")
        assert app.is_running


@settings(
    max_examples=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(recipe=recipes(max_turns=6))
def test_listing_a_folder_of_hostile_logs_never_raises(
    recipe: Recipe, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("data")
    (folder / "matches").mkdir()
    path = folder / "matches" / "hostile.tablier"
    path.write_bytes(build(recipe))
    result = recorded_result(path)
    assert result and "\n" not in result and len(result) <= 60
