"""``tablier join INVITE``: take a seat in a friend's room."""

from __future__ import annotations

import argparse
from typing import Any

from client.commands.network import add_connect_option, add_player_options, player_name, run
from client.i18n import _


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "join",
        help=_("join a friend's game with the invite they sent you"),
        description=_("Take a seat in a networked game: paste the tablier://… invite you got."),
    )
    parser.add_argument("invite", metavar=_("INVITE"), help=_("the tablier://… invite"))
    add_player_options(parser)
    add_connect_option(parser)
    parser.set_defaults(run=lambda args: run("join", _plan, args))


def _plan(args: argparse.Namespace) -> Any:
    from client.net.invite import parse_invite
    from client.net.plan import JoinPlan

    invite = parse_invite(args.invite)
    if invite.role != "player":
        raise ValueError(_("that is a spectator's invite: use `tablier watch` with it"))
    return JoinPlan(invite, player_name(args), computer=args.computer, level=args.level,
                    connect_timeout=args.connect_timeout)  # fmt: skip
