"""The code-quality bar the project promises: ruff clean everywhere, mypy --strict on every
package (engine, protocol, relay and client, as pyproject.toml configures it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_each_bound_of_protocol_bounds_is_stated_there_only() -> None:
    """A bound is stated once (issue 28, *one gate*): a module of the client, engine or
    protocol that needs one imports it from protocol.bounds. The chat panel had its own
    MAX_CHAT_CHARS = 500, free to drift from the one the protocol refuses past. (The relay,
    which may import nothing of the protocol, keeps its own, tied to these by its tests.)"""
    import ast

    tree = ast.parse((ROOT / "protocol" / "bounds.py").read_text(encoding="utf-8"))
    stated = {node.target.id for node in tree.body
              if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}  # fmt: skip
    found = []
    for package in ("engine", "protocol", "client"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path == ROOT / "protocol" / "bounds.py":
                continue  # (what it takes from protocol.clock is stated there, once)
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                assigned = isinstance(node, ast.Assign)
                annotated = isinstance(node, ast.AnnAssign)
                targets = node.targets if assigned else [node.target] if annotated else []
                found += [f"{path.relative_to(ROOT)}: {target.id}" for target in targets
                          if isinstance(target, ast.Name) and target.id in stated]  # fmt: skip
    assert found == []
