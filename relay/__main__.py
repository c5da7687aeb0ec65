"""``python -m relay``: the same relay as ``tablier relay``, without the client installed."""

from __future__ import annotations

import argparse
import sys

from relay.cli import run
from relay.config import DESCRIPTION, add_arguments

parser = argparse.ArgumentParser(prog="python -m relay", description=DESCRIPTION)
add_arguments(parser)
sys.exit(run(parser.parse_args()))
