"""``tablier watch INVITE``: follow a networked game (board and chat) without playing."""

from __future__ import annotations

import argparse
from typing import Any

from client.commands.network import add_connect_option, add_player_options, player_name, run
from client.i18n import _


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "watch",
        help=_("watch a networked game with a spectator invite"),
        description=_("Follow a networked game as a spectator: the board and chat, no moves."),
    )
    parser.add_argument("invite", metavar=_("INVITE"), help=_("the tablier://…?watch=… invite"))
    add_player_options(parser, playing=False)
    add_connect_option(parser)
    parser.set_defaults(run=lambda args: run("watch", _plan, args))


def _plan(args: argparse.Namespace) -> Any:
    from client.net.invite import parse_invite
    from client.net.plan import JoinPlan

    invite = parse_invite(args.invite, expected="watch")
    if invite.role != "watch":
        raise ValueError(_("that is a player's invite: use `tablier join` with it"))
    return JoinPlan(invite, player_name(args), connect_timeout=args.connect_timeout)
