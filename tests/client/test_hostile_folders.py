"""Tablier's data folders hold whatever was put there: a link whose target cannot be
followed, a file named with escape sequences, a time past any calendar. The lobby lists
them at every start; none of it may end the app, and no file's name reaches the terminal
as anything but printable text."""

from __future__ import annotations

import os
from pathlib import Path

from textual.widgets import OptionList

from client.app import TablierApp
from client.folder_listing import files_in
from client.i18n import format_moment, path_shown
from client.widgets.saved_seats import saved_seats
from client.widgets.unfinished_games import unfinished_games
from protocol.selfplay import selfplay
from tests.client.conftest import FIXED_TIME_MS, seeded_settings, until

TOO_LONG = "x" * 300  # a component longer than NAME_MAX: following the link, ENAMETOOLONG
ESCAPING = "a\x1b]2;PWNED\x07\x1b[2J.tablier"  # sets the terminal's title, clears it
FAR_FUTURE = 1_099_511_627_776  # seconds: the year 36812, past datetime's reach


def _hostile_data_dir(data_dir: Path) -> Path:
    for folder in ("matches", "seats", "local"):
        (data_dir / folder).mkdir()
        (data_dir / folder / "long.tablier").symlink_to(TOO_LONG)
        (data_dir / folder / "loop.tablier").symlink_to("loop.tablier")  # ELOOP
    log = selfplay("jacquet", {}, seed="folders", start_time=FIXED_TIME_MS, names=("Ada", "Bob"))
    (data_dir / "matches" / ESCAPING).write_bytes(log.log_bytes())
    (data_dir / "seats" / "garbage").write_bytes(b"not a seat file")
    (data_dir / "local" / "garbage").write_bytes(b"not a seat file")
    return data_dir


def test_a_listing_leaves_out_what_cannot_be_looked_at(tmp_path: Path) -> None:
    data_dir = _hostile_data_dir(tmp_path)
    assert [listed.path.name for listed in files_in(data_dir / "matches", suffix=".tablier")] == [
        ESCAPING
    ]
    assert [saved.path.name for saved in saved_seats(data_dir)] == ["garbage"]
    assert [game.path.name for game in unfinished_games(data_dir)] == ["garbage"]
    assert files_in(data_dir / "matches" / ESCAPING) == []  # a file, not a folder


def test_a_time_past_any_calendar_is_unknown_not_an_error(tmp_path: Path) -> None:
    seat = tmp_path / "seats" / "garbage"
    seat.parent.mkdir()
    seat.write_bytes(b"not a seat file")
    os.utime(seat, (FAR_FUTURE, FAR_FUTURE))  # the file system may keep less (ext4: 2446)
    assert format_moment(FAR_FUTURE) == "unknown time"
    assert format_moment(-FAR_FUTURE) == "unknown time"
    (listed,) = saved_seats(tmp_path)
    assert "cannot be resumed" in listed.title


async def test_the_lobby_lists_hostile_folders_and_goes_on(tmp_path: Path) -> None:
    data_dir = _hostile_data_dir(tmp_path)
    app = TablierApp(settings=seeded_settings(data_dir))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        saved = app.screen.query_one("#saved-seats-list", OptionList)
        await until(pilot, lambda: saved.option_count == 1, "the saved seats' list")
        await pilot.press("f4")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        listed = app.screen.query_one("#recent-logs", OptionList)
        prompts = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        assert len(prompts) == 1 and prompts[0].startswith(path_shown(ESCAPING) + "  ·  ")
        assert not any(char in prompts[0] for char in "\x1b\x07")
        unfinished = app.screen.query_one("#unfinished-list", OptionList)
        await until(pilot, lambda: unfinished.option_count == 1, "the unfinished games' list")
        assert app.is_running


def test_commands_print_file_names_without_their_escape_sequences(tmp_path: Path) -> None:
    import subprocess
    import sys

    tablier = str(Path(sys.executable).with_name("tablier"))
    log = selfplay("jacquet", {}, seed="folders", start_time=FIXED_TIME_MS, names=("Ada", "Bob"))
    data = bytearray(log.log_bytes())
    data[-40] ^= 0xFF  # inside the last record's signature: verify names the file
    hostile = tmp_path / ESCAPING
    hostile.write_bytes(bytes(data))
    good = tmp_path / "good.tablier"
    good.write_bytes(log.log_bytes())
    for args in (["verify", str(hostile)], ["verify", str(good), str(hostile)],
                 ["log", "export", str(tmp_path / ("gone" + ESCAPING))]):  # fmt: skip
        done = subprocess.run([tablier, *args], capture_output=True, text=True)
        assert done.returncode != 0, done
        printed = done.stdout + done.stderr
        assert path_shown(ESCAPING) in printed, printed
        assert "\x1b" not in printed and "\x07" not in printed, printed


def test_docstring_examples() -> None:
    import doctest

    from client import folder_listing, private_file

    for module in (folder_listing, private_file):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_a_seat_file_is_never_written_through_a_link(tmp_path: Path) -> None:
    """The old temporary (``NAME.tmp``, opened O_TRUNC, then chmod 0600) followed a link put
    there: the victim was overwritten and its mode changed. A link as the seat file itself is
    refused."""
    import pytest

    from client.private_file import RefusedDestination, write_private

    victim = tmp_path / "victim"
    victim.write_text("mine")
    victim.chmod(0o644)
    seat = tmp_path / "seats" / "room"
    seat.parent.mkdir()
    (seat.parent / "room.tmp").symlink_to(victim)
    write_private(seat, b"secret")
    assert seat.read_bytes() == b"secret" and (seat.stat().st_mode & 0o777) == 0o600
    assert victim.read_text() == "mine" and (victim.stat().st_mode & 0o777) == 0o644
    linked = seat.parent / "linked"
    linked.symlink_to(victim)
    with pytest.raises(RefusedDestination):
        write_private(linked, b"secret")
    assert victim.read_text() == "mine" and linked.is_symlink()
    assert sorted(p.name for p in seat.parent.iterdir()) == ["linked", "room", "room.tmp"]


def test_a_dangling_link_is_a_log_name_taken(tmp_path: Path) -> None:
    from client.game.local import free_log_path

    (tmp_path / "game.tablier").symlink_to(tmp_path / "nowhere")
    assert free_log_path(tmp_path / "game.tablier") == tmp_path / "game-2.tablier"
