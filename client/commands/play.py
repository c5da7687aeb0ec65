"""``tablier play goose|jacquet``: start a local game straight away (and the bare lobby)."""

from __future__ import annotations

import argparse
import gc
from pathlib import Path
from typing import Any

from client.commands.argparse_words import integer
from client.commands.game_options import add_goose_options
from client.commands.paths import check_new_file
from client.commands.terminal import without_terminal
from client.i18n import _, format_number
from client.setup import (
    BEAROFF_HELP,
    DEFAULT_GOOSE_NAMES,
    DEFAULT_JACQUET_NAMES,
    GOOSE_DEFAULT_PLAYERS,
    GOOSE_MAX_PLAYERS,
    GOOSE_MIN_PLAYERS,
    JACQUET_BEAROFF_RULES,
    JACQUET_DEFAULT_MATCH_TO,
    JACQUET_LEVELS,
    GameSetup,
    GooseSetup,
    JacquetSetup,
    SessionSettings,
    SetupError,
)


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "play",
        help=_("play a local game: hot-seat on this terminal or against the computer"),
        description=_(
            "Start a local game at once, skipping the lobby. Every game writes a match log "
            "that `tablier verify` accepts."
        ),
    )
    games = parser.add_subparsers(title=_("games"), metavar=_("GAME"), required=True)

    goose = games.add_parser(
        "goose",
        help=_("Jeu de l'oie, 2 to 15 players"),
        description=_("Jeu de l'oie for 2 to 15 players; any seat may be played by the computer."),
    )
    who = goose.add_mutually_exclusive_group()
    who.add_argument(
        "--players",
        type=integer,
        metavar="N",
        help=_("number of players, {low} to {high}, with default names (default {default})").format(
            low=GOOSE_MIN_PLAYERS, high=GOOSE_MAX_PLAYERS, default=GOOSE_DEFAULT_PLAYERS
        ),
    )
    who.add_argument("--names", metavar="A,B,...", help=_("the players' names, in seat order"))
    goose.add_argument(
        "--computer",
        metavar=_("SEATS"),
        default="",
        help=_("seats the computer plays, numbered from 1 (e.g. 1,3)"),
    )
    goose.add_argument(
        "--vs-computer",
        action="store_true",
        help=_("the computer plays every seat but the first"),
    )
    add_goose_options(goose)
    _add_session_options(goose)
    goose.set_defaults(run=_run_goose)

    jacquet = games.add_parser(
        "jacquet",
        help=_("Jacquet, two players"),
        description=_("Jacquet for two: hot-seat, or against the computer."),
    )
    jacquet.add_argument("--names", metavar=_("WHITE,BLACK"), help=_("the two players' names"))
    jacquet.add_argument("--vs-computer", action="store_true", help=_("the computer plays black"))
    jacquet.add_argument(
        "--level", type=integer, choices=JACQUET_LEVELS, default=1,
        help=_("the computer's strength (default {default})").format(default=1),
    )
    jacquet.add_argument(
        "--match-to", type=integer, default=JACQUET_DEFAULT_MATCH_TO, metavar="N",
        help=_("points to win the match (default {default})").format(
            default=JACQUET_DEFAULT_MATCH_TO),
    )
    jacquet.add_argument("--bearoff", choices=JACQUET_BEAROFF_RULES, default="backgammon",
                         help=_(BEAROFF_HELP))  # fmt: skip
    jacquet.add_argument(
        "--tutor",
        type=_tutor_points,
        metavar=_("POINTS"),
        help=_("warn before a play losing at least this many points (e.g. {example})").format(
            example=format_number(0.08)
        ),
    )
    _add_session_options(jacquet)
    jacquet.set_defaults(run=_run_jacquet)


def _tutor_points(text: str) -> int:
    """``--tutor``'s threshold in points (0.001-4), as micro-points."""
    try:
        value = float(text.replace(",", "."))  # 0,08 as French writes it
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("a number of points ({example}), not {text!r}").format(
                example=format_number(0.08), text=text
            )
        ) from None
    if not 0.001 <= value <= 4:
        raise argparse.ArgumentTypeError(
            _("a loss between {least} and {most} points, not {text}").format(
                least=format_number(0.001), most=format_number(4), text=text
            )
        )
    return round(value * 1_000_000)


