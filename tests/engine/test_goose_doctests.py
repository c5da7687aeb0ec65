"""The runnable examples in the Goose engine's docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "engine.goose",
    "engine.goose.board",
    "engine.goose.events",
    "engine.goose.game",
    "engine.goose.notation",
    "engine.goose.options",
    "engine.goose.turns",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
