"""Every ``--help``, in both languages, fits an 80-column terminal (issue 29, item 4: a
newcomer's first screens were cut at the edge): argparse wraps the options' help, and
:func:`client.commands.argparse_words.reflowed` the descriptions kept as written."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

import pytest

from client import i18n
from client.cli import build_parser

WIDTH = 80


def commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every parser under *parser*, with the words that reach it. (argparse offers no public
    walk of its subcommands: the test reads its actions.)"""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in sorted(action.choices.items()):
                yield from commands(child, (*path, name))


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_help_fits_eighty_columns(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(WIDTH))  # what argparse (shutil) reads for the width
    i18n.use(language)
    try:
        found = list(commands(build_parser()))
        too_wide = [
            f"tablier {' '.join(path)} --help: {len(line)} characters: {line!r}"
            for path, parser in found
            for line in parser.format_help().splitlines()
            if len(line) > WIDTH
        ]
    finally:
        i18n.use("en")
    assert len(found) > 15  # every command, the engine's subcommands included
    assert not too_wide, "\n".join(too_wide)


@pytest.mark.parametrize(("language", "lobby"), [("en", "lobby"), ("fr", "salon")])
def test_lang_says_where_the_lobbys_choice_stands(
    language: str, lobby: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lobby's Language list is saved for the next start (issue 29): every command's
    ``--lang`` help names it among the defaults, and says --lang leaves it as it is."""
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    i18n.use(language)
    try:
        helps = {
            " ".join(path): " ".join(parser.format_help().split())
            for path, parser in commands(build_parser())
        }
    finally:
        i18n.use("en")
    said = re.compile(rf"--lang {{en,fr}} (.*?TABLIER_LANG.*?{lobby}.*?--lang.*?{lobby}.*?)"
                      rf"(?: -|$)")  # fmt: skip
    missing = [path for path, text in helps.items() if not said.search(text)]
    assert not missing, missing