def _add_session_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-animation", action="store_true", help=_("show each throw's result at once")
    )
    parser.add_argument(
        "--log",
        type=Path,
        metavar=_("PATH"),
        help=_("where to write the match log (default: Tablier's log folder)"),
    )


def _split(text: str, option: str, item: str) -> list[str]:
    """The comma-separated *item*s of *option*'s value; an empty one is refused, not dropped.
    *item* is already translated (in French, a masculine noun: "nom", "numéro de siège")."""
    parts = [part.strip() for part in text.split(",")]
    if not all(parts):
        raise SetupError(
            _("{option} {text!r} has an empty {item}: fill it in or remove a comma").format(
                option=option, text=text, item=item
            )
        )
    return parts


def _seats(text: str) -> frozenset[int]:
    if not text.strip():
        return frozenset()
    try:
        seats = [int(part) - 1 for part in _split(text, "--computer", _("seat number"))]
    except ValueError:
        raise SetupError(
            _("--computer takes seat numbers such as 1,3, not {text!r}").format(text=text)
        ) from None
    twice = sorted({seat + 1 for seat in seats if seats.count(seat) > 1})
    if twice:
        raise SetupError(
            _("--computer names seat {seat} twice: give each seat once").format(seat=twice[0])
        )
    return frozenset(seats)


def goose_setup(args: argparse.Namespace) -> GooseSetup:
    if args.names:
        names = tuple(_split(args.names, "--names", _("name")))
    else:
        players = GOOSE_DEFAULT_PLAYERS if args.players is None else args.players
        if not GOOSE_MIN_PLAYERS <= players <= GOOSE_MAX_PLAYERS:
            raise SetupError(
                _("the Goose is played by {low} to {high} players, not {count}").format(
                    low=GOOSE_MIN_PLAYERS, high=GOOSE_MAX_PLAYERS, count=players
                )
            )
        names = DEFAULT_GOOSE_NAMES[:players]
    computer = _seats(args.computer)
    if args.vs_computer:
        computer |= frozenset(range(1, len(names)))
    return GooseSetup(names, computer, rules=args.rules, ante=args.ante, fee=args.fee)


def jacquet_setup(args: argparse.Namespace) -> JacquetSetup:
    names = tuple(_split(args.names, "--names", _("name"))) if args.names else DEFAULT_JACQUET_NAMES
    if len(names) != 2:
        raise SetupError(
            _("--names takes two names, white's and black's, not {names!r}").format(
                names=args.names
            )
        )
    return JacquetSetup(
        names=(names[0], names[1]),
        computer_seats=frozenset({1}) if args.vs_computer else frozenset(),
        level=args.level,
        match_to=args.match_to,
        bearoff=args.bearoff,
    )


def _run_goose(args: argparse.Namespace) -> int:
    return _launch(args, goose_setup)


def _run_jacquet(args: argparse.Namespace) -> int:
    return _launch(args, jacquet_setup)


def _launch(args: argparse.Namespace, build: Any) -> int:
    import sys

    try:
        setup: GameSetup = build(args)
        if args.log is not None:  # logs are never overwritten: an existing one gets a sibling
            check_new_file(args.log, "--log")
    except SetupError as problem:
        print(_("tablier {command}: {error}").format(command="play", error=problem),
              file=sys.stderr)  # fmt: skip
        return 2
    settings = SessionSettings(animation=not args.no_animation, log_path=args.log,
                               tutor=getattr(args, "tutor", None))  # fmt: skip
    return _run_app("play", setup, settings)


def run_lobby(args: argparse.Namespace) -> int:
    """``tablier`` with no command: open the lobby."""
    return _run_app("", None, SessionSettings())


def _run_app(command: str, setup: GameSetup | None, settings: SessionSettings) -> int:
    refused = without_terminal(command)
    if refused is not None:
        return refused
    # No collection until the first screen is on the terminal (the app enables it again
    # then): what the imports and that screen make stays alive, so a collection would only
    # walk it.
    gc.disable()
    from client.app import TablierApp

    app = TablierApp(setup, settings)
    # What was imported lives as long as the program: out of the garbage collector's way,
    # it is not walked again by every collection once the collector runs.
    gc.freeze()
    app.run()
    return app.return_code or 0
