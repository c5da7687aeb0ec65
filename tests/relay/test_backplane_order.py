"""The order of a shared room's events as one relay process hears them
(:mod:`relay.backplane_order`), without Redis: events in, in any order, duplicated or lost;
events out in order, each once, and every gap asked for; memory bounded by the window."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay import backplane_order
from relay.backplane_order import WINDOW, Offered, Reorder
from relay.config import RelayConfig
from relay.shared import Event

ROOM = "Vm8DKOOO"


def ev(seq: int) -> Event:
    return Event(seq, 7, "abcd1234/1", 0, None, b"frame %d" % seq)


def seqs(events: list[Event]) -> list[int]:
    return [event.seq for event in events]


def joined(start: int, window: int = WINDOW) -> Reorder:
    """A room one of this process's members joined, the core having had up to ``start``."""
    order = Reorder(window)
    order.entering(ROOM)
    order.start(ROOM, start)
    assert order.entered(ROOM) == Offered()
    assert order.settled(ROOM) == []
    return order


def test_the_doctests_hold() -> None:
    assert doctest.testmod(backplane_order).failed == 0


def test_the_window_is_the_default_backlog() -> None:
    """A gap wider than the room's stream keeps cannot be fetched: the window is the
    backlog (the shell passes the room's own), so no gap a fetch could fill is given up."""
    assert RelayConfig().backlog == WINDOW
    with pytest.raises(ValueError, match="at least one"):
        Reorder(0)


def test_events_in_order_go_to_the_core_at_once() -> None:
    order = joined(3)
    assert seqs(order.offer(ROOM, [ev(4), ev(5)]).deliver) == [4, 5]
    assert order.cursor(ROOM) == 5


def test_a_gap_is_asked_for_and_its_fill_delivers_all_in_order() -> None:
    order = joined(0)
    offered = order.offer(ROOM, [ev(4), ev(2)])
    assert offered == Offered([], [1, 3])
    assert order.holds(ROOM, 2) and order.holds(ROOM, 4)
    assert seqs(order.fetched(ROOM, [ev(1), ev(3)], [1, 3]).deliver) == [1, 2, 3, 4]
    assert not order.holds(ROOM, 4)


def test_what_came_already_is_never_delivered_again() -> None:
    order = joined(0)
    order.offer(ROOM, [ev(1), ev(2)])
    assert order.offer(ROOM, [ev(2), ev(1)]) == Offered()
    order.offer(ROOM, [ev(4)])
    assert order.offer(ROOM, [ev(4)]) == Offered([], [3])  # held once, asked for still
    assert seqs(order.offer(ROOM, [ev(3), ev(3)]).deliver) == [3, 4]


def test_a_fetch_that_finds_nothing_loses_the_room() -> None:
    """The numbers asked for are gone from the stream too: the room's members here start
    again (and what was held back is let go)."""
    order = joined(0)
    order.offer(ROOM, [ev(3)])
    assert order.fetched(ROOM, [ev(2)], [1, 2]) == Offered([], [], lost=True)
    assert not order.holds(ROOM, 3)


def test_a_fetch_then_a_gap_after_it_asks_for_that_gap() -> None:
    order = joined(0)
    order.offer(ROOM, [ev(2), ev(5)])
    offered = order.fetched(ROOM, [ev(1)], [1])
    assert (seqs(offered.deliver), offered.missing, offered.lost) == ([1, 2], [3, 4], False)


def test_the_room_s_next_number_shows_what_was_not_sent() -> None:
    order = joined(2)
    order.offer(ROOM, [ev(5)])
    assert order.catch_up(ROOM, 7) == Offered([], [3, 4, 6])
    assert order.catch_up(ROOM, 3) == Offered()  # nothing after what the core has
    assert order.catch_up("another room", 9) == Offered()


def test_a_join_being_stored_keeps_what_comes_meanwhile() -> None:
    """Events heard while a member's join is stored wait for its answer; those its answer
    carries are dropped, the rest go on from there, after the core took the answer in."""
    order = Reorder()
    order.entering(ROOM)
    assert order.offer(ROOM, [ev(5), ev(6), ev(4)]) == Offered()
    assert order.catch_up(ROOM, 9) == Offered()  # not while the join is stored
    order.start(ROOM, 4)  # the answer carries everything up to 4
    assert order.entered(ROOM) == Offered()  # held for the answer
    assert order.offer(ROOM, [ev(7)]) == Offered()
    assert seqs(order.settled(ROOM)) == [5, 6, 7]
    assert seqs(order.offer(ROOM, [ev(8)]).deliver) == [8]


def test_a_join_refused_drops_what_was_kept_for_it() -> None:
    order = Reorder()
    order.entering(ROOM)
    order.offer(ROOM, [ev(5)])
    assert order.entered(ROOM) == Offered()
    assert order.cursor(ROOM) is None and not order.holds(ROOM, 5)


def test_two_joins_at_once_wait_for_both() -> None:
    order = Reorder()
    order.entering(ROOM)
    order.entering(ROOM)
    order.offer(ROOM, [ev(3)])
    order.start(ROOM, 1)
    assert order.entered(ROOM) == Offered()
    assert order.holds(ROOM, 3)  # the other join's answer may start after 1
    order.start(ROOM, 2)  # the room is ours already: its order goes on from 1
    assert order.entered(ROOM) == Offered([], [2])
    assert order.settled(ROOM) == []
    assert order.settling(ROOM)
    assert seqs(order.fetched(ROOM, [ev(2)], [2]).deliver) == []  # held for the answer
    assert seqs(order.settled(ROOM)) == [2, 3]


