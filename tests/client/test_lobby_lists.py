"""The lobby's lists stay current while it is shown (issue 29): a match killed, left or
finished in another terminal, or a new log, shows without leaving the lobby — read again
every :data:`~client.screens.lobby.LIST_REFRESH_SECONDS`, and only the files that changed."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from client.app import TablierApp
from client.folder_listing import Listed, SeatFiles
from client.net.seatfile import Seat, save_seat, seat_path
from client.screens.goose import GooseScreen
from client.screens.lobby import LIST_REFRESH_SECONDS, LobbyScreen
from client.screens.match_logs import recorded_result
from client.setup import GooseSetup
from protocol.selfplay import selfplay
from tests.client.conftest import seeded_settings, until
from tests.client.terminal import ROOT

THREE = GooseSetup(("Alice", "Bruno", "Chloé"))
LOCAL = "Jeu de l'oie: Alice, Bruno, Chloé"
NETWORK = "Jacquet with Ada, as Bob"
ELSEWHERE = "being played in another terminal"

# Another terminal playing the matches of these logs: it holds each as its writer does.
WRITER = """
import sys
from pathlib import Path
from protocol.logfile import LogWriter, read_log
writers = []
for name in sys.argv[1:]:
    contents = read_log(Path(name))
    writers.append(LogWriter(Path(name), contents.setup, resume_at=contents.end))
