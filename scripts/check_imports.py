"""Import every module of the project on its own, each in a fresh state of the project's
packages: an import order that only works after another module was loaded is caught here.

Run by ``scripts/lint`` (not inside the test run: it imports the whole project once per
module, a minute and more of a test run's time). Exits 1 naming each module that fails.

Usage: ``python scripts/check_imports.py``
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "protocol", "relay", "client")
NOT_IMPORTED = {"relay.__main__"}  # it runs the relay when imported


def modules() -> list[str]:
    """Every module of the project's packages, by dotted name, in a stated order."""
    names = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            names.append(".".join(parts))
    return [name for name in names if name not in NOT_IMPORTED]


def main() -> int:
    sys.path.insert(0, str(ROOT))
    failures = []
    for name in modules():
        for loaded in [m for m in sys.modules if m.split(".")[0] in PACKAGES]:
            del sys.modules[loaded]
        try:
            importlib.import_module(name)
        except Exception as error:  # every failure is reported, by module
            failures.append(f"{name}: {type(error).__name__}: {error}")
    for failure in failures:
        print(f"check_imports: {failure}", file=sys.stderr)
    print(f"check_imports: {len(modules())} modules, {len(failures)} failed to import alone")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
