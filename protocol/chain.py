"""Hash chains: each seat's pre-committed supply of dice shares (see docs/fair-dice.md).

A chain starts from a random seed ``x0`` and hashes it forward: ``x(i+1) = SHA-256(x(i))``.
The seat publishes the last element, the *tip*, at setup. Links are then revealed backwards,
one per throw; anyone checks a link by hashing it once and comparing with the previous link.
Nobody can produce the next link early (it is a SHA-256 preimage), and its owner cannot
change it (it is fixed by the tip).

>>> from protocol.identity import seeded_source
>>> chain = HashChain.generate(seeded_source("doc"))
>>> len(chain), link_follows(chain.link(0), chain.tip), link_follows(chain.link(1), chain.link(0))
(1024, True, True)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Final

from engine.clause import N_, Clause
from protocol.errors import LocalProtocolError
from protocol.identity import RandomSource, _take

CHAIN_LINKS: Final = 1024
"""Links per chain: a seat renews its commitment when it reveals the last one."""

LINK_BYTES: Final = 32


@dataclass(frozen=True, slots=True)
class HashChain:
    """A seat's private chain; ``hashes[-1]`` is the public tip, ``hashes[0]`` the seed."""

    hashes: tuple[bytes, ...]

    @classmethod
    def generate(cls, random_source: RandomSource, length: int = CHAIN_LINKS) -> HashChain:
        """A fresh chain of *length* revealable links from 32 bytes of *random_source*."""
        return cls.from_seed(_take(random_source, LINK_BYTES), length)

    @classmethod
    def from_seed(cls, seed: bytes, length: int = CHAIN_LINKS) -> HashChain:
        """The chain grown from *seed* (kept secret: a seat drawing its chain again)."""
        if length < CHAIN_LINKS:
            raise LocalProtocolError(Clause.of(N_("a chain needs at least {least} links, not "
                                                  "{length}"), least=CHAIN_LINKS,
                                               length=length))  # fmt: skip
        if len(seed) != LINK_BYTES:
            raise LocalProtocolError(Clause.of(N_("a chain's seed is {size} bytes, not {given}"),
                                               size=LINK_BYTES, given=len(seed)))  # fmt: skip
        current = seed
        hashes = [current]
        for _ in range(length):
            current = hashlib.sha256(current).digest()
            hashes.append(current)
        return cls(tuple(hashes))

    @property
    def tip(self) -> bytes:
        """The commitment published at setup (or in a renewal)."""
        return self.hashes[-1]

    def __len__(self) -> int:
        """How many links can be revealed."""
        return len(self.hashes) - 1

    def link(self, index: int) -> bytes:
        """The *index*-th link to reveal (0 is revealed first; it hashes to the tip)."""
        if not 0 <= index < len(self):
            raise LocalProtocolError(Clause.of(N_("link {index} is beyond this chain of "
                                                  "{length}"), index=index,
                                               length=len(self)))  # fmt: skip
        return self.hashes[len(self) - 1 - index]


def link_follows(link: bytes, previous: bytes) -> bool:
    """Whether *link* is the preimage of *previous* (the tip, or the last revealed link)."""
    return len(link) == LINK_BYTES and hashlib.sha256(link).digest() == previous


class Reveals:
    """A seat's own links, revealed in order; the chain renews itself from *random_source*
    when its last link goes (so a seat rebuilt from the same source draws the same chains).

    >>> from protocol.identity import seeded_source
    >>> chain = HashChain.generate(seeded_source("reveals-doc"))
    >>> reveals = Reveals(chain, None)
    >>> link, renew = reveals.next()
    >>> link_follows(link, chain.tip), renew
    (True, None)
    """

    def __init__(self, chain: HashChain, random_source: RandomSource | None) -> None:
        self._chain = chain
        self._revealed = 0
        self._random_source = random_source

    def next(self) -> tuple[bytes, bytes | None]:
        """The next link, and the new tip when it was the chain's last (renewed)."""
        last = self._revealed + 1 == len(self._chain)
        if last and self._random_source is None:
            raise LocalProtocolError(Clause.of(N_("renewing the dice chain needs a random "
                                                  "source")))  # fmt: skip
        link = self._chain.link(self._revealed)
        self._revealed += 1
        renew = None
        if last:
            assert self._random_source is not None
            self._chain = HashChain.generate(self._random_source)
            self._revealed = 0
            renew = self._chain.tip
        return link, renew

    def adopt(self, link: bytes, renew: bytes | None) -> None:
        """A link this seat revealed before a restart: move past it as it did then (a
        renewal draws the same chain again from the same random source)."""
        if link != self._chain.link(self._revealed):
            return  # not our next link: the match refuses it as a replay or a forgery
        _, renewed = self.next()
        if renewed != renew:
            raise LocalProtocolError(Clause.of(N_("this seat's renewed dice chain cannot be "
                                                  "rebuilt: the random source differs from the "
                                                  "one that renewed it")))  # fmt: skip
