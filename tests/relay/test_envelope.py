"""The envelope codec: every message round-trips, and no byte string can crash the decoders."""

from __future__ import annotations

import contextlib
import time

import msgpack  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from relay.envelope import (
    VERSION,
    Create,
    Created,
    EnvelopeError,
    Error,
    ErrorCode,
    Join,
    Kind,
    Member,
    Message,
    Notice,
    Presence,
    PresenceEvent,
    Send,
    Stamped,
    Welcome,
    decode_client_frame,
    decode_relay_frame,
    encode,
    pack_payload,
    packed_send_payload,
    stamp,
)

CLIENT_MESSAGES = [
    Create(seats=15),
    Create(2, Created("r" * 22, "p" * 43, "s" * 43)),
    Join("r" * 22, "t" * 43, "Ada", None),
    Join("r" * 22, "t" * 43, "Zoé", 1023),
    Join("r" * 22, "t" * 43, "Zoé", 1023, 2**48 - 1),
    Send(b""),
    Send(bytes(range(256))),
    Send(b"", tell=True),
    Send(b"resign", tell=True),
]
RELAY_MESSAGES = [
    Created("r" * 22, "p" * 43, "s" * 43),
    Welcome(0, "k" * 43, 2, 7, False, (Member(0, "Ada", True), Member(1, "Bob", False))),
    Welcome(None, None, 15, 0, True, (), epoch=2**48 - 1, rate_per_minute=1, burst=2**31),
    Message(2**40, 14, b"\x00payload"),
    Presence(3, 1, PresenceEvent.SEAT_EXPIRED, "Bob"),
    Error(ErrorCode.ROOM_FULL, "Every seat in this room is taken."),
    Notice("relay_restarting", "The relay is restarting."),
    Stamped(0),
    Stamped(2**40),
]


@pytest.mark.parametrize("message", CLIENT_MESSAGES, ids=repr)
def test_client_messages_round_trip(message: Create | Join | Send) -> None:
    assert decode_client_frame(encode(message)) == message


@pytest.mark.parametrize("message", RELAY_MESSAGES, ids=repr)
def test_relay_messages_round_trip(message: object) -> None:
    assert decode_relay_frame(encode(message)) == message  # type: ignore[arg-type]


def test_a_stamped_message_is_compact() -> None:
    # Array header, version, kind, seq (3 bytes at 1000), seat and bin header: 9 bytes.
    assert len(encode(Message(1000, 3, b"x" * 100))) == 109


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ([VERSION + 1, Kind.SEND, b"x"], ErrorCode.UNSUPPORTED_VERSION),
        (["1", Kind.SEND, b"x"], ErrorCode.BAD_ENVELOPE),
        ([True, Kind.SEND, b"x"], ErrorCode.BAD_ENVELOPE),
        ([VERSION, Kind.SEND, "text, not bin"], ErrorCode.BAD_ENVELOPE),
        ([VERSION, Kind.SEND, b"x", b"extra"], ErrorCode.BAD_ENVELOPE),
        ([VERSION, Kind.CREATE, True], ErrorCode.BAD_ENVELOPE),
        ([VERSION, Kind.CREATE, 2, "short", "p" * 43, "s" * 43], ErrorCode.BAD_ENVELOPE),
        ([VERSION, Kind.JOIN, "room", "token", "name", -1, 7], ErrorCode.BAD_RESUME),
        ([VERSION, Kind.JOIN, "r" * 65, "token", "name", None, None], ErrorCode.BAD_ENVELOPE),
        ([VERSION, Kind.JOIN, "room", "token", "name", 0], ErrorCode.BAD_ENVELOPE),  # no epoch
        ([VERSION, Kind.JOIN, "room", "token", "name", 0, "7"], ErrorCode.BAD_ENVELOPE),
        ([VERSION, Kind.MESSAGE, 1, 1, b"x"], ErrorCode.BAD_ENVELOPE),  # relay-only kind
        ([VERSION, 99], ErrorCode.BAD_ENVELOPE),
        ({"v": 1}, ErrorCode.BAD_ENVELOPE),
        (7, ErrorCode.BAD_ENVELOPE),
    ],
)
def test_wrong_shapes_are_refused_with_a_code(fields: object, code: ErrorCode) -> None:
    with pytest.raises(EnvelopeError) as refused:
        decode_client_frame(msgpack.packb(fields))
    assert refused.value.code == code
    assert refused.value.text.endswith(".")


