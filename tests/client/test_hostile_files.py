"""Files anyone may have put where Tablier looks — the saved language, a seat file, a log
named on the command line — read as the one helper reads them (protocol.logfile.read_regular):
a regular file only, never waiting, bounded; anything else is said in a sentence or ignored,
never a hang or a traceback. Real ``tablier`` processes."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.client.terminal import ROOT, TABLIER, environment


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = environment(home, XDG_CONFIG_HOME=str(home / ".config"))
    for name in ("TABLIER_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        env.pop(name, None)
    return subprocess.run([*TABLIER, *args], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=60)  # fmt: skip


def language_file(home: Path) -> Path:
    folder = home / ".config" / "tablier"
    folder.mkdir(parents=True)
    return folder / "language"


def test_a_fifo_or_a_device_as_the_language_file_is_ignored(tmp_path: Path) -> None:
    fifo = language_file(tmp_path / "fifo")
    os.mkfifo(fifo)  # nobody writes to it: reading it would wait for ever
    zero = language_file(tmp_path / "zero")
    zero.symlink_to("/dev/zero")
    for home in (tmp_path / "fifo", tmp_path / "zero"):
        done = run(home, "verify", str(tmp_path / "none.tablier"))
        assert done.returncode == 2
        assert done.stderr.startswith("tablier verify: cannot read"), done.stderr
        assert "Traceback" not in done.stderr


def test_a_saved_language_is_still_spoken(tmp_path: Path) -> None:
    language_file(tmp_path).write_text("fr\n")
    done = run(tmp_path, "verify", str(tmp_path / "none.tablier"))
    assert done.returncode == 2 and "impossible de lire" in done.stderr, done.stderr


def test_a_regular_file_that_would_block_fails_at_once(tmp_path: Path) -> None:
    """/proc/kmsg says it is a regular file and blocks on read until the kernel logs: the
    read stays non-blocking, so verify says it cannot read it (or may not open it)."""
    done = run(tmp_path, "verify", "/proc/kmsg")
    assert done.returncode == 2
    assert done.stderr.startswith("tablier verify: cannot read /proc/kmsg"), done.stderr


def test_a_sparse_file_over_the_bound_is_refused_by_its_size(tmp_path: Path) -> None:
    """10 GB of holes: refused by its size before a byte is read."""
    sparse = tmp_path / "huge.tablier"
    with open(sparse, "wb") as handle:
        handle.truncate(10 * 2**30)
    done = run(tmp_path, "verify", str(sparse))
    assert done.returncode == 2 and "too large to be a match log" in done.stderr, done.stderr


def test_a_seat_file_gone_since_it_was_listed_is_skipped(tmp_path: Path) -> None:
    """Another terminal's match ends between the lobby's listing and its read (it removes
    its seat file): the seat is no longer listed, and the scan goes on."""
    from client.folder_listing import files_in
    from client.widgets.saved_seats import _describe

    folder = tmp_path / "seats"
    folder.mkdir()
    (folder / ("R" * 22)).write_bytes(b"x")
    [entry] = files_in(folder)
    entry.path.unlink()
    assert _describe(entry) == (None, None)  # not listed, and no log read


def test_a_seat_file_swapped_for_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    import pytest

    from client.net.seatfile import SeatFileError, load_seat

    fifo = tmp_path / ("R" * 22)
    os.mkfifo(fifo)  # nobody writes to it: a plain open() waits for ever
    with pytest.raises(SeatFileError, match="is not a regular file: not a seat file"):
        load_seat(fifo)


GOOD = '{"position": {"turn":"white","white":{"1":15},"black":{"1":15}}, "dice":"6-5"}'


def test_a_batch_line_json_cannot_hold_is_answered_and_the_batch_goes_on(
    tmp_path: Path,
) -> None:
    """json.loads raises RecursionError (arrays nested 100,000 deep) and ValueError (an
    integer of 5,000 digits), not only JSONDecodeError: each line gets its error answer."""
    env = environment(tmp_path)
    for bad in ("[" * 100_000 + "]" * 100_000, "1" * 5_000):
        for command in (("jacquet", "moves"), ("jacquet", "bot"), ("goose", "play")):
            done = subprocess.run([*TABLIER, "engine", *command, "--batch"],
                                  input=f"{GOOD}\n{bad}\n{GOOD}\n", capture_output=True,
                                  text=True, env=env, cwd=ROOT, timeout=60)  # fmt: skip
            assert done.returncode == 0 and done.stderr == "", done.stderr[-300:]
            answers = done.stdout.splitlines()
            assert len(answers) == 3
            assert answers[1].startswith('{"error": "the request is not valid JSON')
    done = run(tmp_path, "engine", "jacquet", "moves", "--dice", "6-5", "--position", "1" * 5000)
    assert done.returncode == 2 and "the position is not valid JSON" in done.stderr
    assert "Traceback" not in done.stderr


async def test_a_log_path_naming_an_unknown_user_is_said_in_the_lobby(tmp_path: Path) -> None:
    """~nosuchuser/x.tablier: expanduser() raises RuntimeError on the UI thread, which ended
    the app; now the form says it and the lobby stays."""
    from textual.widgets import Input, Static

    from client.app import TablierApp
    from tests.client.conftest import seeded_settings

    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        lobby = app.screen
        lobby.query_one("#replay-path", Input).value = "~nosuchuser/match.tablier"
        await pilot.press("f5")
        await pilot.pause()
        assert app.is_running and app.screen is lobby
        said = str(lobby.query_one("#replay-error", Static).render())
        assert "No user on this computer is named ~nosuchuser" in said


def test_analyze_of_a_folder_says_it_is_not_a_regular_file(tmp_path: Path) -> None:
    """analyze named the report beside the log before reading it: "." has no name, and
    with_name() raised ValueError, said as "the header: a value this program cannot handle"."""
    for folder in (".", "/"):
        done = run(tmp_path, "analyze", folder)
        assert done.returncode == 2, done.stderr
        assert done.stderr == f"tablier analyze: {folder} is not a regular file: not a match log\n"
