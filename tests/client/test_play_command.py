"""``tablier play``: options become a game setup; bad options are refused before any screen."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from client.cli import build_parser, main
from client.commands.play import goose_setup, jacquet_setup
from client.setup import GooseSetup, JacquetSetup


def test_goose_options_make_the_setup() -> None:
    args = build_parser().parse_args(
        ["play", "goose", "--names", "Ann, Ben,Cy", "--computer", "1,3", "--rules", "1792",
         "--ante", "2", "--fee", "0", "--no-animation", "--log", "game.tablier"]
    )  # fmt: skip
    assert goose_setup(args) == GooseSetup(
        ("Ann", "Ben", "Cy"), frozenset({0, 2}), rules="1792", ante=2, fee=0
    )
    assert args.no_animation
    assert str(args.log) == "game.tablier"


def test_vs_computer_gives_the_computer_every_seat_but_the_first() -> None:
    goose = build_parser().parse_args(["play", "goose", "--players", "4", "--vs-computer"])
    assert goose_setup(goose).computer_seats == {1, 2, 3}
    jacquet = build_parser().parse_args(["play", "jacquet", "--vs-computer", "--level", "2"])
    assert jacquet_setup(jacquet) == JacquetSetup(computer_seats=frozenset({1}), level=2)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["goose", "--players", "16"], "the Goose is played by 2 to 15 players, not 16"),
        (["goose", "--computer", "2,x"], "--computer takes seat numbers such as 1,3"),
        (["goose", "--players", "2", "--computer", "3"], "there is no seat 3"),
        (["goose", "--names", "Ann,ann"], "two players are called 'ann'"),
        (["goose", "--fee", "-1"], "the fee cannot be negative (-1)"),
        (["jacquet", "--names", "Solo"], "--names takes two names"),
        (["jacquet", "--match-to", "0"], "a match is played to 1 to 99 points, not 0"),
    ],
)
def test_bad_options_exit_2_with_a_plain_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *argv]) == 2
    error = capsys.readouterr().err
    assert error.startswith("tablier play: ")
    assert message in error


def test_help_answers_fast_without_loading_textual() -> None:
    code = (
        "import sys, contextlib, io\n"
        "from client.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--help'])\n"
        "assert 'textual' not in sys.modules, 'textual was imported'\n"
    )
    # What makes it fast: Textual (most of the start-up time) is not loaded for --help; the
    # time itself is measured by scripts/bench_first_paint.py, not asserted here.
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_log_path_that_is_a_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "goose", "--log", str(tmp_path)]) == 2
    assert f"--log {tmp_path} is a folder" in capsys.readouterr().err