def test_huge_declared_lengths_are_refused_without_allocating() -> None:
    started = time.perf_counter()
    for header in (b"\xdd\xff\xff\xff\xff", b"\xdf\xff\xff\xff\xff", b"\xc6\xff\xff\xff\xff"):
        with pytest.raises(EnvelopeError):
            decode_client_frame(header + b"\x00" * 16)
    assert time.perf_counter() - started < 0.1


def test_deep_nesting_is_refused() -> None:
    deep = b"\x91" * 100_000 + b"\x00"  # 100,000 arrays of one element, nested
    with pytest.raises(EnvelopeError):
        decode_client_frame(deep)
    with pytest.raises(EnvelopeError):
        decode_relay_frame(deep)


def test_oversized_frames_are_refused_before_decoding() -> None:
    with pytest.raises(EnvelopeError) as refused:
        decode_client_frame(encode(Send(b"x" * 2000)), max_frame=1024)
    assert refused.value.code == ErrorCode.FRAME_TOO_LARGE


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=256))
def test_any_bytes_decode_or_raise_envelope_error(data: bytes) -> None:
    for decode in (decode_client_frame, decode_relay_frame):
        with contextlib.suppress(EnvelopeError):
            decode(data)


msgpack_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats()
    | st.text(max_size=20)
    | st.binary(max_size=20),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=10,
)


@settings(max_examples=100, deadline=None)
@given(st.lists(msgpack_values, max_size=8), st.sampled_from([*Kind, 0, 10]))
def test_any_msgpack_array_decodes_or_raises_envelope_error(rest: list[object], kind: int) -> None:
    data = msgpack.packb([VERSION, int(kind), *rest])
    for decode in (decode_client_frame, decode_relay_frame):
        try:
            message = decode(data)
        except EnvelopeError:
            continue
        assert encode(message) == data  # only exact, canonical shapes get through


@pytest.mark.parametrize("size", [0, 1, 255, 256, 65535, 65536])
def test_the_stamping_fast_path_agrees_with_the_codec(size: int) -> None:
    payload = bytes(range(256)) * (size // 256) + bytes(size % 256)
    packed = packed_send_payload(encode(Send(payload)))
    assert packed is not None
    for seq in (0, 127, 128, 255, 256, 2**16 - 1, 2**16, 2**32 - 1, 2**32, 2**64 - 1):
        assert stamp(seq, 14, packed) == msgpack.packb([VERSION, Kind.MESSAGE, seq, 14, payload])


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([(0xC4, 1), (0xC5, 2), (0xC6, 4)]),
    st.integers(0, 40),
    st.binary(max_size=40),
    st.sampled_from([Kind.SEND, Kind.SEND_TELL]),
)
def test_the_fast_path_takes_exactly_what_the_codec_reads_as_a_send(
    marker: tuple[int, int], declared: int, body: bytes, kind: Kind
) -> None:
    code, width = marker
    data = bytes((0x93, VERSION, kind, code)) + declared.to_bytes(width, "big") + body
    packed = packed_send_payload(data)
    if len(body) != declared:
        assert packed is None
        with pytest.raises(EnvelopeError):
            decode_client_frame(data)
        return
    tell = kind == Kind.SEND_TELL
    assert decode_client_frame(data) == Send(body, tell)
    if code == 0xC4:  # the only canonical header for 40 bytes or fewer
        assert packed is not None and packed == pack_payload(body)
    else:  # a bin 16 or bin 32 header written for a few bytes: the codec's way, packed anew
        assert packed is None


