"""The dice of a throw, derived from every seat's revealed link (docs/fair-dice.md).

Derivation ``tablier-dice/1``: ``block = SHA-256(match id ‖ throw index as 8 bytes big-endian
‖ link of seat 0 ‖ link of seat 1 ‖ …)``; read its bytes in order, skip any byte ≥ 252
(so that 252 = 6 * 42 values remain and every face is equally likely), and turn each kept
byte *b* into the die ``b % 6 + 1``. Should 32 bytes not give enough dice (probability below
10⁻⁵⁰ for two dice), the next block is ``SHA-256(previous block)``.

>>> derive_dice(bytes(32), 0, (bytes(32), bytes(32)), 2)
(4, 4)
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Final

DICE_DERIVATION: Final = "tablier-dice/1"
"""The name recorded in every match header; a verifier refuses derivations it does not know."""

REJECT_FROM: Final = 252


def derive_dice(
    match_id: bytes, throw_index: int, links: Sequence[bytes], count: int
) -> tuple[int, ...]:
    """*count* dice for throw *throw_index* from the seats' *links* in seat order."""
    block = hashlib.sha256(match_id + throw_index.to_bytes(8, "big") + b"".join(links)).digest()
    dice: list[int] = []
    while True:
        for byte in block:
            if byte < REJECT_FROM:
                dice.append(byte % 6 + 1)
                if len(dice) == count:
                    return tuple(dice)
        block = hashlib.sha256(block).digest()
