"""Canonical bytes and state hashes: the same state gives the same bytes everywhere.

States describe themselves as nested tuples of ``int``, ``str``, ``bool`` and ``None``
(their ``canonical()`` method). This module turns such a value into bytes with a tiny
tagged, length-prefixed format that depends on nothing but the value — not on the Python
version, the machine, dict ordering or ``PYTHONHASHSEED`` — and hashes them with SHA-256.

>>> canonical_bytes((1, "a", None, True)).hex()
'54000000044900000000000000015300000001614e42'
>>> len(state_hash_of((1, 2)))
32
"""

from __future__ import annotations

import hashlib
from typing import Protocol, TypeAlias

Canonical: TypeAlias = "int | str | bool | tuple[Canonical, ...] | None"

# One byte tags; integers are 8-byte big-endian two's complement (states hold small ints).
_NONE = b"N"
_TRUE = b"B"
_FALSE = b"F"
_INT = b"I"
_STR = b"S"
_TUPLE = b"T"


class HasCanonical(Protocol):
    def canonical(self) -> Canonical: ...


def canonical_bytes(value: Canonical) -> bytes:
    """Encode *value* (nested tuples of int, str, bool, None) to canonical bytes."""
    out = bytearray()
    _encode(value, out)
    return bytes(out)


def _encode(value: Canonical, out: bytearray) -> None:
    if value is None:
        out += _NONE
    elif value is True:
        out += _TRUE
    elif value is False:
        out += _FALSE
    elif isinstance(value, int):
        out += _INT + value.to_bytes(8, "big", signed=True)
    elif isinstance(value, str):
        data = value.encode("utf-8")
        out += _STR + len(data).to_bytes(4, "big") + data
    elif isinstance(value, tuple):
        out += _TUPLE + len(value).to_bytes(4, "big")
        for item in value:
            _encode(item, out)
    else:  # pragma: no cover - guarded by the type checker
        raise TypeError(f"cannot encode {type(value).__name__} canonically")


def state_hash_of(value: Canonical) -> bytes:
    """SHA-256 of the canonical bytes of *value* (32 bytes)."""
    return hashlib.sha256(canonical_bytes(value)).digest()


def state_hash(state: HasCanonical) -> bytes:
    """SHA-256 of a game state's canonical encoding (32 bytes)."""
    return state_hash_of(state.canonical())