@pytest.mark.parametrize(
    ("code", "width", "size"),
    [
        (0xC5, 2, 0),
        (0xC5, 2, 255),
        (0xC6, 4, 3),
        (0xC6, 4, 65535),
        (0xC5, 2, 256),
        (0xC6, 4, 65536),
    ],
)
def test_the_fast_path_takes_a_bin_header_only_at_its_smallest(
    code: int, width: int, size: int
) -> None:
    payload = bytes(size)
    data = bytes((0x93, VERSION, Kind.SEND, code)) + size.to_bytes(width, "big") + payload
    packed = packed_send_payload(data)
    smallest = pack_payload(payload)
    if smallest[0] == code:
        assert packed == smallest
    else:
        assert packed is None
    assert decode_client_frame(data, 1 << 20) == Send(payload)


@pytest.mark.parametrize("size", [0, 1, 255, 256, 65535, 65536])
def test_a_send_is_encoded_as_msgpack_would(size: int) -> None:
    payload = bytes(range(256)) * (size // 256) + bytes(size % 256)
    assert encode(Send(payload)) == msgpack.packb([VERSION, Kind.SEND, payload])
    assert encode(Send(payload, tell=True)) == msgpack.packb([VERSION, Kind.SEND_TELL, payload])


_UINTS = st.sampled_from([b"\x05", b"\xcc\x05", b"\xcd\x01\x00", b"\xce\x00\x01\x00\x00"])
_BINS = st.sampled_from([(0xC4, 1), (0xC5, 2), (0xC6, 4)])


@settings(max_examples=400, deadline=None)
@given(
    _UINTS | st.binary(max_size=9),
    _UINTS | st.binary(max_size=9),
    _BINS,
    st.integers(0, 40),
    st.binary(max_size=40),
)
def test_reading_a_message_without_msgpack_agrees_with_the_codec(
    seq: bytes, seat: bytes, marker: tuple[int, int], declared: int, body: bytes
) -> None:
    """Near misses included (truncated numbers, negative or float markers, wrong lengths):
    the reader's shortcut for message envelopes answers exactly what msgpack would."""
    code, width = marker
    head = bytes((0x95, VERSION, Kind.MESSAGE))
    data = head + seq + seat + bytes((code,)) + declared.to_bytes(width, "big") + body
    try:
        expected: object = decode_relay_frame(data, max_frame=1 << 20)
    except EnvelopeError as exc:
        expected = exc.code
    try:
        fields = msgpack.unpackb(data)
        valid = [type(f) for f in fields[2:]] == [int, int, bytes]
        assert expected == (Message(*fields[2:]) if valid else ErrorCode.BAD_ENVELOPE)
    except (ValueError, msgpack.UnpackException):
        assert expected == ErrorCode.BAD_ENVELOPE


def test_a_message_frame_over_the_limit_is_refused_before_reading() -> None:
    data = encode(Message(1, 0, b"x" * 2000))
    with pytest.raises(EnvelopeError) as refused:
        decode_relay_frame(data, max_frame=1024)
    assert refused.value.code == ErrorCode.FRAME_TOO_LARGE


def test_a_version_mismatch_says_which_side_is_which() -> None:
    with pytest.raises(EnvelopeError) as newer_client:
        decode_client_frame(msgpack.packb([VERSION + 1, Kind.SEND, b"x"]))
    assert f"relay speaks envelope version {VERSION} and the client version {VERSION + 1}" in (
        newer_client.value.text
    )
    with pytest.raises(EnvelopeError) as older_relay:
        decode_relay_frame(msgpack.packb([VERSION - 1, Kind.ERROR, "code", "text"]))
    assert older_relay.value.code == ErrorCode.UNSUPPORTED_VERSION
    assert f"relay speaks envelope version {VERSION - 1} and the client version {VERSION}" in (
        older_relay.value.text
    )
