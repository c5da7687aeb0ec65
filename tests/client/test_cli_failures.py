"""The ``tablier`` command as a newcomer meets it: every failure says so in a sentence and
exits non-zero, at once, having written nothing; every help text describes and points to
what exists. Real ``tablier`` processes throughout (the network commands in a terminal:
tests/network/test_cli_rooms.py)."""

from __future__ import annotations

import argparse
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from client.cli import build_parser
from protocol.selfplay import selfplay
from tests.client.terminal import ROOT, TABLIER, environment

ROOM, TOKEN = "R" * 22, "T" * 43


def tablier(
    *args: str, home: Path, stdin: int | None = subprocess.DEVNULL
) -> subprocess.CompletedProcess[str]:
    """``tablier *args*`` run from a script: no terminal anywhere."""
    return subprocess.run([*TABLIER, *args], stdin=stdin, capture_output=True, text=True,
                          env=environment(home), cwd=ROOT, timeout=60)  # fmt: skip


def written(home: Path) -> list[Path]:
    """Every file Tablier left under *home* (its data folder included)."""
    return sorted(path for path in home.rglob("*") if path.is_file())


# -- no terminal ----------------------------------------------------------------------------


def _replay_log(home: Path) -> str:
    log = home / "played.tablier"
    selfplay("jacquet", {}, seed="cli", start_time=0, log_path=log)
    return str(log)


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (["play", "goose", "--log", "{home}/game.tablier"], "tablier play"),
        ([], "tablier"),
        (["host", "jacquet", "--name", "Ada"], "tablier host"),
        (["join", f"tablier://127.0.0.1:9/{ROOM}?player={TOKEN}"], "tablier join"),
        (["watch", f"tablier://127.0.0.1:9/{ROOM}?watch={TOKEN}"], "tablier watch"),
        (["replay", "{log}"], "tablier replay"),
    ],
)
def test_without_a_terminal_the_app_is_refused_at_once_and_nothing_is_written(
    tmp_path: Path, args: list[str], command: str
) -> None:
    log = _replay_log(tmp_path) if "{log}" in args else ""
    before = written(tmp_path)
    args = [arg.format(home=tmp_path, log=log) for arg in args]
    done = tablier(*args, home=tmp_path)  # stdin is /dev/null, stderr a pipe
    assert done.returncode == 2
    instead = "`tablier verify` or `tablier log export`" if command.endswith("replay") else (
        "`tablier selfplay` or `tablier engine`"
    )
    assert done.stderr == f"{command} needs an interactive terminal; for scripts use {instead}\n"
    assert done.stdout == ""
    assert written(tmp_path) == before


def test_a_terminal_for_keys_but_a_file_for_the_screen_is_refused_too(tmp_path: Path) -> None:
    """``tablier play goose 2>out.txt``: the keys come from a terminal, the drawing would go
    into the file."""
    controller, terminal = os.openpty()
    try:
        done = tablier("play", "goose", home=tmp_path, stdin=terminal)
    finally:
        os.close(controller)
        os.close(terminal)
    assert done.returncode == 2 and "tablier play needs an interactive terminal" in done.stderr
    assert written(tmp_path) == []


# -- bad arguments --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["selfplay", "goose", "--players", "99", "--out", "{home}/x.tablier"],
         "tablier selfplay: the Goose is played by 2 to 15 players, not 99"),
        (["selfplay", "goose", "--players", "1", "--out", "{home}/x.tablier"],
         "tablier selfplay: the Goose is played by 2 to 15 players, not 1"),
        (["selfplay", "jacquet", "--players", "3", "--out", "{home}/x.tablier"],
         "tablier selfplay: jacquet is played by 2 players"),
        (["play", "goose", "--names", "A,,B"],
         "tablier play: --names 'A,,B' has an empty name: fill it in or remove a comma"),
        (["play", "jacquet", "--names", "Ann,"],
         "tablier play: --names 'Ann,' has an empty name"),
        (["play", "goose", "--computer", "1,1"],
         "tablier play: --computer names seat 1 twice: give each seat once"),
        (["selfplay", "goose", "--out", "{home}/missing/deeper/x.tablier"],
         "tablier selfplay: --out {home}/missing/deeper/x.tablier: there is no folder "
         "{home}/missing/deeper; create it first, or choose another place"),
        (["play", "goose", "--log", "{home}/missing/x.tablier"],
         "tablier play: --log {home}/missing/x.tablier: there is no folder {home}/missing"),
        (["join", f"tablier://h:1/{ROOM}?player={TOKEN}", "--log", "{home}/missing/x.tablier"],
         "tablier join: --log {home}/missing/x.tablier: there is no folder"),
        (["host", "goose", "--invite-file", "{home}/missing/invites.txt"],
         "tablier host: --invite-file {home}/missing/invites.txt: there is no folder"),
        # An invite that lost its end (a terminal's line cut at its edge): said so, with
        # the whole invite's length (a player's for join, a spectator's for watch).
        (["join", f"tablier://h:1/{ROOM}?player={TOKEN[:30]}"],
         "tablier join: this invite looks cut short: it should be 87 characters, not 74"),
        (["watch", f"tablier://h:1/{ROOM}"],
         "tablier watch: this invite looks cut short: it should be 86 characters, not 36"),
        (["join", f"tablier://h:1/{ROOM}?player={TOKEN}", "--connect-timeout", "0"],
         "--connect-timeout: a number of seconds from 0 to 3600, not '0'"),
    ],
)  # fmt: skip
def test_bad_arguments_are_refused_in_one_sentence_and_create_nothing(
    tmp_path: Path, args: list[str], message: str
) -> None:
    done = tablier(*(arg.format(home=tmp_path) for arg in args), home=tmp_path)
    assert done.returncode == 2
    assert message.format(home=tmp_path) in done.stderr
    assert len(done.stderr.splitlines()) <= 2 and "Traceback" not in done.stderr
    assert written(tmp_path) == [] and not (tmp_path / "missing").exists()


def test_goose_has_one_default_player_count() -> None:
    parser = build_parser()
    from client.commands.play import goose_setup

    assert len(goose_setup(parser.parse_args(["play", "goose"])).names) == 3
    assert parser.parse_args(["host", "goose"]).players == 3


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                yield from _parsers(child)


def test_every_help_describes_its_command_and_points_to_files_that_exist() -> None:
    for parser in _parsers(build_parser()):
        text = parser.format_help()
        assert parser.description, f"`{parser.prog} --help` has no description"
        assert "RULES.md" not in text and "RULES " not in text, parser.prog
        for mentioned in {word.strip(".,;:()") for word in text.split() if ".md" in word}:
            assert (ROOT / mentioned).is_file(), f"{parser.prog} --help names {mentioned}"


def test_engine_help_lists_every_engine_command(tmp_path: Path) -> None:
    done = tablier("engine", "--help", home=tmp_path)
    assert done.returncode == 0
    for command in ("goose play", "goose simulate", "jacquet moves", "jacquet bot"):
        assert f"tablier engine {command}" in done.stdout
