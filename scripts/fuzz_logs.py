#!/usr/bin/env python3
"""The long mode of ``tests/protocol/test_hostile_logs.py``: many more hostile logs.

Each example is a log signed with real keys and chains but built on extreme values
(``tests/protocol/hostile_logs.py``: most at the extremes within the protocol's bounds, so
that their records are replayed, the rest beyond them — options at 2^63, times past year
9999, seats out of range, fillers for names — refused at the header; forged records, drops,
duplicates, swaps, cuts, byte flips). Every log command reads it in this process
(``verify``, ``log export`` in both formats, ``analyze --plies 1``, ``replay``), and the
lobby's Recorded match tab tells its result; the invariant is the suite's: a documented
status, at most two lines on standard error naming the file, no traceback; the lobby's
line never raises.

    scripts/fuzz_logs.py --examples 2000 [--seed 1] [--json] [--keep DIR]

``--json`` prints one object: ``examples``, ``seconds``, ``failures`` (examples with a
breach), ``statuses`` (per command, how many logs got each status; ``reached``: how far
the lobby read each log — ``header`` refused at its header, ``record`` a bad record,
``tail`` its good records read then a cut or garbled tail, ``read`` every record replayed,
``other`` not read as a log) and the first ``breaches``.
Exit status 0 when nothing breached the invariant, 1 otherwise.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import os

os.environ.setdefault("TABLIER_LANG", "en")  # the invariant reads English sentences

from hypothesis import HealthCheck, Phase, given, seed, settings

from tests.protocol.hostile_logs import Recipe, build, check_log, recipes


def fuzz(examples: int, random_seed: int, max_turns: int, keep: Path | None) -> dict[str, Any]:
    from client.screens.match_logs import recorded_result

    statuses: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    breaches: list[dict[str, Any]] = []
    failures = 0
    ran = 0
    folder = Path(tempfile.mkdtemp(prefix="fuzz-logs-"))

    @seed(random_seed)
    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(recipes(max_turns=max_turns))
    def one(recipe: Recipe) -> None:
        nonlocal failures, ran
        ran += 1
        path = folder / "hostile.tablier"
        path.write_bytes(build(recipe))
        checked = check_log(path)
        wrong = list(checked["breaches"])
        for command, status in checked["statuses"].items():
            statuses[command][str(status)] += 1
        try:
            line = recorded_result(path)
            statuses["lobby"]["ok" if line and "\n" not in line else "bad line"] += 1
            statuses["reached"][_reached(line)] += 1
        except Exception as error:  # the invariant's breach: counted, not raised
            wrong.append(f"lobby: raised {type(error).__name__}: {error}")
            statuses["lobby"]["raised"] += 1
        if wrong:
            failures += 1
            if len(breaches) < 10:
                breaches.append({"recipe": repr(recipe), "breaches": wrong})
            if keep is not None:
                keep.mkdir(parents=True, exist_ok=True)
                (keep / f"breach-{failures}.tablier").write_bytes(path.read_bytes())

    started = time.monotonic()
    one()
    return {
        "examples": ran,
        "seconds": round(time.monotonic() - started, 1),
        "failures": failures,
        "statuses": {command: dict(counts) for command, counts in sorted(statuses.items())},
        "breaches": breaches,
    }


def _reached(line: str) -> str:
    """How far the lobby read the log, from its English line (client/screens/match_logs)."""
    if line.startswith("damaged: its header"):
        return "header"
    if line.startswith(("damaged: record", "unreadable: fails verification")):
        return "record"
    if line.startswith("unreadable: damaged after"):
        return "tail"
    return "other" if line.startswith(("unreadable", "damaged")) else "read"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=1000, help="logs to try (1000)")
    parser.add_argument("--seed", type=int, default=0, help="Hypothesis's seed (0)")
    parser.add_argument("--max-turns", type=int, default=12,
                        help="honest actions before the hostile part, at most (12)")  # fmt: skip
    parser.add_argument("--keep", type=Path, help="write each breaching log into this folder")
    parser.add_argument("--json", action="store_true", help="one JSON object of the counts")
    args = parser.parse_args()
    result = fuzz(args.examples, args.seed, args.max_turns, args.keep)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['examples']} hostile logs in {result['seconds']} s: "
              f"{result['failures']} broke the invariant")  # fmt: skip
        for command, counts in result["statuses"].items():
            print(f"  {command:<12} " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
        for breach in result["breaches"]:
            print(f"- {breach['recipe']}\n  " + "\n  ".join(breach["breaches"]))
    return 0 if result["failures"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
