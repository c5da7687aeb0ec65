"""A seat file is outside data too (anyone who can write the data folder, a disk that
garbles): parsed once into bounded values, a bad one is a sentence (SeatFileError), never
another exception, whatever its fields hold."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from client.net.seatfile import (
    SEAT_FORMAT,
    SEAT_VERSION,
    Seat,
    SeatFileError,
    decode_seat,
    encode_seat,
    load_seat,
)
from client.net.untrusted import is_secret
from protocol.codec import pack
from protocol.names import name_problem

SEAT = Seat("ws://127.0.0.1:8765/", "R" * 22, "P" * 43, "S" * 43, "K" * 43, "Ada", "host",
            Path("/tmp/m.tablier"), b"i" * 32, b"c" * 32, "127.0.0.1:8765")  # fmt: skip

extreme = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**64 - 1),
    st.text(max_size=80),
    st.sampled_from(
        [
            "",
            "\x00",
            "../../x",
            "\u3164",
            "0.0.0.0:99999999999999999999",
            "ws://h:99999/",
            "ws://",
            "x" * 5000,
            "Ada\x1b[2J",
        ]
    ),
    st.binary(max_size=40),
)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"listen": "0.0.0.0:99999999999999999999"}, "its relay listened on"),
        ({"listen": "0.0.0.0:65536"}, "its relay listened on"),
        ({"relay_url": "ws://h:99999/"}, "its relay's address is not one"),
        ({"relay_url": "http://evil/"}, "its relay's address is not one"),
        ({"room_id": "../../x" * 4}, "its room id or tokens"),
        ({"seat_token": "\x00" * 20}, "its room id or tokens"),
        ({"name": "\u3164"}, "its player's name"),
        ({"log_path": Path("relative.tablier")}, "its log's path is not one"),
    ],
)
def test_a_damaged_field_is_named(change: dict[str, object], said: str) -> None:
    with pytest.raises(SeatFileError, match=said):
        decode_seat(encode_seat(replace(SEAT, **change)))  # type: ignore[arg-type]


@given(st.integers(0, 10), extreme)
@example(10, "0.0.0.0:99999999999999999999")  # the listening address
@example(7, "/tmp/a\x00b")  # the log's path
def test_any_field_at_any_extreme_is_a_seat_file_error_or_a_bounded_seat(
    index: int, value: object
) -> None:
    fields = [SEAT_FORMAT, SEAT_VERSION, *pack_fields(SEAT)]
    fields[2 + index] = value
    try:
        seat = decode_seat(pack(fields))
    except SeatFileError:
        return
    assert is_secret(seat.room_id) and name_problem(seat.name) is None
    assert seat.log_path.is_absolute() and len(str(seat.log_path)) <= 4096
    if seat.listen is not None:
        assert 0 <= int(seat.listen.rpartition(":")[2]) <= 65535


def pack_fields(seat: Seat) -> list[object]:
    from protocol.codec import unpack_untrusted

    fields = unpack_untrusted(encode_seat(seat))
    assert isinstance(fields, list)
    return fields[2:]


def test_a_seat_file_of_garbage_is_a_sentence(tmp_path: Path) -> None:
    path = tmp_path / ("R" * 22)
    path.write_bytes(pack([SEAT_FORMAT, SEAT_VERSION, *(["\x00"] * 11)]))
    with pytest.raises(SeatFileError, match=f"{path}: a damaged seat file"):
        load_seat(path)
