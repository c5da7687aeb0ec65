"""A seat file names its log, and a seat file may be written by anyone: the lobby lists
seats whose log is a FIFO or a device at once, in a sentence each, and a seat file whose log
path (or name, or relay) would carry an escape sequence to the terminal is refused at its
gate, so no title the lobby shows holds one (issue 28)."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from textual.widgets import OptionList

from client.app import TablierApp
from client.game.local_seats import (
    LocalSeats,
    LocalSeatsError,
    decode_local_seats,
    encode_local_seats,
    local_seats_folder,
    save_local_seats,
)
from client.net.seatfile import Seat, SeatFileError, decode_seat, encode_seat, save_seat, seat_path
from client.screens.lobby import LobbyScreen
from client.widgets.saved_seats import SavedSeats
from protocol.codec import pack, unpack_untrusted
from tests.client.conftest import seeded_settings, until

ESCAPE = "\x1b]2;PWNED\x07"
KEYS = (b"i" * 32,) * 2, (b"c" * 32,) * 2, (b"r" * 32,) * 2


def local_seats(log: Path | str) -> LocalSeats:
    return LocalSeats(Path(log), frozenset({1}), 1, *KEYS)


def net_seat(log: Path | str, name: str = "Ada", url: str = "ws://127.0.0.1:9/") -> Seat:
    return Seat(url, "R" * 22, "P" * 43, "S" * 43, "K" * 43, name, "player", Path(log),
                b"i" * 32, b"c" * 32)  # fmt: skip


def test_a_seat_files_log_path_is_absolute_and_printable() -> None:
    for log in (f"/tmp/m{ESCAPE}.tablier", "matches/m.tablier", "/tmp/m\n.tablier"):
        try:
            decode_seat(encode_seat(net_seat(log)))
        except SeatFileError as error:
            assert str(error) == "a damaged seat file (its log's path is not one)"
        else:
            raise AssertionError(f"{log!r} was taken")
        try:
            decode_local_seats(encode_local_seats(local_seats(log)))
        except LocalSeatsError as error:
            assert str(error) == "a damaged local seat file (its log's path is not one)"
        else:
            raise AssertionError(f"{log!r} was taken")


CONTROLS = "\x1b\x07\x9b\n\r\x00\u2028\u202e"
hostile_text = st.text(alphabet=st.sampled_from("Aa/:.w s1" + CONTROLS), max_size=40).map(
    lambda text: f"ws://h/{text}" if len(text) % 3 == 0 else f"/{text}" if len(text) % 3 else text
)


@settings(max_examples=150, deadline=None, database=None)
@given(index=st.integers(0, 10), value=hostile_text)
def test_no_text_past_a_seat_files_gate_holds_a_control_character(index: int, value: str) -> None:
    """Every text a seat file holds reaches the screen (the saved seats' titles, the room's
    sentences): past its gate, none holds an escape, a line break or a bidi override."""
    fields = unpack_untrusted(encode_seat(net_seat("/tmp/m.tablier")))
    assert isinstance(fields, list)
    fields[2 + index] = value
    try:
        seat = decode_seat(pack(fields))
    except SeatFileError:
        pass
    else:
        texts = [seat.relay_url, seat.room_id, seat.invite_token, seat.spectator_token,
                 seat.seat_token or "", seat.name, seat.role, str(seat.log_path),
                 seat.listen or ""]  # fmt: skip
        assert all(text.isprintable() for text in texts), seat
    local = unpack_untrusted(encode_local_seats(local_seats("/tmp/m.tablier")))
    assert isinstance(local, list)
    local[2] = value
    try:
        seats = decode_local_seats(pack(local))
    except LocalSeatsError:
        return
    assert str(seats.log_path).isprintable() and seats.log_path.is_absolute()


async def test_the_lobby_lists_seats_whose_log_is_a_fifo_or_a_device_in_a_sentence(
    tmp_path: Path,
) -> None:
    """The lobby reads every seat's log at start: a FIFO used to hang that list (and quitting)
    for ever, /dev/zero to fill the memory."""
    fifo = tmp_path / "fifo.tablier"
    os.mkfifo(fifo)
    folder = local_seats_folder(tmp_path)
    folder.mkdir()
    save_local_seats(folder / ("a" * 64), local_seats(fifo))
    save_local_seats(folder / ("b" * 64), local_seats("/dev/zero"))
    save_seat(seat_path("R" * 22, bytes(32), tmp_path), net_seat(fifo))
    save_seat(seat_path("Z" * 22, bytes(32), tmp_path), net_seat("/dev/zero"))
    save_seat(seat_path("E" * 22, bytes(32), tmp_path), net_seat(f"/tmp/{ESCAPE}"))
    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=(100, 30)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await pilot.press("f4")
        await until(pilot, lambda: bool(lobby.query("#unfinished-list")), "the Replay tab")
        listed = lobby.query_one("#unfinished-list", OptionList)
        await until(pilot, lambda: listed.option_count == 2, "the unfinished games")
        titles = sorted(str(listed.get_option_at_index(i).prompt) for i in range(2))
        assert titles[0].startswith("aaaaaaaa… (") and titles[1].startswith("bbbbbbbb… (")
        assert titles[0].endswith(f"cannot be resumed: {fifo} is not a regular file: not a "
                                  "match log")  # fmt: skip
        assert titles[1].endswith("cannot be resumed: /dev/zero is not a regular file: not a "
                                  "match log")  # fmt: skip

        lobby.action_show_tab("network")
        saved = lobby.query_one(SavedSeats)
        await until(pilot, lambda: len(saved.seats) == 3, "the saved seats")
        titles = sorted(entry.title for entry in saved.seats)
        assert "cannot be resumed: a damaged seat file (its log's path is not one)" in titles[0]
        assert titles[1].endswith(f"cannot be resumed: {fifo} is not a regular file: not a "
                                  "match log")  # fmt: skip
        assert titles[2].endswith("cannot be resumed: /dev/zero is not a regular file: not a "
                                  "match log")  # fmt: skip
        assert not any("\x1b" in title or "\x07" in title for title in titles)
        await app.workers.wait_for_complete()  # nothing left waiting on the FIFO
