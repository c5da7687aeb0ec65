#!/usr/bin/env python3
"""The adversarial harness's long mode: the same properties as ``tests/adversarial``, with
many more examples and a random (not derandomized) search.

The suite runs each property with a few fixed examples; this runs ``--examples N`` per
sans-I/O property (the properties through a real relay process run N / 20), each in a fresh
random search (``--seed`` fixes it), and prints, per property, the examples run, whether it
failed (and the first line of the invariant it broke: ``I1`` … ``I4``, see
tests/adversarial/invariants.py) and its seconds; then the totals. ``--json``: one object.
``-k EXPR`` picks properties as pytest's ``-k`` does. The exit status is pytest's (1: some
property failed); pytest's report of the failures, with each one's shrunk example, goes to
stderr.

    .venv/bin/python scripts/attack_peers.py --examples 2000
    .venv/bin/python scripts/attack_peers.py --examples 500 -k sessions --json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=1000,
                        help="examples per sans-I/O property (default 1000)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=None, help="Hypothesis seed (default: random)")
    parser.add_argument("-k", dest="select", default=None, help="pytest -k expression")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.examples < 1:
        parser.error("--examples must be at least 1")
    with tempfile.TemporaryDirectory(prefix="attack-peers-") as folder:
        report = Path(folder) / "figures.jsonl"
        env = dict(os.environ, TABLIER_ATTACK_EXAMPLES=str(args.examples),
                   TABLIER_ATTACK_REPORT=str(report))  # fmt: skip
        command = [sys.executable, "-m", "pytest", "tests/adversarial", "-q", "-p",
                   "no:cacheprovider", "--timeout", "0", "--tb=short"]  # fmt: skip
        if args.seed is not None:
            command += ["--hypothesis-seed", str(args.seed)]
        if args.select:
            command += ["-k", args.select]
        start = time.monotonic()
        result = subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        seconds = time.monotonic() - start
        lines = report.read_text().splitlines() if report.exists() else []
    figures = [json.loads(line) for line in lines]
    totals = {
        "examples": sum(f["examples"] for f in figures),
        "property_count": len(figures),
        "failed": sum(1 for f in figures if f["failed"]),
        "seconds": round(seconds, 1),
        "seed": args.seed,
    }
    if args.json:
        print(json.dumps({"properties": figures, **totals}, indent=2))
    else:
        for figure in figures:
            verdict = "ok" if not figure["failed"] else f"FAILED: {figure['failed'][:100]}"
            print(f"{figure['examples']:>7} examples {figure['seconds']:>8.1f} s  "
                  f"{figure['property']:<40} {verdict}")  # fmt: skip
        print(f"{totals['examples']} examples in {totals['property_count']} properties, "
              f"{totals['failed']} failed, {totals['seconds']} s")  # fmt: skip
    if result.returncode != 0:  # the failures' shrunk examples, as pytest reported them
        print(result.stdout, file=sys.stderr)
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
