"""The architecture's walls, checked (../shared/ARCHITECTURE.md): who may import whom, no
import cycles (every module importing on its own is checked by ``scripts/check_imports.py``,
run by ``scripts/lint``).

The graph is read from the source (every import, those inside functions included; those under
``if TYPE_CHECKING:`` only name types and are left out), so a cycle hidden behind a
function-local import is found as surely as one at the top of a file.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "protocol", "relay", "client")
IO_FRAMEWORKS = {"textual", "websockets", "asyncio", "redis"}

# What each package must never import (its own names, and the outside world's).
FORBIDDEN: dict[str, set[str]] = {
    "engine": {"protocol", "relay", "client", "random", "time", *IO_FRAMEWORKS},
    "protocol": {"relay", "client", "random", "time", *IO_FRAMEWORKS},
    "relay": {"engine", "protocol", "client", "textual"},
    "client": set(),
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of the four packages, by its dotted name."""
    return {
        _module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def _runtime_imports(module: str, tree: ast.AST) -> Iterator[str]:
    """Names *module* imports when it runs (``if TYPE_CHECKING:`` blocks skipped)."""
    is_package = modules()[module].name == "__init__.py"
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor if is_package else anchor[:-1]
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:  # `from package import submodule` imports the submodule
                yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules() else base


def _runtime_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under *node* but those of ``if TYPE_CHECKING:`` blocks."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and getattr(child.test, "id", None) == "TYPE_CHECKING":
            for other in child.orelse:
                yield other
                yield from _runtime_nodes(other)
            continue
        yield child
        yield from _runtime_nodes(child)


@cache
def graph() -> dict[str, frozenset[str]]:
    """Module -> the project modules (or outside top-level names) it imports."""
    edges: dict[str, frozenset[str]] = {}
    for module, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges[module] = frozenset(name for name in _runtime_imports(module, tree) if name)
    return edges


@pytest.mark.parametrize("package", PACKAGES)
def test_no_package_crosses_a_wall(package: str) -> None:
    crossings = sorted(
        f"{module} imports {name}"
        for module, names in graph().items()
        if module.split(".")[0] == package
        for name in names
        if name.split(".")[0] in FORBIDDEN[package]
    )
    assert not crossings, crossings


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                found.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target)
        path.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return found


def test_no_module_imports_itself_round_a_cycle() -> None:
    internal = {
        module: {name for name in names if name in modules() and name != module}
        for module, names in graph().items()
    }
    assert not _cycles(internal), _cycles(internal)


def test_the_clients_parts_form_no_cycle() -> None:
    """``client.app``, ``client.screens``, ``client.widgets``, ``client.game``,
    ``client.net``, ``client.commands``…: each part may lean on those below it only."""
    parts: dict[str, set[str]] = {}
    for module, names in graph().items():
        if module.startswith("client."):
            part = ".".join(module.split(".")[:2])
            for name in names:
                target = ".".join(name.split(".")[:2])
                if name.startswith("client.") and target != part:
                    parts.setdefault(part, set()).add(target)
    assert not _cycles(parts), _cycles(parts)


@pytest.mark.parametrize("package", ["engine", "protocol"])
def test_pure_package_loads_no_io_framework(package: str) -> None:
    """What the modules load at run time, not only what they name: no I/O framework."""
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
    assert not loaded & IO_FRAMEWORKS, f"{package} loads {sorted(loaded & IO_FRAMEWORKS)}"


def test_the_game_drivers_know_nothing_of_the_network() -> None:
    """``client.game`` (the drivers the screens play through) names nothing of
    ``client.net``, not even for types: the network's game is one driver among others, and
    what the screens show of a connection is the game's own word (``LinkStatus``)."""
    named = sorted(
        f"{module} names {node.module}"
        for module, path in modules().items()
        if module.startswith("client.game.")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("client.net")
    )
    assert not named, named
