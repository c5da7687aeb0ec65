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

from dataclasses import dataclass
from typing import Any, Final, NoReturn

import msgpack  # type: ignore[import-untyped]

from engine.clause import N_, Clause
from protocol.errors import MalformedMessage

MAX_MESSAGE_BYTES: Final = 16_384
"""The largest message (a 15-seat setup is about 4 KiB; a chat line at most ~2 KiB)."""

MAX_STR_LEN: Final = 2_048
MAX_BIN_LEN: Final = 64
MAX_ARRAY_LEN: Final = 32
MAX_MAP_LEN: Final = 16


@dataclass(frozen=True, slots=True)
class Limits:
    """The explicit bounds msgpack enforces while decoding (before allocating anything)."""

    max_buffer_size: int
    max_str_len: int
    max_bin_len: int
    max_array_len: int
    max_map_len: int

    def options(self) -> dict[str, Any]:
        """Keyword arguments for ``msgpack.Unpacker`` (``unpackb`` takes all but the buffer)."""
        return {
            "raw": False,
            "strict_map_key": True,  # map keys must be strings
            "ext_hook": _no_ext,  # no extension types...
            "max_ext_len": 0,  # ...of any length
            "timestamp": 0,
            "max_buffer_size": self.max_buffer_size,
            "max_str_len": self.max_str_len,
            "max_bin_len": self.max_bin_len,
            "max_array_len": self.max_array_len,
            "max_map_len": self.max_map_len,
        }


MAX_TRANSCRIPT_BYTES: Final = 64 * 1024 * 1024
MESSAGE_LIMITS: Final = Limits(
    MAX_MESSAGE_BYTES, MAX_STR_LEN, MAX_BIN_LEN, MAX_ARRAY_LEN, MAX_MAP_LEN
)
"""One wire message (a setup is the largest)."""
TRANSCRIPT_LIMITS: Final = Limits(
    MAX_TRANSCRIPT_BYTES, 0, MAX_MESSAGE_BYTES, MAX_TRANSCRIPT_BYTES, 0
)
"""A resync transcript: one array of records (each decoded again with MESSAGE_LIMITS)."""


_UNREADABLE: Final = Clause.of(N_("not a valid message (unreadable bytes)"))


def _no_ext(code: int, data: bytes) -> NoReturn:
    raise MalformedMessage(Clause.of(N_("extension type {code} is not allowed"), code=code))


def pack(value: Any) -> bytes:
    """Encode *value* as msgpack (bin for bytes, str for text, shortest integer forms)."""
    packed: bytes = msgpack.packb(value, use_bin_type=True)
    return packed


def _unpackb(data: bytes, limits: Limits) -> Any:
    options = limits.options()
    del options["max_buffer_size"]  # unpackb reads one complete buffer, checked by the caller
    return msgpack.unpackb(data, **options)


def unpack_untrusted(data: bytes, *, seat: int | None = None) -> Any:
    """Decode one message from untrusted *data* within the limits; raise only MalformedMessage."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise MalformedMessage(Clause.of(N_("expected bytes, got {kind}"),
                                         kind=type(data).__name__), seat=seat)  # fmt: skip
    if len(data) > MAX_MESSAGE_BYTES:
        raise MalformedMessage(Clause.of(N_("message of {size} bytes exceeds the limit of "
                                            "{limit}"), size=len(data), limit=MAX_MESSAGE_BYTES),
                               seat=seat)  # fmt: skip
    try:
        value = _unpackb(bytes(data), MESSAGE_LIMITS)
        canonical = pack(value) == bytes(data)
    except MalformedMessage as error:
        raise MalformedMessage(error.reason, seat=seat) from None
    except Exception:  # msgpack raises many types (ValueError, FormatError, ...): wrap them all
        raise MalformedMessage(_UNREADABLE, seat=seat) from None
    if not canonical:
        raise MalformedMessage(Clause.of(N_("not a valid message (non-canonical encoding)")),
                               seat=seat)  # fmt: skip
    return value


def unpack_transcript(data: bytes) -> list[bytes]:
    """Decode a transcript (a msgpack array of records) from untrusted *data*."""
    if not isinstance(data, bytes | bytearray | memoryview) or len(data) > MAX_TRANSCRIPT_BYTES:
        raise MalformedMessage(Clause.of(N_("a transcript must be bytes of at most 64 MiB")))
    try:
        value = _unpackb(bytes(data), TRANSCRIPT_LIMITS)
    except Exception:
        raise MalformedMessage(Clause.of(N_("not a valid transcript (unreadable bytes)"))) from None
    if not isinstance(value, list) or not all(type(item) is bytes for item in value):
        raise MalformedMessage(Clause.of(N_("a transcript is a list of records")))
    return value
