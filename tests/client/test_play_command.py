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


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (["play", "jacquet"], ["the computer's strength (default 1)",
                               "points to win the match (default 1)"]),
        (["play", "goose"], ["tokens each player puts in the pot (default 4)",
                             "tokens each hazard costs (default 1)"]),
        (["host", "goose"], ["tokens each player puts in the pot (default 4)"]),
        (["host", "jacquet"], ["points to win the match (default 1)",
                               "strength with --computer (default 1)"]),
        (["selfplay"], ["goose: rule set (default daumont)",
                        "jacquet: bear-off rule (default backgammon)"]),
    ],
)  # fmt: skip
def test_every_option_s_help_says_its_default(
    command: list[str], said: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 29, item 11: the defaults a newcomer looked for in --help."""
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    for words in said:
        assert words in shown


def test_host_goose_offers_no_jacquet_level(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["host", "goose", "--help"])
    assert "--level" not in capsys.readouterr().out
