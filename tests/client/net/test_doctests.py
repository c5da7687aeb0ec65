"""Every docstring example of the networked match's sans-I/O pieces runs and says what it
shows."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "client.game.driver",
    "client.game.score",
    "client.net.catchup",
    "client.net.failures",
    "client.net.outbox",
    "client.net.rematch",
    "client.net.roster",
    "client.net.spectators",
    "client.net.wire",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