print("writing", flush=True)
sys.stdin.read()
"""


@pytest.fixture
def left_matches(tmp_path: Path) -> Iterator[Path]:
    """A Jacquet match left mid-way over the network: its seat file and its log."""
    log = tmp_path / "matches" / "ada-bob.tablier"
    log.parent.mkdir()
    played = selfplay("jacquet", {}, seed="lobby", start_time=0, names=["Ada", "Bob"])
    log.write_bytes(played.log_bytes())
    seat = Seat("ws://127.0.0.1:9/", "R" * 22, "P" * 43, "S" * 43, "K" * 43, "Bob", "player",
                log, b"i" * 32, b"c" * 32)  # fmt: skip
    save_seat(seat_path(seat.room_id, bytes(32), tmp_path), seat)
    yield log


async def _a_local_game_left(pilot: Pilot[None]) -> Path:
    """Two throws of a Goose game, then back to the lobby: its log, left unfinished."""
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, GooseScreen), "the game")
    game = app.screen.game  # type: ignore[attr-defined]
    await pilot.press("space", "space")
    await until(pilot, lambda: not game.pending_turns, "the throws")
    await pilot.press("escape")
    await pilot.pause()
    if not isinstance(app.screen, LobbyScreen):
        await pilot.press("y")  # "Leave this game for the lobby?"
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    log: Path = game.log_path
    return log


def _titles(options: OptionList) -> list[str]:
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_a_match_killed_in_another_terminal_is_shown_resumable_without_a_key(
    tmp_path: Path, left_matches: Path
) -> None:
    """Another terminal plays both matches (a real process holding their logs), then is
    killed: the lobby, shown all along, says so and then offers them again, untouched."""
    assert LIST_REFRESH_SECONDS <= 5  # "a few seconds": what the player waits at most
    app = TablierApp(THREE, seeded_settings(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        local_log = await _a_local_game_left(pilot)
        lobby = app.screen
        await pilot.press("f4")
        await until(pilot, lambda: bool(lobby.query("#unfinished-list")), "the Recorded tab")
        unfinished = lobby.query_one("#unfinished-list", OptionList)
        network = lobby.query_one("#saved-seats-list", OptionList)
        await until(pilot, lambda: [t[:len(LOCAL) + 2] for t in _titles(unfinished)]
                    == [f"{LOCAL} ("], "the local game, resumable")  # fmt: skip
        await until(pilot, lambda: _titles(network)[:1] != [] and
                    _titles(network)[0].startswith(f"{NETWORK} ("), "the match, resumable")

        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(local_log), str(left_matches)],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert writer.stdout is not None and writer.stdout.readline() == "writing\n"
            await until(pilot, lambda: _titles(unfinished) == [f"{LOCAL} — {ELSEWHERE}"],
                        "the local game, busy elsewhere")  # fmt: skip
            await until(pilot, lambda: _titles(network) == [f"{NETWORK}: {ELSEWHERE}"],
                        "the network match, busy elsewhere")  # fmt: skip
        finally:
            writer.kill()  # as a terminal closed mid-game: no word from it
            writer.wait()
        await until(pilot, lambda: _titles(unfinished)[0].startswith(f"{LOCAL} ("),
                    "the local game, resumable again")  # fmt: skip
        await until(pilot, lambda: _titles(network)[0].startswith(f"{NETWORK} ("),
                    "the match, resumable again")  # fmt: skip
        assert app.screen is lobby  # no key was pressed, no screen left


async def test_a_new_log_shows_among_the_latest_with_its_result(
    tmp_path: Path, left_matches: Path
) -> None:
    """A match finished in another terminal writes its log: the Latest matches list shows
    it, with its result, while the lobby stays shown."""
    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        await pilot.press("f4")
        await until(pilot, lambda: bool(lobby.query("#recent-logs")), "the Recorded tab")
        latest = lobby.query_one("#recent-logs", OptionList)
        await until(pilot, lambda: len(_titles(latest)) == 1 and "  ·  " in _titles(latest)[0],
                    "the one log, with its result")  # fmt: skip
        new = left_matches.with_name("2099-ann-ben.tablier")  # the newest
        played = selfplay("goose", {}, seed="new", start_time=0, names=("Ann", "Ben"))
        new.write_bytes(played.log_bytes())
        await until(pilot, lambda: len(_titles(latest)) == 2, "the new log")
        result = recorded_result(new)
        await until(pilot, lambda: _titles(latest)[0] == f"{new.name}  ·  {result}",
                    "its result")  # fmt: skip


async def test_a_rescan_reads_no_file_that_did_not_change_and_keeps_the_highlight(
    tmp_path: Path, left_matches: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bounded work: while nothing changes, each re-scan lists the folders and looks at the
    files, reading no log nor seat file again and drawing nothing again."""
    import client.screens.match_logs as match_logs
    import protocol.logfile

    other = left_matches.with_name("2099-ann-ben.tablier")
    played = selfplay("goose", {}, seed="new", start_time=0, names=("Ann", "Ben"))
    other.write_bytes(played.log_bytes())
    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        await pilot.press("f4")
        await until(pilot, lambda: bool(lobby.query("#recent-logs")), "the Recorded tab")
        latest = lobby.query_one("#recent-logs", OptionList)
        network = lobby.query_one("#saved-seats-list", OptionList)
        await until(pilot, lambda: len(_titles(latest)) == 2
                    and all("  ·  " in title for title in _titles(latest)), "the results")
        await until(pilot, lambda: network.option_count == 1, "the match left")
        await app.workers.wait_for_complete()
        latest.highlighted = 1
        shown = _titles(latest)

        reads: list[Path] = []
        read_log, recorded_result = protocol.logfile.read_log, match_logs.recorded_result
        scans: list[object] = []
        scan = SeatFiles.scan

        def counted_read_log(path: Path, *args: Any, **kwargs: Any) -> Any:
            reads.append(path)
            return read_log(path, *args, **kwargs)

        def counted_result(path: Path) -> str:
            reads.append(path)
            return recorded_result(path)

        def counted_scan(self: SeatFiles[Any], listed: list[Listed]) -> list[Any]:
            scans.append(self)
            return scan(self, listed)

        monkeypatch.setattr(protocol.logfile, "read_log", counted_read_log)
        monkeypatch.setattr(match_logs, "recorded_result", counted_result)
        monkeypatch.setattr(SeatFiles, "scan", counted_scan)
        # Two re-scans of both lists (each lists the unfinished games and the seats).
        await until(pilot, lambda: len(scans) >= 4, "two re-scans")
        await app.workers.wait_for_complete()
        assert reads == []
        assert latest.highlighted == 1 and _titles(latest) == shown

        other.touch()  # changed (its time): read again, it alone
        await until(pilot, lambda: reads != [], "the changed log read again")
        await app.workers.wait_for_complete()
        assert set(reads) == {other}
        assert latest.highlighted == 1 and _titles(latest) == shown  # the same file, result


@pytest.mark.parametrize("kind", ["link", "fifo"])
async def test_a_seat_whose_log_is_no_regular_file_is_listed_as_such(
    tmp_path: Path, left_matches: Path, kind: str
) -> None:
    """A seat file whose log was replaced by a link (a dotfile manager, a synced folder) or
    a FIFO: the lobby lists it as not resumable, saying why, and goes on (attack
    stop36b/05: the list's worker raised, and the app ended at every start)."""
    real = left_matches.with_name("elsewhere.tablier")
    left_matches.rename(real)
    if kind == "link":
        left_matches.symlink_to(real)
    else:
        os.mkfifo(left_matches)
    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        lobby = app.screen
        await until(pilot, lambda: bool(lobby.query("#saved-seats-list")), "the seats list")
        network = lobby.query_one("#saved-seats-list", OptionList)
        await until(pilot, lambda: bool(_titles(network)), "the seat listed")
        assert "cannot be resumed" in _titles(network)[0]
        assert "not a regular file" in _titles(network)[0]
        assert app.is_running and app.screen is lobby  # (the scan looks at the log first)
