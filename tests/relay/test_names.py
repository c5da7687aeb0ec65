"""The relay takes no name a client would refuse, and no second member who reads as one
already seated (relay.names; its verdicts are held to the protocol's in
tests/protocol/test_names.py)."""

from __future__ import annotations

import pytest

from relay.envelope import ErrorCode
from tests.relay.test_core import Harness, welcome


@pytest.mark.parametrize("name", ["\u3164\u3164", "\u2800", "\u0301", "\ufdfd" * 32, "A\u200bda"])
def test_an_invisible_or_absurd_name_is_refused(name: str) -> None:
    h = Harness()
    room = h.room()
    assert h.error_code(h.join(room, room.player_token, name)) == ErrorCode.BAD_NAME


@pytest.mark.parametrize("second", ["Ada", "ADA", "ada", "\uff21da", " Ada "])
def test_a_second_ada_is_refused_while_ada_holds_her_seat(second: str) -> None:
    h = Harness()
    room = h.room(seats=3)
    ada, ada_token = h.seat(room, "Ada")
    assert h.error_code(h.join(room, room.player_token, second)) == ErrorCode.NAME_TAKEN
    h.drop(ada)  # away, her seat held for her: still hers, and so is her name
    assert h.error_code(h.join(room, room.player_token, second)) == ErrorCode.NAME_TAKEN
    back = h.join(room, ada_token, "Ada")  # she herself takes it back
    assert welcome(h.take(back)).seat == 0


def test_a_name_is_free_again_once_its_seat_expired() -> None:
    h = Harness()
    room = h.room()
    ada, _ = h.seat(room, "Ada")
    h.drop(ada)
    h.advance(11.0)  # the harness's seat grace is 10 s
    newcomer = h.join(room, room.player_token, "ADA")
    assert welcome(h.take(newcomer)).seat == 0
