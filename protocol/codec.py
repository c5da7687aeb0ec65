"""Bounded msgpack for untrusted bytes: the only way :mod:`protocol` reads a peer's data.

Decoding enforces explicit limits on every length, refuses extension types and non-string
map keys, insists on the canonical encoding (so one value has exactly one byte form, and a
flipped byte can never leave a message's meaning unchanged), and can raise nothing but
:class:`~protocol.errors.MalformedMessage`.

>>> unpack_untrusted(pack([1, "a", b"\\x00"]))
[1, 'a', b'\\x00']
>>> unpack_untrusted(b"\\xc1")
Traceback (most recent call last):
...
protocol.errors.MalformedMessage: not a valid message (unreadable bytes)
"""

from __future__ import annotations

from typing import Any, Final, NoReturn

import msgpack  # type: ignore[import-untyped]

from protocol.errors import MalformedMessage

MAX_MESSAGE_BYTES: Final = 16_384
"""The largest message (a 15-seat setup is about 4 KiB; a chat line at most ~2 KiB)."""

MAX_STR_LEN: Final = 2_048
MAX_BIN_LEN: Final = 64
MAX_ARRAY_LEN: Final = 32
MAX_MAP_LEN: Final = 16


def _no_ext(code: int, data: bytes) -> NoReturn:
    raise MalformedMessage(f"extension type {code} is not allowed")


def pack(value: Any) -> bytes:
    """Encode *value* as msgpack (bin for bytes, str for text, shortest integer forms)."""
    packed: bytes = msgpack.packb(value, use_bin_type=True)
    return packed


def unpack_untrusted(data: bytes, *, seat: int | None = None) -> Any:
    """Decode one message from untrusted *data* within the limits; raise only MalformedMessage."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise MalformedMessage(f"expected bytes, got {type(data).__name__}", seat=seat)
    if len(data) > MAX_MESSAGE_BYTES:
        raise MalformedMessage(
            f"message of {len(data)} bytes exceeds the limit of {MAX_MESSAGE_BYTES}", seat=seat
        )
    try:
        value = msgpack.unpackb(
            bytes(data),
            raw=False,
            use_list=True,
            strict_map_key=True,
            ext_hook=_no_ext,
            max_str_len=MAX_STR_LEN,
            max_bin_len=MAX_BIN_LEN,
            max_array_len=MAX_ARRAY_LEN,
            max_map_len=MAX_MAP_LEN,
            max_ext_len=0,
            timestamp=0,
        )
        canonical = pack(value) == bytes(data)
    except MalformedMessage as error:
        raise MalformedMessage(error.reason, seat=seat) from None
    except Exception:  # msgpack raises many types (ValueError, FormatError, ...): wrap them all
        raise MalformedMessage("not a valid message (unreadable bytes)", seat=seat) from None
    if not canonical:
        raise MalformedMessage("not a valid message (non-canonical encoding)", seat=seat)
    return value


MAX_TRANSCRIPT_BYTES: Final = 64 * 1024 * 1024


def unpack_transcript(data: bytes) -> list[bytes]:
    """Decode a transcript (a msgpack array of records) from untrusted *data*."""
    if not isinstance(data, bytes | bytearray | memoryview) or len(data) > MAX_TRANSCRIPT_BYTES:
        raise MalformedMessage("a transcript must be bytes of at most 64 MiB")
    try:
        value = msgpack.unpackb(
            bytes(data),
            raw=False,
            strict_map_key=True,
            ext_hook=_no_ext,
            max_str_len=0,
            max_bin_len=MAX_MESSAGE_BYTES,
            max_array_len=len(data),
            max_map_len=0,
            max_ext_len=0,
        )
    except Exception:
        raise MalformedMessage("not a valid transcript (unreadable bytes)") from None
    if not isinstance(value, list) or not all(type(item) is bytes for item in value):
        raise MalformedMessage("a transcript is a list of records")
    return value
