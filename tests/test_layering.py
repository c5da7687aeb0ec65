"""The architecture's walls, checked: the pure layers never pull in I/O frameworks."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

FORBIDDEN = ("textual", "websockets", "asyncio")


@pytest.mark.parametrize("package", ["engine", "protocol"])
def test_pure_package_imports_no_io_framework(package: str) -> None:
    code = (
        "import importlib, json, pkgutil, sys\n"
        f"pkg = importlib.import_module({package!r})\n"
        "for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "    importlib.import_module(info.name)\n"
        "print(json.dumps(sorted(m.split('.')[0] for m in sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    loaded = set(json.loads(result.stdout))
    assert not loaded & set(FORBIDDEN), f"{package} imports {sorted(loaded & set(FORBIDDEN))}"
