"""The docs name real things: every module, dotted name and repository path that
docs/*.md and README.md cite (in backticks, in links, in a fenced example's imports) exists.

A doc that names a module moved or deleted sends its reader (a person, another implementation)
looking for what is not there; this test fails on the first commit that makes a doc lie, and
says which doc, which line and which reference.

What counts as a reference (anything else in backticks is prose, a command or a value):

- a dotted name whose first part is one of the project's packages (``relay.limits.WATCHING_EVERY``,
  ``client.net.catchup``): the longest module prefix is imported, the rest looked up with
  ``getattr``;
- a path whose first part is a file or folder at the repository's root (``relay/core.py``,
  ``deploy/nginx-*.conf`` as a glob, ``tests/x.py::test_name`` naming a test in that file,
  ``protocol/export.py:88`` a line that exists), or a bare file name with a suffix the project
  uses (``bench_bot.py``: some file of the repository has that name); a command's first word
  (``scripts/bench_bot.py --players 3,2``) is a path like any other;
- a link's target that is not a URL, relative to the doc;
- outside backticks, a path under one of the repository's folders (``deploy/redis-tablier.conf``)
  or a dotted name under one of the packages (``protocol.compare.compare``);
- ``Class.attribute`` (``RelayLink._pump``, ``RelayServer.close()``): a class of the project
  so named has it;
- ``from X import Y`` in a fenced example.
"""

from __future__ import annotations

import importlib
import inspect
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "protocol", "relay", "client", "tests", "scripts")
SUFFIXES = (".py", ".md", ".tcss", ".toml", ".cfg", ".conf", ".json", ".txt", ".po", ".pot")

_BACKTICKS = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_FROM_IMPORT = re.compile(r"^\s*from ([\w.]+) import ([\w, ]+)")
_DOTTED = re.compile(r"[a-z_][a-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+")
_CLASS_ATTRIBUTE = re.compile(r"([A-Z][A-Za-z0-9]+)\.([a-z_][a-z0-9_]*)(\(\))?")
_PATH_WORD = re.compile(r"[\w.*-]+(/[\w.*-]*)*(::\w+|:\d+)?")
# Outside backticks: a path under one of the repository's folders, or a package's dotted name.
_PROSE = re.compile(
    r"(?<![\w./~<>-])((?:client|engine|protocol|relay|tests|scripts|docs|deploy|requirements)"
    r"(?:/[\w*-]+(?:\.[\w*-]+)*)+/?|(?:client|engine|protocol|relay)(?:\.[A-Za-z_]\w*)+)"
)


@dataclass(frozen=True, slots=True)
class Reference:
    doc: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.doc}:{self.line}: `{self.text}`"


