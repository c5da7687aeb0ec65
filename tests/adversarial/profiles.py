"""How many examples each property runs: few and fixed in the suite, many in the long mode.

The suite's run is derandomized (the same examples every run: no flaky CI) and bounded so
the whole folder stays within a few seconds per property. ``scripts/attack_peers.py`` sets
``TABLIER_ATTACK_EXAMPLES`` (and ``TABLIER_ATTACK_SEED``) for a deeper, random search, and
``TABLIER_ATTACK_REPORT`` to a file each property appends its figures to (one JSON line).
"""

from __future__ import annotations

import atexit
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


FIGURES: dict[str, dict[str, Any]] = {}
"""Per property: examples run (shrinking's runs included), its first failure, seconds."""


@contextmanager
def figures(name: str) -> Iterator[Counter]:
    """Count one example of property *name* (its time, and whether it broke an invariant);
    in the long mode, the totals go to the report when the tests end."""
    counter = Counter()
    figure = FIGURES.setdefault(name, {"property": name, "examples": 0, "failed": None,
                                       "seconds": 0.0})  # fmt: skip
    start = time.monotonic()
    try:
        yield counter
    except BaseException as error:
        if figure["failed"] is None:
            figure["failed"] = str(error).splitlines()[0] if str(error) else type(error).__name__
        figure["examples"] += 1
        raise
    else:
        figure["examples"] += counter.examples
    finally:
        figure["seconds"] += time.monotonic() - start


def _write_report() -> None:
    if REPORT and FIGURES:
        with open(REPORT, "a", encoding="utf-8") as report:
            for figure in FIGURES.values():
                report.write(json.dumps({**figure, "seconds": round(figure["seconds"], 2)}) + "\n")


atexit.register(_write_report)
