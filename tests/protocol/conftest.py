"""Shared fixtures: matches with known identities, so a test can speak as any seat."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from protocol.identity import Identity, seeded_source
from protocol.local import LocalMatch


@pytest.fixture
def make_match() -> Callable[..., tuple[LocalMatch, list[Identity]]]:
    def make(game: str = "jacquet", options: dict | None = None, players: int = 2,
             seed: str = "t", time_limit_ms: int = 60_000) -> tuple[LocalMatch, list[Identity]]:
        source = seeded_source(seed)
        identities = [Identity.generate(source) for _ in range(players)]
        names = tuple(f"P{seat}" for seat in range(players))
        match = LocalMatch.create(game, options or {}, names=names, random_source=source,
                                  now=0, identities=identities, time_limit_ms=time_limit_ms)
        return match, identities

    return make
