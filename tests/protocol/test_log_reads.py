"""Reading a log costs a bounded amount whatever the file is: a device or a FIFO named as a
log is refused in a sentence without a byte read, a header is decoded from at most
MAX_HEADER_BYTES, and each record is framed by its length, refused past MAX_MESSAGE_BYTES
before anything is built from it (issue 28: a seat file may name any file as its log)."""

from __future__ import annotations

import os
import stat
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import logfile
from protocol.codec import MAX_MESSAGE_BYTES, pack
from protocol.errors import LogError, NotALog
from protocol.logfile import (
    MAX_HEADER_BYTES,
    LogContents,
    encode_header,
    parse_log,
    read_log,
    read_log_bytes,
)
from protocol.selfplay import selfplay
from tests.protocol.hostile_logs import run_in_process

HONEST = selfplay("goose", {}, seed="reads", start_time=0).log_bytes()
SETUP_END = len(encode_header(parse_log(HONEST).setup))


def nested_arrays(size: int) -> bytes:
    """About *size* bytes of msgpack: a tree of arrays of at most 15 empty arrays, each byte
    a new list for a decoder that builds them all (the reviewer's fat header)."""
    level = [b"\x90"] * size
    while len(level) > 1:
        level = [bytes([0x90 | len(chunk)]) + b"".join(chunk)
                 for chunk in (level[i : i + 15] for i in range(0, len(level), 15))]  # fmt: skip
    return level[0]


def peak_bytes(read: Callable[[], object]) -> int:
    """The most memory Python held at once while *read* ran, beyond what it held before."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before, _ = tracemalloc.get_traced_memory()
        read()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - before


def test_a_device_is_refused_in_a_sentence_without_reading_it() -> None:
    with pytest.raises(NotALog, match=r"^/dev/zero is not a regular file: not a match log$"):
        read_log(Path("/dev/zero"))  # its size says 0; its bytes never end


def test_a_fifo_is_refused_in_a_sentence_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "log.tablier"
    os.mkfifo(fifo)
    with pytest.raises(NotALog, match=r"log\.tablier is not a regular file: not a match log$"):
        read_log(fifo)
    status, out, err = run_in_process(["verify", str(fifo)])
    assert (status, out) == (2, "")
    assert err == f"tablier verify: {fifo} is not a regular file: not a match log\n"


def test_a_fifo_put_in_a_files_place_after_it_was_looked_at_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The path is looked at before it is opened, but may change in between: what was opened
    is looked at again, and a FIFO opened without waiting is refused without a read."""
    fifo = tmp_path / "log.tablier"
    os.mkfifo(fifo)
    real_stat = os.stat

    def said_regular(path: Path, *, follow_symlinks: bool = True) -> os.stat_result:
        status = list(real_stat(path, follow_symlinks=follow_symlinks))
        status[0] = stat.S_IFREG | 0o600  # st_mode: a regular file when it was looked at
        return os.stat_result(status)

    monkeypatch.setattr(os, "stat", said_regular)
    with pytest.raises(NotALog, match=r"log\.tablier is not a regular file: not a match log$"):
        read_log_bytes(fifo)


def test_a_file_growing_while_read_is_read_no_further_than_the_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The size fstat gave is only where reading starts: a file that grew since (here: whose
    size is said to be 0) is read to its end if that is within the bound, and refused past
    it."""
    path = tmp_path / "m.tablier"
    path.write_bytes(HONEST)
    real_fstat = os.fstat

    def said_empty(fd: int) -> os.stat_result:
        status = list(real_fstat(fd))
        status[6] = 0  # st_size
        return os.stat_result(status)

    monkeypatch.setattr(os, "fstat", said_empty)
    assert read_log_bytes(path) == HONEST
    monkeypatch.setattr(logfile, "MAX_LOG_BYTES", len(HONEST) - 1)
    with pytest.raises(NotALog, match=rf"is over {len(HONEST) - 1} bytes: too large"):
        read_log_bytes(path)


def test_a_fat_header_is_refused_having_decoded_at_most_its_bound() -> None:
    """The reviewer's header: a tree of arrays megabytes long, each byte a Python list for a
    decoder given the whole file (72 bytes of memory a byte). Decoded from MAX_HEADER_BYTES
    only, it costs the same whatever its length."""
    fat = b"\x94\xabtablier-log\x02" + nested_arrays(4 * 1024 * 1024) + b"\x00"
    with pytest.raises(NotALog, match=r"^the log is not a Tablier match log$"):
        parse_log(fat)

    def refuse() -> None:
        with pytest.raises(NotALog):
            parse_log(fat)

    assert peak_bytes(refuse) < 100 * MAX_HEADER_BYTES  # not 4 MiB of lists: 300 MB


def test_a_record_of_nested_arrays_is_garbled_before_anything_is_built() -> None:
    fat = HONEST + nested_arrays(4 * 1024 * 1024)
    contents = parse_log(fat)
    assert contents.problem is not None and contents.problem.offset == len(HONEST)
    assert "garbled bytes, not a record" in str(contents.problem)
    assert contents.records == parse_log(HONEST).records
    honest = peak_bytes(lambda: parse_log(HONEST))
    assert peak_bytes(lambda: parse_log(fat)) < honest + MAX_HEADER_BYTES  # not 4 MiB of lists


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        (b"\xc5" + (MAX_MESSAGE_BYTES + 1).to_bytes(2, "big") + bytes(MAX_MESSAGE_BYTES + 1),
         "garbled bytes, not a record"),  # longer than any message: never signed
        (b"\xc6" + (MAX_MESSAGE_BYTES + 1).to_bytes(4, "big"),
         "garbled bytes, not a record"),  # said longer than any message: refused unread
        (b"\xc5\x00\x03abc", "not in its one canonical encoding"),
        (b"\xc4\x10abc", "truncated: the last 5 bytes are an incomplete record"),
        (b"\xc5\x01", "truncated: the last 2 bytes are an incomplete record"),
        (b"\x92\x01\x02", "garbled bytes, not a record"),
    ],
)  # fmt: skip
def test_each_record_is_framed_by_its_length_and_bounded(record: bytes, problem: str) -> None:
    contents = parse_log(HONEST + record)
    assert contents.problem is not None and problem in str(contents.problem)
    assert contents.problem.offset == contents.end == len(HONEST)
    assert contents.records == parse_log(HONEST).records


def test_the_largest_record_is_read() -> None:
    record = bytes(MAX_MESSAGE_BYTES)
    contents = parse_log(HONEST + pack(record))
    assert contents.problem is None and contents.records[-1] == record


@settings(max_examples=200, deadline=None, database=None)
@given(tail=st.binary(max_size=64), cut=st.integers(min_value=0, max_value=len(HONEST)))
def test_any_log_cut_and_followed_by_anything_keeps_its_records_before(
    tail: bytes, cut: int
) -> None:
    """Whatever follows a cut log, the reader keeps every whole record before the cut, says
    nothing went wrong only if what followed was whole records, and refuses the log only for
    its header, cut short."""
    whole = parse_log(HONEST)
    data = HONEST[:cut] + tail
    try:
        contents: LogContents = parse_log(data)
    except LogError as error:
        assert cut < SETUP_END and getattr(error, "record", None) is None, error
        return
    kept = [r for r, o in zip(whole.records, whole.offsets, strict=True) if o + 3 + len(r) <= cut]
    assert list(contents.records[: len(kept)]) == kept
    assert contents.end <= len(data)
    assert (contents.problem is None) == (contents.end == len(data))
    assert all(len(record) <= MAX_MESSAGE_BYTES for record in contents.records)
