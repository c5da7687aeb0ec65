"""The docstring examples of engine.jacquet run and stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import engine.jacquet

MODULES = sorted(
    info.name
    for info in pkgutil.iter_modules(engine.jacquet.__path__, engine.jacquet.__name__ + ".")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
