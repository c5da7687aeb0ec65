"""The docstring examples of engine.bot run and stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import engine.bot

SUBMODULES = pkgutil.iter_modules(engine.bot.__path__, engine.bot.__name__ + ".")
MODULES = ["engine.bot", *sorted(info.name for info in SUBMODULES)]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 or name == "engine.bot.weights"
    assert result.failed == 0
