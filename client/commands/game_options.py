"""The Goose's options as `play goose` and `host goose` both take them (one place for their
names, defaults and help)."""

from __future__ import annotations

import argparse

from client.commands.argparse_words import integer
from client.i18n import _
from client.setup import (
    GOOSE_DEFAULT_ANTE,
    GOOSE_DEFAULT_FEE,
    GOOSE_DEFAULT_RULES,
    GOOSE_RULE_SETS,
    RULES_HELP,
)


def add_goose_options(goose: argparse.ArgumentParser) -> None:
    """``--rules``, ``--ante`` and ``--fee``, each saying its default."""
    goose.add_argument("--rules", choices=GOOSE_RULE_SETS, default=GOOSE_DEFAULT_RULES,
                       help=_(RULES_HELP))  # fmt: skip
    goose.add_argument("--ante", type=integer, default=GOOSE_DEFAULT_ANTE, metavar=_("TOKENS"),
                       help=_("tokens each player puts in the pot (default {default})")
                       .format(default=GOOSE_DEFAULT_ANTE))  # fmt: skip
    goose.add_argument("--fee", type=integer, default=GOOSE_DEFAULT_FEE, metavar=_("TOKENS"),
                       help=_("tokens each hazard costs (default {default})")
                       .format(default=GOOSE_DEFAULT_FEE))  # fmt: skip
