"""The lobby's Recorded match tab among hostile logs (issue 28): a validly signed log whose
header holds a value beyond the protocol's bounds, or whose header cannot be read, or whose
record makes this program fail, is listed as damaged, naming its header or its record, and
the list goes on; opening it, or going back into the unfinished game it belongs to, says so
in a sentence; the app never stops. A log of the extreme values within the bounds opens on
its board."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from textual.notifications import Notification
from textual.widgets import OptionList, Static

import engine.goose
from client.app import TablierApp
from client.game.local_seats import LocalSeats, encode_local_seats, local_seats_path
from client.screens.game import GameScreen
from client.screens.lobby import LobbyScreen
from client.screens.match_logs import ReplayForm, recorded_result
from client.widgets.unfinished_games import UnfinishedGames, unfinished_games
from engine.goose.options import MAX_ANTE, MAX_FEE
from protocol.bounds import MAX_TIME
from protocol.logfile import parse_log
from tests.client.conftest import seeded_settings, until
from tests.protocol.hostile_logs import DAY, Built, Recipe, build, build_with_secrets, recipes

ANTE = Recipe("goose", (("ante", 2**63),), 2, 2, 60_000, 1_764_500_000_000, ("Ann", "Bob"),
              3, 1000, (), (), (), 0)  # fmt: skip
"""An ante of 2^63, every join signed: the header's parse refuses it (the ante's bound)."""
NAMES = ("e\u0301\u0301\u0301", "山田太郎", "\u05d3\u05d5\u05d3", "\ufdfd")
EXTREME = Recipe("goose", (("ante", MAX_ANTE), ("fee", MAX_FEE)), 4, 4, 86_400_000,
                 MAX_TIME - DAY, NAMES, 12, 1000, (), (), (), 0)  # fmt: skip
"""The extremes within the bounds: the largest ante and fee, a start a day before the end of
time, names the name rule just takes (three marks stacked on a letter, a wide CJK name, a
right-to-left one, U+FDFD, 22 cells wide)."""
PLAIN = Recipe("goose", (), 2, 2, 60_000, 1_764_500_000_000, ("Cy", "Di"), 3, 1000, (), (),
               (), 0)  # fmt: skip
"""An ordinary game, left after three turns: the one taken up on an engine that fails."""
BUG = "a stand-in for an unknown bug"


def _unknown_bug(*args: object, **kwargs: object) -> object:
    raise RuntimeError(BUG)


@pytest.fixture
def engine_bug(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """While in use, the Goose's throw fails with an error nobody expected (no value within
    the bounds makes the engine fail any more: this stands in for a bug not yet found)."""
    with monkeypatch.context() as patch:
        patch.setattr(engine.goose, "throw", _unknown_bug)
        yield patch


def _seat_file(built: Built, log: Path, data_dir: Path) -> None:
    """The seat file of *log*'s unfinished game, every seat's secrets kept."""
    renewals = tuple(bytes(32) for _key in built.keys)
    seats = LocalSeats(log, frozenset(), 1, built.keys, built.chain_seeds, renewals)
    seat_file = local_seats_path(built.match_id, data_dir)
    seat_file.parent.mkdir(exist_ok=True)
    seat_file.write_bytes(encode_local_seats(seats))


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """``matches``: the ante log, a log whose header's match id was changed, a log of
    extreme values, an ordinary one; ``local``: the seat files of their unfinished games."""
    folder = tmp_path / "matches"
    folder.mkdir()
    ante = build_with_secrets(ANTE)
    (folder / "ante.tablier").write_bytes(ante.data)
    extreme = build_with_secrets(EXTREME)
    (folder / "extreme.tablier").write_bytes(extreme.data)
    changed = bytearray(extreme.data)
    header_end = parse_log(extreme.data).offsets[0]
    changed[header_end - 1] ^= 1  # the last byte of the match id
    (folder / "header.tablier").write_bytes(bytes(changed))
    plain = build_with_secrets(PLAIN)
    (folder / "plain.tablier").write_bytes(plain.data)
    _seat_file(ante, folder / "ante.tablier", tmp_path)
    _seat_file(extreme, folder / "extreme.tablier", tmp_path)
    _seat_file(plain, folder / "plain.tablier", tmp_path)
    return tmp_path


ANTE_REFUSED = "bad header: the proposal is not a valid match: the ante is at most 1,000 tokens"


def test_each_damaged_log_is_listed_naming_its_header(data_dir: Path) -> None:
    results = {path.stem: recorded_result(path) for path in (data_dir / "matches").iterdir()}
    assert results["ante"].startswith("damaged: its header — bad header: the proposal ")
    assert results["header"].startswith("damaged: its header — bad header: the match id")
    assert results["extreme"] == results["plain"] == "unfinished"
    games = sorted(unfinished_games(data_dir), key=lambda game: game.title)
    assert [game.usable for game in games] == [True, True, False]
    assert games[0].title.startswith("Jeu de l'oie: Cy, Di (")
    assert games[1].title.startswith("Jeu de l'oie: " + ", ".join(NAMES) + " (")
    assert f"cannot be resumed: the header: {ANTE_REFUSED}" in games[2].title


def test_a_record_this_program_fails_on_is_listed_naming_it(
    data_dir: Path, engine_bug: pytest.MonkeyPatch
) -> None:
    for log in ("extreme", "plain"):
        result = recorded_result(data_dir / "matches" / f"{log}.tablier")
        assert result.startswith("damaged: record "), log
        assert " — a value this program cannot handle (Run" in result, log
        assert "\n" not in result and len(result) <= 60, log


def test_the_damage_is_said_in_french(data_dir: Path) -> None:
    from client import i18n

    i18n.use("fr")
    try:
        ante = recorded_result(data_dir / "matches" / "ante.tablier")
        header = recorded_result(data_dir / "matches" / "header.tablier")
    finally:
        i18n.use("en")
    assert ante.startswith("abîmé\u00a0: son en-tête — en-tête fautif")
    assert header.startswith("abîmé\u00a0: son en-tête — ")


async def test_the_tab_lists_them_opens_none_and_goes_on(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
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
            assert by_log["ante.tablier"].startswith("damaged: its header — "), visit
            assert by_log["header.tablier"].startswith("damaged: its header — "), visit
            assert by_log["extreme.tablier"] == "unfinished", visit
            assert app.is_running
        names = [path.name for path in lobby.query_one(ReplayForm).logs]
        error = lobby.query_one("#replay-error", Static)
        for damaged, said in (("ante.tablier", f"fails verification: the header: {ANTE_REFUSED}"),
                              ("header.tablier", "fails verification: the header: ")):  # fmt: skip
            listed.focus()
            listed.highlighted = names.index(damaged)
            await pilot.press("enter")
            await until(pilot, lambda said=said: said in str(error.render()), damaged)
            assert app.screen is lobby and app.is_running

        unfinished = lobby.query_one("#unfinished-list", OptionList)
        games = lobby.query_one(UnfinishedGames).games
        titles = [game.title for game in games]
        assert unfinished.option_count == 3

        def choose(begins: str) -> None:
            unfinished.focus()
            unfinished.highlighted = next(i for i, t in enumerate(titles) if t.startswith(begins))

        ante_game = next(game.title for game in games if not game.usable)
        choose(ante_game)
        await pilot.press("enter")  # the ante's game: its header is refused, it is not taken up

        def refused() -> list[Notification]:
            return [n for n in app._notifications if n.title == "Cannot resume"]

        await until(pilot, refused, "the refusal of the ante's game")
        [notice] = refused()
        assert notice.message == ante_game and ANTE_REFUSED in notice.message
        assert app.screen is lobby and app.is_running

        choose("Jeu de l'oie: e\u0301")  # dated near the end of time: ahead of this clock
        await pilot.press("enter")
        ahead = "Its log fails verification, so the game cannot be taken up again: seat 0: "
        await until(pilot, lambda: str(error.render()).startswith(ahead), "the clock's refusal")
        assert "more than a day ahead of this computer's clock" in str(error.render())
        await app.workers.wait_for_complete()
        assert app.screen is lobby and app.is_running

        with monkeypatch.context() as patch:  # the ordinary game, on an engine that fails
            patch.setattr(engine.goose, "throw", _unknown_bug)
            choose("Jeu de l'oie: Cy, Di")
            await pilot.press("enter")
            refusal = "Its log fails verification, so the game cannot be taken up again: record "
            await until(pilot, lambda: str(error.render()).startswith(refusal), "the refusal")
            await app.workers.wait_for_complete()
        assert f"a value this program cannot handle (RuntimeError: {BUG})" in str(error.render())
        assert app.screen is lobby and app.is_running

        listed.focus()
        listed.highlighted = names.index("extreme.tablier")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the replay")
        await pilot.press("end")  # every frame of it, drawn
        await pilot.pause()
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")
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
