"""The docstring examples of the engine's own modules (its games' are run beside them)."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from engine import clause, errors


@pytest.mark.parametrize("module", [clause, errors], ids=lambda module: module.__name__)
def test_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
