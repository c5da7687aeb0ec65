"""How many examples each property runs: few and fixed in the suite, many in the long mode.

The suite's run is derandomized (the same examples every run: no flaky CI) and bounded so
the whole folder stays within a few seconds per property. ``scripts/attack_peers.py`` sets
``TABLIER_ATTACK_EXAMPLES`` (and ``TABLIER_ATTACK_SEED``) for a deeper, random search, and
``TABLIER_ATTACK_REPORT`` to a file each property appends its figures to (one JSON line).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import HealthCheck, settings

LONG = os.environ.get("TABLIER_ATTACK_EXAMPLES")
REPORT = os.environ.get("TABLIER_ATTACK_REPORT")


def bounded(default: int, *, per_long: int = 1) -> Callable[[Any], Any]:
    """Hypothesis settings: *default* examples in the suite; in the long mode the asked
    number divided by *per_long* (a property whose examples each cost a relay process
    runs fewer)."""
    long = int(LONG) // per_long if LONG else None
    return settings(
        max_examples=max(long, 1) if long is not None else default,
        deadline=None,
        derandomize=long is None,
        database=None,
        print_blob=True,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
    )


class Counter:
    """Examples run by one property (for the long mode's figures)."""

    def __init__(self) -> None:
        self.examples = 0

    def __call__(self) -> None:
        self.examples += 1


@contextmanager
def figures(name: str) -> Iterator[Counter]:
    """Count a property's examples and, in the long mode, append its figures to the report."""
    counter = Counter()
    start = time.monotonic()
    failed: str | None = None
    try:
        yield counter
    except BaseException as error:
        failed = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise
    finally:
        if REPORT:
            line = {"property": name, "examples": counter.examples, "failed": failed,
                    "seconds": round(time.monotonic() - start, 2)}  # fmt: skip
            with open(REPORT, "a", encoding="utf-8") as report:
                report.write(json.dumps(line) + "\n")
