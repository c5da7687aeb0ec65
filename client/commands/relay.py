"""``tablier relay``: run the relay that remote games go through.

See "Self-hosting the relay" in README.md.
"""

from __future__ import annotations

import argparse
from typing import Any

from client.i18n import _, os_reason_of
from relay.config import DESCRIPTION, add_arguments


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "relay",
        help=_("run a relay so friends can play over the network"),
        description=_(DESCRIPTION),
    )
    add_arguments(parser, _)
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    from relay.cli import run  # websockets and asyncio load only when the relay runs

    return run(args, _, os_reason_of)
