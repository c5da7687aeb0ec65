"""Every docstring example in :mod:`protocol` runs and says what it shows."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import protocol

MODULES = sorted(info.name for info in pkgutil.iter_modules(protocol.__path__, "protocol."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
