"""The relay's log lines: whatever a client names reaches them escaped, in both formats."""

from __future__ import annotations

import doctest
import json
import shlex

import pytest

import relay.logs
import relay.rooms
from relay.logs import OTHERS, OTHERS_NAMED, LogPacer, escaped, render
from relay.outputs import Log

HOSTILE = [
    "\n2026-11-30 12:00:00,000 relay joined conn=1",  # a line of its own
    "\x1b[2J\x1b]0;owned\x07",  # clear the screen, retitle the terminal
    "a b=c",  # spaces and = would make up fields of a plain line
    "\u202eevil",  # right-to-left override: the line would read backwards
    'back\\slash "quoted"',
    "\ud800",  # a lone surrogate, as msgpack can decode
]


@pytest.mark.parametrize("value", HOSTILE, ids=repr)
def test_a_plain_line_holds_nothing_but_printable_ascii_and_one_field_per_value(
    value: str,
) -> None:
    line = render(Log(3, "refused", {"code": "unknown_room", "room": value}), as_json=False)
    assert line.isascii() and line.isprintable()
    assert line.startswith("refused conn=3 code=unknown_room room=")
    assert len(shlex.split(line)) == 4  # the value is one field: quoted if it holds a space


@pytest.mark.parametrize("value", HOSTILE, ids=repr)
def test_a_json_line_is_one_line_of_ascii_that_reads_back(value: str) -> None:
    line = render(Log(3, "refused", {"room": value}), as_json=True)
    assert line.isascii() and "\n" not in line and "\x1b" not in line
    if value != "\ud800":  # JSON keeps the lone surrogate as an escape that reads back
        assert json.loads(line)["room"] == value


def test_plain_values_are_left_alone() -> None:
    for value in ("Vm8DKOOO", "203.0.113.7", "2001:db8::1", "too_many_failures"):
        assert escaped(value) == value


@pytest.mark.parametrize("module", [relay.logs, relay.rooms])
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted and not result.failed


def test_a_crowd_of_addresses_shares_one_budget_past_the_pacers_table() -> None:
    """Past relay.logs.ADDRESSES addresses in a window, the others' lines share one budget:
    neither the log nor the pacer grows with the number of addresses."""
    pacer = LogPacer(window=60.0, lines=1, addresses=2)
    written = [
        pacer.pace(Log(n, "refused", {"code": "rate_limited", "ip": f"192.0.2.{n}"}), now=0.0)
        for n in range(10)
    ]
    assert [len(lines) for lines in written] == [1, 1, 1] + [0] * 7
    (summary,) = pacer.due(now=60.0)
    among = ",".join(f"192.0.2.{n}" for n in range(2, 10))  # the ones past the table
    assert summary.details == {
        "ip": OTHERS,
        "lines": 7,
        "codes": "rate_limited:7",
        "among": among,
    }
    assert pacer.pace(Log(1, "open", {"ip": "192.0.2.1"}), now=61.0)  # a new window


def test_the_shared_budgets_summary_names_a_bounded_few() -> None:
    """However many addresses share the budget, its summary is one line a window naming the
    first relay.logs.OTHERS_NAMED of them, and counting every line it held back."""
    pacer = LogPacer(window=60.0, lines=1, addresses=1)
    for n in range(5000):
        pacer.pace(Log(n, "refused", {"code": "bad_token", "ip": f"10.0.{n // 256}.{n % 256}"}), 0)
    (summary,) = pacer.due(now=60.0)
    assert summary.details["lines"] == 5000 - 2  # the first address's line, one shared
    assert len(str(summary.details["among"]).split(",")) == OTHERS_NAMED


def test_an_ipv6_block_is_paced_as_one_address() -> None:
    """Every address of one /64 (2^64 of them, one machine's) shares one address's budget."""
    pacer = LogPacer(window=60.0, lines=3, addresses=100)
    block = [f"2001:db8:1:2::{n:x}" for n in range(1, 1000)]
    shown = sum(len(pacer.pace(Log(1, "open", {"ip": ip}), now=0.0)) for ip in block)
    assert shown == 3
    (summary,) = pacer.due(now=60.0)
    assert summary.details["ip"] == "2001:db8:1:2::/64" and summary.details["lines"] == 996
