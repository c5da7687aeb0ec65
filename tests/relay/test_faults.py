"""The errors at Tablier's edges: each a builtin's kind, each saying whose fault it is
(relay.fault.Fault), so that an ``except OSError`` or ``except ValueError`` meant for the
system's or a value's failure is chosen knowingly; the words and exit statuses at each
command's edge are held by tests/network/test_cli_rooms.py, tests/relay/test_process.py and
tests/bot/test_analyze_cli.py."""

from __future__ import annotations

import doctest

import pytest

import relay.client
import relay.fault
from client.commands.analyze_log import LogRefused
from client.net.link import LinkFailed
from client.net.meeting import NameClash, Refused, Unseated
from relay.backplane_rooms import LibraryConflict
from relay.client import FAULTS, RelayError
from relay.envelope import ErrorCode
from relay.fault import Fault
from relay.server import CertificateError


def test_every_refusal_code_of_the_relay_says_whose_fault_it_is() -> None:
    assert set(FAULTS) == set(ErrorCode)


@pytest.mark.parametrize(
    ("code", "fault"),
    [
        (ErrorCode.BAD_TOKEN, Fault.INPUT),  # a mistyped invite
        (ErrorCode.ROOM_FULL, Fault.INPUT),
        (ErrorCode.RATE_LIMITED, Fault.OURS),  # this client sent faster than it may
        (ErrorCode.UNAVAILABLE, Fault.RELAY),
        ("bad_sequence", Fault.RELAY),  # relay.client's own: the relay broke the numbering
        ("unexpected", Fault.RELAY),
        ("a_code_of_tomorrow", Fault.RELAY),  # nothing known against anyone else
    ],
)
def test_a_relay_refusal_is_a_connection_error_saying_whose_fault(
    code: str, fault: Fault
) -> None:
    refusal = RelayError(code, "words")
    assert isinstance(refusal, ConnectionError) and refusal.fault is fault
    assert str(refusal) == f"words ({code})"  # what a log line or a traceback shows, as before


def test_each_edge_error_is_its_builtins_kind_and_says_whose_fault() -> None:
    assert isinstance(LinkFailed("gone", Fault.RELAY), ConnectionError)
    assert LinkFailed("gone", Fault.PEER).fault is Fault.PEER
    for refused in (Refused("x"), Unseated("x"), NameClash("x", taken="Ada")):
        assert isinstance(refused, ValueError)  # a bad value from a peer
    assert Refused("x").fault is Unseated("x").fault is Fault.PEER
    assert NameClash("x", taken="Ada").fault is Fault.INPUT  # the joiner chose the name
    assert isinstance(CertificateError("bad"), ValueError)
    assert CertificateError("bad").fault is Fault.INPUT  # the operator's files
    assert isinstance(LogRefused("bad"), ValueError) and LogRefused("bad").fault is Fault.INPUT
    conflict = LibraryConflict("tablier_relay_1")
    assert isinstance(conflict, RuntimeError) and conflict.fault is Fault.RELAY
    assert "redis-cli FUNCTION DELETE tablier_relay_1" in str(conflict)


@pytest.mark.parametrize("module", [relay.fault, relay.client])
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted and not result.failed
