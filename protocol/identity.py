"""Ed25519 identities: a player's signing key, fresh per match or kept in the config dir
(by the client: :mod:`client.config_files`; this module does no I/O).

The protocol never draws random numbers itself: key creation takes the caller's
``random_source`` (``secrets.token_bytes`` in real use; :func:`seeded_source` makes a
deterministic one for tests, demos and ``tablier selfplay --seed``).

>>> alice = Identity.generate(seeded_source("demo"))
>>> signature = alice.sign(b"1/7 7/12")
>>> verify_signature(alice.public_key, signature, b"1/7 7/12")
True
>>> verify_signature(alice.public_key, signature, b"1/7 7/13")
False
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import lru_cache
from typing import Final

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from engine.clause import N_, Clause
from protocol.errors import LocalProtocolError

RandomSource = Callable[[int], bytes]
"""``random_source(n)`` returns *n* unpredictable bytes (e.g. :func:`secrets.token_bytes`)."""

KEY_BYTES: Final = 32
SIGNATURE_BYTES: Final = 64


class Identity:
    """A private Ed25519 key; ``public_key`` (32 raw bytes) is what the other seats know."""

    __slots__ = ("_private", "public_key")

    def __init__(self, private_bytes: bytes) -> None:
        if len(private_bytes) != KEY_BYTES:
            raise LocalProtocolError(Clause.of(N_("an Ed25519 key is {size} bytes, not {given}"),
                                               size=KEY_BYTES,
                                               given=len(private_bytes)))  # fmt: skip
        self._private = Ed25519PrivateKey.from_private_bytes(private_bytes)
        self.public_key: bytes = self._private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )

    @classmethod
    def generate(cls, random_source: RandomSource) -> Identity:
        """A new key made from 32 bytes of *random_source*."""
        return cls(_take(random_source, KEY_BYTES))

    def private_bytes(self) -> bytes:
        """The raw 32-byte private key (what the client keeps in its config folder)."""
        return self._private.private_bytes(
            serialization.Encoding.Raw,
            serialization.PrivateFormat.Raw,
            serialization.NoEncryption(),
        )

    def sign(self, data: bytes) -> bytes:
        """The 64-byte Ed25519 signature of *data*."""
        return self._private.sign(data)

    def __repr__(self) -> str:
        return f"Identity(public_key={self.public_key.hex()[:16]}…)"


@lru_cache(maxsize=256)
def public_key_object(public_key: bytes) -> Ed25519PublicKey:
    """The parsed key (cached: parsing costs more than the hash in a verification)."""
    return Ed25519PublicKey.from_public_bytes(public_key)


def verify_signature(public_key: bytes, signature: bytes, data: bytes) -> bool:
    """Whether *signature* is *public_key*'s signature of *data* (never raises).

    A key or a signature's R of small order is refused before the library sees it: with the
    identity point as key, (R = identity, S = 0) is a valid signature of every message, and
    the library used here does not refuse it (libsodium does).

    >>> identity_point = bytes([1]) + bytes(31)
    >>> verify_signature(identity_point, identity_point + bytes(32), b"anything")
    False
    """
    if len(signature) != SIGNATURE_BYTES or small_order(public_key) or small_order(signature[:32]):
        return False
    try:
        public_key_object(public_key).verify(signature, data)
    except (InvalidSignature, ValueError):
        return False
    return True


# Edwards25519 (RFC 8032 §5.1): -x² + y² = 1 + d·x²·y² over GF(P).
_P: Final = 2**255 - 19
_D: Final = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1: Final = pow(2, (_P - 1) // 4, _P)


# The y of the points of order 8 (libsodium's blocklist); the other points of small order
# are the identity (y = 1), the point of order 2 (y = -1) and the two of order 4 (y = 0).
_Y8: Final = int.from_bytes(
    bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"), "little"
)
_SMALL_ORDER_Y: Final = frozenset({1, _P - 1, 0, _Y8, _P - _Y8})


def small_order(point: bytes) -> bool:
    """Whether the 32-byte Ed25519 encoding *point* is a point whose order divides 8 (the
    identity among them), in any of its encodings: such a key or R lets one signature hold
    for many messages, so neither is ever taken. A point's y alone says it (the sign bit of
    x does not change the order; a y of P or more names y - P).

    >>> small_order(bytes([1]) + bytes(31)), small_order(bytes(32))
    (True, True)
    >>> small_order(Identity.generate(seeded_source("demo")).public_key)
    False
    >>> all(_eight_times_is_identity(y) for y in _SMALL_ORDER_Y)
    True
    """
    y = int.from_bytes(point[:KEY_BYTES], "little") & ((1 << 255) - 1)
    return len(point) == KEY_BYTES and y % _P in _SMALL_ORDER_Y


def _eight_times_is_identity(y: int) -> bool:
    """Whether the points of coordinate *y* times 8 are the identity: what
    :data:`_SMALL_ORDER_Y` must hold, computed (slowly) from the curve's equation."""
    u, v = (y * y - 1) % _P, (_D * y * y + 1) % _P
    x2 = u * pow(v, _P - 2, _P) % _P
    x = pow(x2, (_P + 3) // 8, _P)
    if (x * x - x2) % _P != 0:
        x = x * _SQRT_M1 % _P
        if (x * x - x2) % _P != 0:
            return False  # no point has this y
    for _ in range(3):  # doubling (complete for this curve): x·2, 4, 8
        xy = x * y % _P
        dxy = _D * xy * xy % _P
        x, y = (
            2 * xy * pow(1 + dxy, _P - 2, _P) % _P,
            (y * y + x * x) * pow(1 - dxy, _P - 2, _P) % _P,
        )
    return x == 0 and y == 1


class SignatureMemo:
    """Signature checks already passed, so a message is checked once per process, not per seat.

    The in-memory sessions of a local match share one: every seat still validates every
    message, but the Ed25519 verification of one exact (key, signature, bytes) triple — a pure
    function — is computed once. Only successes are remembered.
    """

    __slots__ = ("_passed",)

    def __init__(self) -> None:
        self._passed: set[tuple[bytes, bytes, bytes]] = set()

    def __call__(self, public_key: bytes, signature: bytes, data: bytes) -> bool:
        key = (public_key, signature, data)
        if key in self._passed:
            return True
        if not verify_signature(public_key, signature, data):
            return False
        self._passed.add(key)
        return True


def seeded_source(seed: str | bytes | int) -> RandomSource:
    """A deterministic byte source (SHA-256 in counter mode): for tests and demos, and,
    keyed by a secret of 32 random bytes, for a seat's dice chains that must be drawn
    again after a restart (as unpredictable as the secret).

    >>> source = seeded_source(7)
    >>> len(source(40)), seeded_source(7)(40) == seeded_source(7)(40)
    (40, True)
    """
    if isinstance(seed, int):
        seed = str(seed)
    key = hashlib.sha256(
        b"tablier-seeded-source\0" + (seed.encode() if isinstance(seed, str) else seed)
    )
    state = {"counter": 0}

    def source(count: int) -> bytes:
        out = bytearray()
        while len(out) < count:
            block = key.copy()
            block.update(state["counter"].to_bytes(8, "big"))
            state["counter"] += 1
            out += block.digest()
        return bytes(out[:count])

    return source


def _take(random_source: RandomSource, count: int) -> bytes:
    data = random_source(count)
    if not isinstance(data, bytes) or len(data) != count:
        raise LocalProtocolError(Clause.of(N_("the random source must return {size} bytes"),
                                           size=count))  # fmt: skip
    return data
