"""``tablier host goose|jacquet``: open a room, hand out the invite, play when all have come."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from client.commands.argparse_words import integer
from client.commands.game_options import add_goose_options
from client.commands.network import add_player_options, parse_listen, player_name, relay_url, run
from client.i18n import _
from client.setup import (
    BEAROFF_HELP,
    GOOSE_DEFAULT_PLAYERS,
    GOOSE_MAX_PLAYERS,
    GOOSE_MIN_PLAYERS,
    JACQUET_BEAROFF_RULES,
    JACQUET_DEFAULT_MATCH_TO,
    GooseSetup,
    JacquetSetup,
    SetupError,
    game_options,
)


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "host",
        help=_("host a game for friends on other terminals; shows the invite to send them"),
        description=_(
            "Open a room for a networked game and show its invite (c copies it). Without "
            "--relay, Tablier runs a relay itself, on loopback unless --listen says otherwise. "
            "The match starts when every seat is taken."
        ),
    )
    games = parser.add_subparsers(title=_("games"), metavar=_("GAME"), required=True)
    goose = games.add_parser(
        "goose",
        help=_("Jeu de l'oie, 2 to 15 players"),
        description=_(
            "Host a Jeu de l'oie for 2 to 15 players on other terminals: the room screen shows "
            "the invites to send them, and the game starts when every seat is taken (you "
            "have the first). Rules: docs/rules.md, section 1."
        ),
    )
    goose.add_argument(
        "--players",
        type=integer,
        default=GOOSE_DEFAULT_PLAYERS,
        metavar="N",
        help=_("seats, {low} to {high} (default {default})").format(
            low=GOOSE_MIN_PLAYERS, high=GOOSE_MAX_PLAYERS, default=GOOSE_DEFAULT_PLAYERS
        ),
    )
    add_goose_options(goose)
    jacquet = games.add_parser(
        "jacquet",
        help=_("Jacquet, two players"),
        description=_(
            "Host a Jacquet match against a friend on another terminal: the room screen shows "
            "the invites to send, and the match starts when the friend has joined (you play "
            "white). Rules: docs/rules.md, section 2."
        ),
    )
    jacquet.add_argument(
        "--match-to", type=integer, default=JACQUET_DEFAULT_MATCH_TO, metavar="N",
        help=_("points to win the match (default {default})").format(
            default=JACQUET_DEFAULT_MATCH_TO),
    )
    jacquet.add_argument("--bearoff", choices=JACQUET_BEAROFF_RULES, default="backgammon",
                         help=_(BEAROFF_HELP))  # fmt: skip
    jacquet.add_argument(
        "--coach",
        action="store_true",
        help=_("allow hints and the tutor: written in the setup every player signs"),
    )
    for game, sub in (("goose", goose), ("jacquet", jacquet)):
        where = sub.add_mutually_exclusive_group()
        where.add_argument(
            "--relay",
            type=relay_url,
            metavar="URL",
            help=_("use this relay (ws://HOST:PORT/) instead of running one"),
        )
        where.add_argument(
            "--listen",
            type=parse_listen,
            default=("127.0.0.1", 0),
            metavar=_("HOST:PORT"),
            help=_(
                "where the embedded relay listens (default 127.0.0.1 on a free "
                "port; 0.0.0.0:8765 lets friends on your network in)"
            ),
        )
        sub.add_argument(
            "--invite-file",
            type=Path,
            metavar=_("PATH"),
            help=_(
                "also write the player and spectator invites to this file, one a line; "
                "- writes them to standard output (redirected: the screen is the room's)"
            ),
        )
        add_player_options(sub, jacquet=game == "jacquet")
        sub.set_defaults(run=lambda args, game=game: run("host", _plan(game), args))


def _plan(game: str) -> Any:
    def build(args: argparse.Namespace) -> Any:
        from client.net.plan import HostPlan

        name = player_name(args)
        if game == "goose":
            if not GOOSE_MIN_PLAYERS <= args.players <= GOOSE_MAX_PLAYERS:
                raise SetupError(
                    _("the Goose is played by {low} to {high} players, not {count}").format(
                        low=GOOSE_MIN_PLAYERS, high=GOOSE_MAX_PLAYERS, count=args.players
                    )
                )
            checked = GooseSetup(
                tuple(f"P{n}" for n in range(args.players)),
                rules=args.rules,
                ante=args.ante,
                fee=args.fee,
            )
            options: dict[str, int | str] = {
                "rules": checked.rules,
                "ante": checked.ante,
                "fee": checked.fee,
            }
            seats = args.players
        else:
            jacquet = JacquetSetup(match_to=args.match_to, bearoff=args.bearoff, coach=args.coach)
            options = game_options(jacquet)
            seats = 2
        return HostPlan(
            game,
            options,
            seats,
            name,
            relay_url=args.relay,
            listen=args.listen,
            computer=args.computer,
            level=getattr(args, "level", 1),  # (a Jacquet option)
            invite_file=args.invite_file,
        )

    return build
