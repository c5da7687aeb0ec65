"""The Recorded match tab lists each log with its result; a damaged or hostile log says it
cannot be read, in the app's words, and nothing in a log becomes markup."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import OptionList

from client.app import TablierApp
from client.screens.match_logs import recorded_result
from protocol.logfile import parse_log
from protocol.selfplay import selfplay
from tests.client.conftest import FIXED_TIME_MS, UNTIL_SECONDS, seeded_settings, until

HOSTILE = ("[@click=app.quit]", "[b]Zed")


def _log(game: str, names: tuple[str, ...], max_turns: int = 100_000) -> bytes:
    return selfplay(game, {}, seed="results", start_time=FIXED_TIME_MS, names=names,
                    max_turns=max_turns).log_bytes()  # fmt: skip


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder whose ``matches`` hold: a finished Jacquet, an unfinished Goose game, a
    truncated copy of a finished one, one with a byte of a record flipped, one that is no
    log, and a match between players with hostile names."""
    data_dir = tmp_path_factory.mktemp("data")
    folder = data_dir / "matches"
    folder.mkdir()
    goose = _log("goose", ("Cy", "Di"))
    third = parse_log(goose).offsets[3] + 10  # inside the fourth record
    logs = {
        "finished": _log("jacquet", ("Ada", "Bob")),
        "unfinished": _log("goose", ("Cy", "Di"), max_turns=3),
        "truncated": goose[:-3],
        "forged": goose[:third] + bytes([goose[third] ^ 1]) + goose[third + 1 :],
        "garbage": b"[@click=app.quit] not a log",
        "hostile": _log("jacquet", HOSTILE),
    }
    for name, data in logs.items():
        (folder / f"{name}.tablier").write_bytes(data)
    return data_dir


def test_each_log_tells_its_result_or_why_it_cannot(data_dir: Path) -> None:
    results = {path.stem: recorded_result(path) for path in (data_dir / "matches").iterdir()}
    assert results["finished"] in ("Ada wins the match 1-0", "Bob wins the match 1-0")
    assert results["unfinished"] == "unfinished"
    assert results["truncated"].startswith("unreadable: damaged after record ")
    assert results["forged"] == "unreadable: fails verification (record 3)"
    assert results["garbage"] == "unreadable: not a Tablier match log"
    assert results["hostile"] in {f"{name} wins the match 1-0" for name in HOSTILE}
    gone = data_dir / "matches" / "gone.tablier"
    assert recorded_result(gone) == "unreadable: not a Tablier match log"


def test_each_log_tells_its_result_in_french(data_dir: Path) -> None:
    from client import i18n

    i18n.use("fr")
    try:
        finished = recorded_result(data_dir / "matches" / "finished.tablier")
        unfinished = recorded_result(data_dir / "matches" / "unfinished.tablier")
    finally:
        i18n.use("en")
    assert finished in ("Ada gagne le match 1-0", "Bob gagne le match 1-0")
    assert unfinished == "inachevé"


async def test_the_recorded_match_tab_lists_each_result_as_plain_text(data_dir: Path) -> None:
    app = TablierApp(settings=seeded_settings(data_dir))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        listed = app.screen.query_one("#recent-logs", OptionList)
        prompts = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        by_log = dict(prompt.split("  ·  ") for prompt in prompts)
        assert by_log["garbage.tablier"] == "unreadable: not a Tablier match log"
        assert by_log["unfinished.tablier"] == "unfinished"
        assert by_log["hostile.tablier"].startswith(HOSTILE)  # shown as written, not run
        assert app.is_running


def hold_passes_until_cancelled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each pass over a log is held at its first record until its worker is cancelled,
    however fast the machine: on a quiet one the passes had ended before the keys that
    should find them running were pressed."""
    import threading

    from textual.worker import get_current_worker

    from client.game.budget import Cancelled
    from client.screens import match_logs

    never = threading.Event()

    def held_until_cancelled() -> None:
        while not never.wait(0.01):
            if get_current_worker().is_cancelled:
                raise Cancelled

    monkeypatch.setattr(match_logs, "stop_if_cancelled", held_until_cancelled)


async def test_quitting_stops_the_logs_being_verified_and_a_return_reads_them_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Verifying runs in a thread worker, which Textual cannot interrupt: quitting waited for
    it to read every log to its end (51 s for a 17 MB one), and each return to the lobby (F1,
    then esc) started another pass beside it. Now the worker stops between two records once
    cancelled, and the logs being read are not read again meanwhile."""
    from textual.worker import WorkerState

    from client.screens.match_logs import ReplayForm

    hold_passes_until_cancelled(monkeypatch)
    folder = tmp_path / "matches"
    folder.mkdir()
    log = selfplay("jacquet", {"match_to": 7}, seed="long", start_time=FIXED_TIME_MS).log_bytes()
    copies = 12  # as many as the tab lists: each takes a moment to verify
    for number in range(copies):
        (folder / f"long-{number:02d}.tablier").write_bytes(log)
    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4")
        form = app.screen.query_one(ReplayForm)
        await until(pilot, lambda: form.reading is not None, "the logs being read")
        reading = [w for w in app.workers if w.group == "recorded-results"]
        assert len(reading) == 1 and reading[0].state == WorkerState.RUNNING
        await pilot.press("f1")
        await until(pilot, lambda: app.screen is not form.screen, "the help")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is form.screen, "the lobby again")
        assert [w for w in app.workers if w.group == "recorded-results"] == reading
        done = len(form.results)
        app.exit()
    assert reading[0].state == WorkerState.CANCELLED
    async with asyncio.timeout(UNTIL_SECONDS):  # its thread ends at its next record
        while form.reading is not None:
            await asyncio.sleep(0.01)
    # The log it was verifying when the quit came was left there, not read to its end.
    assert done < copies and len(form.results) == done


async def test_a_log_being_opened_is_not_verified_twice_and_a_quit_stops_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Enter pressed again on a log being verified started a second pass beside the first,
    and quitting waited for both to end."""
    from textual.worker import WorkerState

    from client.screens.match_logs import ReplayForm

    hold_passes_until_cancelled(monkeypatch)

    folder = tmp_path / "matches"
    folder.mkdir()
    log = folder / "long.tablier"
    log.write_bytes(selfplay("jacquet", {"match_to": 7}, seed="long",
                             start_time=FIXED_TIME_MS).log_bytes())  # fmt: skip
    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4")
        form = app.screen.query_one(ReplayForm)
        form.open_log(log)
        await pilot.pause()
        opening = [w for w in app.workers if w.group == "replay"]
        assert len(opening) == 1 and form.opening == log
        form.open_log(log)  # enter again: the pass running goes on, alone
        await pilot.pause()
        assert [w for w in app.workers if w.group == "replay"] == opening
        assert opening[0].state == WorkerState.RUNNING
        app.exit()
    assert opening[0].state == WorkerState.CANCELLED
    async with asyncio.timeout(UNTIL_SECONDS):  # its thread ends at its next record
        while form.opening is not None:
            await asyncio.sleep(0.01)
