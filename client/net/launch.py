"""What ``tablier host``, ``join`` and ``watch`` share: their options and starting the app.

Imported by the command modules when ``tablier --help`` builds its parser, so it imports
only the standard library and :mod:`client.net.invite` at module level.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from client.setup import JACQUET_LEVELS, SessionSettings, SetupError

if TYPE_CHECKING:
    from client.screens.room import HostPlan, JoinPlan


def add_player_options(parser: argparse.ArgumentParser, *, playing: bool = True) -> None:
    parser.add_argument(
        "--name", metavar="NAME", help="the name the others see (default: your login name)"
    )
    if playing:
        parser.add_argument(
            "--computer",
            action="store_true",
            help="let the computer play your seat (for demos and tests)",
        )
        parser.add_argument(
            "--level",
            type=int,
            choices=JACQUET_LEVELS,
            default=1,
            help="the computer's Jacquet strength with --computer",
        )
    parser.add_argument("--no-animation", action="store_true", help="show each throw at once")
    parser.add_argument(
        "--log",
        type=Path,
        metavar="PATH",
        help="where to write your copy of the match log (default: Tablier's log folder)",
    )


def player_name(args: argparse.Namespace) -> str:
    """The --name given, or the login name; SetupError says what is wrong with it."""
    name: str = args.name
    if name is None:
        from client.net.room import default_name

        name = default_name()
    name = name.strip()
    if not name or len(name) > 20 or not name.isprintable():
        raise SetupError(f"a name is 1 to 20 printable characters, not {name!r}")
    return name


def settings_from(args: argparse.Namespace) -> SessionSettings:
    return SessionSettings(animation=not args.no_animation, log_path=args.log)


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) for the embedded relay."""
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(
            f"--listen takes HOST:PORT such as 0.0.0.0:8765, not {text!r}"
        )
    return host, int(port)


def relay_url(text: str) -> str:
    if not text.startswith(("ws://", "wss://")):
        raise argparse.ArgumentTypeError(
            f"--relay takes the relay's address, ws://HOST:PORT/ or wss://…, not {text!r}"
        )
    return text


def run(command: str, plan_for: object, args: argparse.Namespace) -> int:
    """Build the plan (errors go to stderr with status 2), then open the app on its room."""
    try:
        plan: HostPlan | JoinPlan = plan_for(args)  # type: ignore[operator]
    except (SetupError, ValueError) as problem:
        print(f"tablier {command}: {problem}", file=sys.stderr)
        return 2
    settings = settings_from(args)
    from client.net.app import NetworkApp

    NetworkApp(plan, settings).run()
    return 0