def docs() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@cache
def tracked() -> frozenset[str]:
    """The repository's files (those git tracks, and those added but not yet tracked)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return frozenset(path for path in listed if (ROOT / path).exists())


@cache
def top_level() -> frozenset[str]:
    return frozenset(path.split("/")[0] for path in tracked())


def references(path: Path) -> Iterator[Reference]:
    """Every backticked span, link target and example import of one doc, with its line."""
    doc = path.relative_to(ROOT).as_posix()
    fenced = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            if found := _FROM_IMPORT.match(line):
                for name in found.group(2).split(","):
                    yield Reference(doc, number, f"{found.group(1)}.{name.strip()}")
            continue
        for found in _BACKTICKS.finditer(line):
            yield Reference(doc, number, found.group(1))
        for found in _LINK.finditer(line):
            yield Reference(doc, number, f"link:{found.group(1)}")
        prose = _LINK.sub("]", _BACKTICKS.sub("", line))
        for found in _PROSE.finditer(prose):
            yield Reference(doc, number, found.group(1).rstrip("."))


def problem(reference: Reference) -> str | None:
    """Why *reference* names nothing that exists (None: it resolves, or it is no reference)."""
    text = reference.text
    if text.startswith("link:"):
        return _link_problem(reference, text.removeprefix("link:"))
    if _DOTTED.fullmatch(text) and text.split(".")[0] in PACKAGES:
        return _dotted_problem(text)
    if found := _CLASS_ATTRIBUTE.fullmatch(text):
        return _class_attribute_problem(found.group(1), found.group(2))
    word = text.split()[0]
    if _PATH_WORD.fullmatch(word):
        return _path_problem(word)
    return None


def _dotted_problem(name: str) -> str | None:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        module_name = ".".join(parts[:cut])
        try:
            found: object = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name is not None and not module_name.startswith(error.name):
                return f"importing {module_name} fails: {error}"
            continue
        for depth, attribute in enumerate(parts[cut:], start=cut):
            if not hasattr(found, attribute):
                return f"{'.'.join(parts[:depth])} has no {attribute!r}"
            found = getattr(found, attribute)
        return None
    return f"no module {parts[0]}"


@cache
def project_classes() -> dict[str, list[str]]:
    """Every class the packages define, by name: the modules that define one so named."""
    classes: dict[str, list[str]] = {}
    for package in ("engine", "protocol", "relay", "client"):
        for path in sorted((ROOT / package).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            for found in re.finditer(r"^\s*class (\w+)\b", path.read_text(), re.MULTILINE):
                classes.setdefault(found.group(1), []).append(module.removesuffix(".__init__"))
    return classes


def _class_attribute_problem(name: str, attribute: str) -> str | None:
    """``Class.attribute``: some class of the project so named has it (a method, a field, a
    property, or an attribute its methods set on ``self``)."""
    modules = project_classes().get(name)
    if not modules:
        return f"no class {name} in the project"
    for module in modules:
        found = getattr(importlib.import_module(module), name, None)
        if not isinstance(found, type):
            continue
        annotated = any(attribute in getattr(k, "__annotations__", {}) for k in found.__mro__)
        if hasattr(found, attribute) or annotated:
            return None
        if re.search(rf"\bself\.{attribute}\b\s*[:=]", inspect.getsource(found)):
            return None
    return f"{name} (in {', '.join(modules)}) has no {attribute!r}"


def _path_problem(word: str) -> str | None:
    test_name: str | None = None
    line: int | None = None
    if "::" in word:
        word, test_name = word.split("::", 1)
    elif re.fullmatch(r".+:\d+", word):
        word, number = word.rsplit(":", 1)
        line = int(number)
    if "/" not in word:
        if not word.endswith(SUFFIXES) or word.startswith("."):
            return None
        if not any(Path(path).name == word for path in tracked()):
            return "no file of the repository has that name"
        return None
    if word.split("/")[0] not in top_level():
        return None  # a path elsewhere (~/.local/..., <data dir>/..., /dev/zero)
    matches = sorted(ROOT.glob(word.rstrip("/"))) if "*" in word else [ROOT / word]
    matches = [found for found in matches if found.exists()]
    if not matches:
        return "no such path in the repository"
    if test_name is not None and not re.search(
        rf"^\s*(async )?def {re.escape(test_name)}\(", matches[0].read_text(), re.MULTILINE
    ):
        return f"{word} has no test {test_name}"
    if line is not None and len(matches[0].read_text().splitlines()) < line:
        return f"{word} has no line {line}"
    return None


def _link_problem(reference: Reference, target: str) -> str | None:
    if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
        return None  # a URL, or a place in the same page
    path = (ROOT / reference.doc).parent / target.split("#")[0]
    return None if path.exists() else "the link's target does not exist"


def test_every_doc_reference_resolves() -> None:
    broken = [
        f"{reference}: {why}"
        for doc in docs()
        for reference in references(doc)
        if (why := problem(reference)) is not None
    ]
    assert not broken, "references in the docs that name nothing:\n" + "\n".join(broken)


@pytest.mark.parametrize(
    ("text", "broken"),
    [
        ("relay.limits.WATCHING_EVERY", False),
        ("relay.limits.NO_SUCH_BOUND", True),
        ("client.net.no_such_module", True),
        ("relay/core.py", False),
        ("relay/no_such.py", True),
        ("deploy/nginx-*.conf", False),
        ("deploy/apache-*.conf", True),
        ("tests/test_docs.py::test_every_doc_reference_resolves", False),
        ("tests/test_docs.py::test_nothing_of_the_kind", True),
        ("scripts/lint --fix", False),
        ("link:relay-protocol.md", False),
        ("link:../README.md#running-a-relay", False),
        ("link:relay-protocool.md", True),
        ("game.awaiting", False),
        ("RelayLink._pump", False),
        ("RelayServer.core", False),  # set in __init__
        ("RelayLink._no_such_method", True),
        ("NoSuchClass.method", True),  # an attribute of a variable, not the project's
        ("~/.local/share/tablier/matches/", False),
    ],
)
def test_the_resolver_tells_a_broken_reference(text: str, broken: bool) -> None:
    """The check itself can fail: each kind of reference, right and wrong."""
    assert (problem(Reference("docs/x.md", 1, text)) is not None) is broken
