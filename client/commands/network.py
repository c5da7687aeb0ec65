"""What ``tablier host``, ``join`` and ``watch`` share: their options and starting the app.

Imported by the command modules when ``tablier --help`` builds its parser, so it imports
only the standard library and :mod:`client.net.invite` at module level.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from client.commands.argparse_words import integer
from client.commands.paths import check_new_file
from client.commands.terminal import without_terminal
from client.i18n import _, format_number
from client.net.plan import DEFAULT_CONNECT_TIMEOUT, STDOUT
from client.setup import JACQUET_LEVELS, SessionSettings, SetupError, name_refusal

if TYPE_CHECKING:
    from client.net.plan import HostPlan, JoinPlan


def add_player_options(
    parser: argparse.ArgumentParser, *, playing: bool = True, jacquet: bool = True
) -> None:
    """The options of a player's command; ``jacquet``: the game may be Jacquet (the
    computer's level is a Jacquet option: the Goose has no choice to make)."""
    parser.add_argument(
        "--name", metavar=_("NAME"), help=_("the name the others see (default: your login name)")
    )
    if playing:
        parser.add_argument(
            "--computer",
            action="store_true",
            help=_("let the computer play your seat (for demos and tests)"),
        )
        if jacquet:
            parser.add_argument(
                "--level",
                type=integer,
                choices=JACQUET_LEVELS,
                default=1,
                help=_("the computer's Jacquet strength with --computer (default {default})")
                .format(default=1),
            )
    parser.add_argument("--no-animation", action="store_true", help=_("show each throw at once"))
    parser.add_argument(
        "--log",
        type=Path,
        metavar=_("PATH"),
        help=_("where to write your copy of the match log (default: Tablier's log folder)"),
    )


def add_connect_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--connect-timeout",
        type=_seconds,
        default=DEFAULT_CONNECT_TIMEOUT,
        metavar=_("SECONDS"),
        help=_("give up when the relay has not answered within this time (default: "
               "{seconds}); once in the room, dropped connections are retried for as long as "
               "the app runs").format(seconds=format_number(DEFAULT_CONNECT_TIMEOUT)),
    )


def _seconds(text: str) -> float:
    try:
        seconds = float(text.replace(",", "."))  # 1,5 as French writes it
    except ValueError:
        seconds = 0.0
    if not 0 < seconds <= 3600:
        raise argparse.ArgumentTypeError(
            _("a number of seconds from 0 to 3600, not {text!r}").format(text=text)
        )
    return seconds


def player_name(args: argparse.Namespace) -> str:
    """The --name given, or the login name; SetupError says what is wrong with it."""
    name: str = args.name
    if name is None:
        from client.net.room import default_name

        name = default_name()
    name = name.strip()
    if not name or len(name) > 20 or not name.isprintable():
        raise SetupError(
            _("a name is 1 to 20 printable characters, not {name!r}").format(name=name)
        )
    refusal = name_refusal(name)  # refused here, before any other player's program does
    if refusal is not None:
        raise SetupError(refusal)
    return name


def settings_from(args: argparse.Namespace) -> SessionSettings:
    return SessionSettings(animation=not args.no_animation, log_path=args.log)


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) for the embedded relay."""
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(
            _("--listen takes HOST:PORT such as 0.0.0.0:8765, not {text!r}").format(text=text)
        )
    return host, int(port)


def relay_url(text: str) -> str:
    """``--relay``'s address, through the one gate of relays' addresses (an invite's too)."""
    from client.net.invite import RelayAddressError, check_relay_url

    if not text.startswith(("ws://", "wss://")):
        raise argparse.ArgumentTypeError(
            _("--relay takes the relay's address, ws://HOST:PORT/ or wss://…, not {text!r}").format(
                text=text
            )
        )
    try:
        return check_relay_url(text)
    except RelayAddressError as error:
        raise argparse.ArgumentTypeError(
            _("--relay takes the relay's address, ws://HOST:PORT/ or wss://…: {text!r} is not "
              "one ({why})").format(text=text, why=error)
        ) from None  # fmt: skip


def run(
    command: str,
    plan_for: Callable[[argparse.Namespace], HostPlan | JoinPlan],
    args: argparse.Namespace,
) -> int:
    """Build the plan (errors go to stderr with status 2), then open the app on its room.

    Exit status 1, with the reason on stderr, when the room could not be entered (the relay
    cannot be reached or refused, the port to listen on is taken).
    """
    try:
        plan = plan_for(args)
        _check_files(args)
    except (SetupError, ValueError) as problem:
        print(_("tablier {command}: {error}").format(command=command, error=problem),
              file=sys.stderr)  # fmt: skip
        return 2
    refused = without_terminal(command)
    if refused is not None:
        return refused
    settings = settings_from(args)
    from client.app import NetworkApp

    app = NetworkApp(plan, settings)
    app.run()
    failure = app.problem()
    if failure is not None:
        print(_("tablier {command}: {error}").format(command=command, error=failure),
              file=sys.stderr)  # fmt: skip
        return 1
    return app.return_code or 0


def _check_files(args: argparse.Namespace) -> None:
    if args.log is not None:
        check_new_file(args.log, "--log")
    invites: Path | None = getattr(args, "invite_file", None)
    if invites == STDOUT:
        if os.isatty(1):
            raise SetupError(_("--invite-file - writes the invites to standard output, which "
                               "is this terminal's screen: redirect it (> invites.txt), or name "
                               "a file"))  # fmt: skip
    elif invites is not None:
        check_new_file(invites, "--invite-file")
