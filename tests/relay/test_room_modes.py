"""The relay core's two room modes behind one interface (:class:`relay.shared.Hosted`): a
room held in memory and a room shared through a backplane each answer the core's requests
their own way, and the core never asks a room which kind it is."""

from __future__ import annotations

import ast
from pathlib import Path

from relay.config import RelayConfig
from relay.core import RelayCore
from relay.envelope import stamp
from relay.rooms import Room
from relay.shared import Append, Hosted, Leave, LocalRoom

CORE = Path(__file__).resolve().parents[2] / "relay" / "core.py"
ROOM = "Vm8DKOOO"


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _asks_a_type(node: ast.AST) -> bool:
    """``isinstance(…)``, ``type(…)``, or an ``is`` comparison."""
    if isinstance(node, ast.Call):
        return getattr(node.func, "id", None) in {"isinstance", "type"}
    return isinstance(node, ast.Compare) and any(
        isinstance(op, ast.Is | ast.IsNot) for op in node.ops
    )


def asking(source: str) -> list[str]:
    """The checks in ``source`` that name either room class."""
    tree = ast.parse(source)
    return [
        ast.unparse(node)
        for node in ast.walk(tree)
        if _asks_a_type(node) and _names(node) & {"Room", "LocalRoom"}
    ]


def test_the_core_asks_no_room_which_kind_it_is() -> None:
    """No ``isinstance`` nor ``type(…) is`` naming either room class in relay/core.py (the
    check finds the ones the core made before)."""
    assert asking("if type(room) is LocalRoom: pass\nisinstance(old.room, Room)") == [
        "type(room) is LocalRoom",
        "isinstance(old.room, Room)",
    ]
    assert asking(CORE.read_text(encoding="utf-8")) == []


def test_a_shared_room_answers_with_the_backplane_s_requests() -> None:
    core = RelayCore(RelayConfig(), process="abcd1234")
    local = LocalRoom(ROOM, 7)
    core.shared[ROOM] = local
    local.expects[3] = 0
    room: Hosted = local
    assert room.forward(core, 3, 1, b"payload", True) == [Append(ROOM, "abcd1234/3", 1, b"payload")]
    assert list(local.tells[3]) == [True]  # to tell the sender its number when it comes
    assert room.depart(core, 3, 0.0) == [Leave(ROOM, "abcd1234/3")]
    assert ROOM not in core.shared  # its last member here: the reader lets it go


def test_a_room_in_memory_numbers_what_it_is_handed() -> None:
    core = RelayCore(RelayConfig())
    held = Room(ROOM, b"p", b"s", 2, 16, 1024, 0.0, creator="192.0.2.7")
    room: Hosted = held
    assert room.forward(core, 3, 0, b"\x91\x01", False) == []  # nobody else to hand it to
    assert held.next_seq == 1
    assert held.backlog_since(0) == [stamp(0, 0, b"\x91\x01")]  # kept for resumers
    room.drop(core, 3)  # a newer connection holds the seat: nothing to forget
    assert room.depart(core, 3, 0.0) == []  # he held no seat here
