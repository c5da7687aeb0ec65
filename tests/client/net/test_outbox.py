"""The outbox's lanes (issue 28): this seat's own records go before answers to others,
a catch-up goes whole with nothing of ours inside it, and answers are bounded."""

from __future__ import annotations

from client.net.outbox import ANSWER, MAX_ANSWER_FRAMES, OWN, TALK, Outbox, Outgoing


def drain(box: Outbox) -> list[bytes]:
    out = []
    while (item := box.take()) is not None:
        out.append(item.data)
    return out


def test_own_records_overtake_what_was_queued_for_others() -> None:
    box = Outbox()
    box.put_all([Outgoing(b"transcript", lane=ANSWER), Outgoing(b"hello", lane=TALK)])
    box.put_all([Outgoing(b"play"), Outgoing(b"claim")])
    assert drain(box) == [b"play", b"claim", b"hello", b"transcript"]


def test_a_catch_up_goes_whole_even_when_own_records_come_in_the_middle() -> None:
    box = Outbox()
    catch_up = [Outgoing(b"spectate", lane=ANSWER)]
    catch_up += [Outgoing(b"part %d" % n, lane=ANSWER, follows=True) for n in range(3)]
    box.put_all(catch_up)
    assert box.take() == catch_up[0]
    box.put_all([Outgoing(b"share", lane=OWN), Outgoing(b"chat", lane=TALK)])
    assert drain(box) == [b"part 0", b"part 1", b"part 2", b"share", b"chat"]


def test_answers_are_bounded_and_a_unit_is_dropped_whole() -> None:
    box = Outbox()
    answers = [Outgoing(b"t%d" % n, lane=ANSWER) for n in range(MAX_ANSWER_FRAMES - 2)]
    assert box.put_all(answers) == []
    catch_up = [Outgoing(b"spectate", lane=ANSWER)]
    catch_up += [Outgoing(b"part", lane=ANSWER, follows=True) for _ in range(3)]
    assert box.put_all(catch_up) == catch_up  # four would not fit in two: none goes
    assert box.put_all([Outgoing(b"chat", lane=TALK), Outgoing(b"own")]) == []  # never dropped
    assert box.waiting(ANSWER) == MAX_ANSWER_FRAMES - 2 and box.dropped == 4
    assert drain(box)[:2] == [b"own", b"chat"]
