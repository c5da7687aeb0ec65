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
    """Whether *signature* is *public_key*'s signature of *data* (never raises)."""
    try:
        public_key_object(public_key).verify(signature, data)
    except (InvalidSignature, ValueError):
        return False
    return True


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
        raise LocalProtocolError(Clause.of(N_("the random source must return {count} bytes"),
                                           count=count))  # fmt: skip
    return data