def test_a_room_forgotten_takes_nothing_more() -> None:
    order = joined(0)
    order.offer(ROOM, [ev(2)])
    order.forget(ROOM)
    assert order.offer(ROOM, [ev(1), ev(3)]) == Offered()
    assert order.cursor(ROOM) is None and not order.holds(ROOM, 2)
    assert order.rooms() == []


def test_losing_redis_forgets_every_room() -> None:
    order = joined(0)
    order.offer(ROOM, [ev(2)])
    order.clear()
    assert order.rooms() == [] and not order.holds(ROOM, 2)


def test_a_gap_wider_than_the_window_loses_the_room() -> None:
    """Past the window, the first missing number is trimmed from the stream: the room is
    lost at once rather than held for a fetch that cannot fill it."""
    order = joined(10, window=4)
    assert order.offer(ROOM, [ev(14)]) == Offered([], [11, 12, 13])  # within the window
    assert order.offer(ROOM, [ev(15)]) == Offered([], [], lost=True)
    assert not order.holds(ROOM, 14)
    assert order.catch_up(ROOM, 15) == Offered([], [11, 12, 13, 14])
    assert order.catch_up(ROOM, 16) == Offered([], [], lost=True)


def test_a_join_being_stored_keeps_at_most_the_window() -> None:
    """While a join is stored nobody knows where the room stands: the oldest ``window``
    events are kept, the newest wait in the stream (and are asked for once it is known)."""
    order = Reorder(window=3)
    order.entering(ROOM)
    order.offer(ROOM, [ev(seq) for seq in range(10, 0, -1)])
    assert [seq for seq in range(12) if order.holds(ROOM, seq)] == [1, 2, 3]
    order.start(ROOM, 1)
    assert order.entered(ROOM) == Offered()
    assert seqs(order.settled(ROOM)) == [2, 3]
    assert order.catch_up(ROOM, 5) == Offered([], [4])


@st.composite
def hearings(draw: st.DrawFn) -> tuple[int, int, int, list[list[int]], int]:
    """A room whose core stands at ``start`` and whose next ``count`` numbers come in any
    order, any number of times, some never (with some older ones), in chunks; the first
    ``early`` chunks while the member's join is stored."""
    window = draw(st.integers(1, 12))
    start = draw(st.integers(-1, 5))
    count = draw(st.integers(0, 30))
    heard = st.integers(start - 3, start + count) if count else st.integers(start - 3, start)
    arrivals = draw(st.lists(st.lists(heard, max_size=6), max_size=12))
    early = draw(st.integers(0, len(arrivals)))
    return window, start, count, arrivals, early


@given(hearings())
def test_any_arrival_is_delivered_in_order_once_and_every_gap_asked_for(
    hearing: tuple[int, int, int, list[list[int]], int],
) -> None:
    """Whatever order events come in, duplicated or lost: the core gets them in order, each
    once; every number neither delivered nor held back is asked for (once the room's next
    number is known, at the latest); a fetch of what was asked, from a stream that still
    has it, completes the room; nothing held passes the window; and the room is given up
    only for a gap wider than the window."""
    window, start, count, arrivals, early = hearing
    order = Reorder(window)
    delivered: list[int] = []
    asked: set[int] = set()
    highest = start  # the highest number heard so far

    def took(offered: Offered, heard: int, asks: bool = True) -> bool:
        delivered.extend(seqs(offered.deliver))
        asked.update(offered.missing)
        assert delivered == list(range(start + 1, start + 1 + len(delivered)))
        held = [seq for seq in range(start + 1, start + count + 2) if order.holds(ROOM, seq)]
        assert len(held) <= window and len(offered.missing) <= window
        cursor = order.cursor(ROOM)  # ahead of delivered while the join's answer is held
        assert cursor is not None
        if offered.lost:  # only for a gap no fetch could fill
            assert heard - cursor > window
        elif asks and held:  # every gap before what is held is asked for as it is seen
            gaps = range(cursor + 1, max(held))
            assert set(offered.missing) >= {seq for seq in gaps if seq not in held}
        return offered.lost

    order.entering(ROOM)
    for chunk in arrivals[:early]:
        assert order.offer(ROOM, [ev(seq) for seq in chunk]) == Offered()
        highest = max([highest, *chunk])
    order.start(ROOM, start)
    if took(order.entered(ROOM), highest) or took(Offered(order.settled(ROOM)), highest, False):
        return
    for chunk in arrivals[early:]:
        highest = max([highest, *chunk])
        if took(order.offer(ROOM, [ev(seq) for seq in chunk]), highest):
            return
    offered = order.catch_up(ROOM, start + count + 1)  # a lease renewal's answer
    if took(offered, start + count):
        return
    for seq in range(start + 1, start + count + 1):
        assert seq in delivered or order.holds(ROOM, seq) or seq in asked
    while offered.missing:  # the shell's fetch: the stream still has them all
        offered = order.fetched(ROOM, [ev(seq) for seq in offered.missing], offered.missing)
        assert not took(offered, start + count)
    assert delivered == list(range(start + 1, start + count + 1))
