"""A shared room's Redis layout (:mod:`relay.backplane_rooms`), without Redis: its keys and
the arguments of the relay's functions stay as the library reads them, and their answers
are read back as they are written."""

from __future__ import annotations

import doctest

import pytest

from relay import backplane_rooms
from relay.backplane_rooms import (
    Changed,
    Commit,
    Loaded,
    append_keys,
    commit_call,
    committed,
    lives_call,
    loaded,
    presence,
    published_event,
    room_counts,
    room_keys,
    served,
    stream_event,
    tidy,
)
from relay.envelope import PresenceEvent, presence_parts
from relay.rooms import RoomState, token_hash
from relay.shared import Event

ROOM = "Vm8DKOOO"


def state() -> RoomState:
    room = RoomState(ROOM, token_hash("player"), token_hash("spectator"), 2, creator="192.0.2.7")
    room.take_seat("Ada", token_hash("ada's seat"), "abcd1234/1")
    room.spectators.add("ef567890/2")
    return room


def test_the_doctests_hold() -> None:
    assert doctest.testmod(backplane_rooms).failed == 0


def test_a_room_s_keys_share_its_hash_tag() -> None:
    assert room_keys(ROOM) == (
        "tablier:{Vm8DKOOO}:meta",
        "tablier:{Vm8DKOOO}:state",
        "tablier:{Vm8DKOOO}:log",
        "tablier:{Vm8DKOOO}:leases",
    )
    assert append_keys(ROOM) == (room_keys(ROOM)[0], room_keys(ROOM)[2], room_keys(ROOM)[3])
    assert room_counts("192.0.2.7") == ("tablier:{rooms}", "tablier:{rooms}:192.0.2.7")


def test_a_commit_carries_the_room_its_holders_and_its_events_in_the_library_s_order() -> None:
    room = state()
    before = Loaded(b"3", 5, 42, 0, room, frozenset({"abcd1234"}), 1000.0)
    left = presence(room.seats[0], PresenceEvent.LEFT, None)
    terms = Commit("abcd1234", 1000, 61000, 1024, 262144)
    head, tail = presence_parts(0, PresenceEvent.LEFT, "Ada")
    assert commit_call(ROOM, before, room, [left], 5, 77, terms) == (
        "tablier_commit", 4, *room_keys(ROOM),
        b"3", 42, room.to_bytes(), 61000, 77, 1024, 262144, 5,
        "abcd1234,ef567890", "abcd1234", 1000, ROOM, 2,
        0, "abcd1234/1", 1, "",
        1, "", 0, int(PresenceEvent.LEFT), head, tail,
    )  # fmt: skip
    assert lives_call("192.0.2.7", ROOM, 61000) == (
        "tablier_room_lives", 2, *room_counts("192.0.2.7"), ROOM, 61000,
    )  # fmt: skip


def test_a_commit_s_answer_is_read_or_raced() -> None:
    assert committed([b"ok", 6, 7, [b"5", b"five", b"6", b"six"]]) == (
        6,
        [(5, b"five"), (6, b"six")],
    )
    with pytest.raises(Changed):
        committed([b"conflict"])


def test_a_load_reads_the_room_on_redis_s_clock() -> None:
    room = state()
    reply = [b"3", b"5", b"42", b"1", room.to_bytes(), [b"abcd1234"], b"1500250"]
    assert loaded(ROOM, None) is None
    got = loaded(ROOM, reply)
    assert got is not None
    assert (got.version, got.next_seq, got.epoch, got.base, got.live, got.now) == (
        b"3", 5, 42, 1, frozenset({"abcd1234"}), 1500.25,
    )  # fmt: skip
    assert got.state.to_bytes() == room.to_bytes()


def test_events_are_read_as_the_library_writes_them() -> None:
    flat = [b"e", b"42", b"h", b"abcd1234/1", b"s", b"0", b"p", b"", b"f", b"frame"]
    assert stream_event(b"7-1", flat) == Event(7, 42, "abcd1234/1", 0, None, b"frame")
    pushed = b"Vm8DKOOO\n8\n42\nabcd1234/1\n1\n3\nframe\nwith newline"
    assert published_event(pushed) == (
        ROOM,
        Event(8, 42, "abcd1234/1", 1, PresenceEvent(3), b"frame\nwith newline"),
    )
    with pytest.raises(ValueError):
        published_event(b"Vm8DKOOO\n8\n42")


def test_a_resume_is_served_from_the_commit_or_resynced() -> None:
    frames = [(3, b"c"), (4, b"d"), (5, b"e")]
    assert served(None, False, 5, 5, 0, frames[2:]).resync is False  # no resume
    head = served(5, True, 5, 5, 0, [])  # a spectator resuming at the room's head
    assert (head.next_seq, head.numbered, head.resync) == (5, [], False)
    assert served(5, False, 5, 5, 0, []).resync is True  # another epoch: resync
    # Two departures were due before the join: his arrival is numbered after them, and
    # they are not his to be served.
    tidied = served(None, False, 7, 5, 2, [(5, b"e"), (6, b"f"), (7, b"g")])
    assert (tidied.next_seq, [seq for seq, _ in tidied.numbered]) == (7, [7])


def test_holders_of_dead_processes_are_let_go_first() -> None:
    room = state()
    gone = tidy(room, frozenset(), 1000.0, grace=30.0)
    assert [(p.seat, p.event, p.holder) for p in gone] == [(0, int(PresenceEvent.LEFT), "")]
    assert tidy(state(), frozenset({"abcd1234"}), 1000.0, grace=30.0) == []
