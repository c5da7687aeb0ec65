"""The core's side of a shared room (the backplane's answers fed in by hand, sans-I/O): the
orders in which a process may hear them must leave every member of it served."""

from __future__ import annotations

import pytest

from relay.config import RelayConfig
from relay.core import RelayCore
from relay.envelope import (
    Error,
    ErrorCode,
    Join,
    Message,
    Presence,
    PresenceEvent,
    Send,
    Stamped,
    decode_relay_frame,
    encode,
)
from relay.outputs import Output, Transmit
from relay.refusals import REFUSALS
from relay.rooms import Seat
from relay.rules import Admitted
from relay.shared import Append, Enter, Entered, Event

ROOM = "r" * 22
EPOCH = 7


def entered(seat: int, holder: str, *, replaced: str | None = None, next_seq: int) -> Entered:
    """The backplane's answer to a join: ``holder`` sits at ``seat`` (replacing a connection),
    with the room's frames from his own arrival on, as Redis numbered them."""
    event = PresenceEvent.JOINED if replaced is None else PresenceEvent.RECONNECTED
    admitted = Admitted(Seat(seat, "P", b"h" * 32, holder), "k" * 43, event, replaced, ())
    frames = (arrival(next_seq, seat, holder, event).frame,)
    return Entered(ROOM, 2, admitted, next_seq, EPOCH, False, next_seq, frames, ())


def message(seq: int, seat: int, holder: str, payload: bytes) -> Event:
    return Event(seq, EPOCH, holder, seat, None, encode(Message(seq, seat, payload)))


def arrival(seq: int, seat: int, holder: str, event: PresenceEvent) -> Event:
    return Event(seq, EPOCH, holder, seat, event, encode(Presence(seq, seat, event, "P")))


def received(outputs: list[Output], conn: int) -> list[object]:
    return [decode_relay_frame(o.data) for o in outputs if isinstance(o, Transmit) and conn in o.to]


def joined(core: RelayCore, conn: int) -> None:
    core.open(conn, "10.0.0.1", 0.0)
    [enter] = core.receive(conn, encode(Join(ROOM, "t" * 43, "P")), 0.0)
    assert isinstance(enter, Enter)  # the backplane's to decide


@pytest.mark.parametrize("answer_first", [True, False], ids=["answer first", "event first"])
def test_a_player_back_on_the_same_process_is_served_whichever_news_comes_first(
    answer_first: bool,
) -> None:
    """His old connection still open, the join's answer (which replaces it) and the
    reconnection event the reader reads come in either order (two Redis connections): the
    room must not go with the old connection, or the new one would hear nothing more."""
    core = RelayCore(RelayConfig(), process="p")
    joined(core, 1)
    core.entered(1, entered(0, "p/1", next_seq=0), 0.0)
    joined(core, 2)  # the same player again, the first connection not closed yet
    answer = entered(0, "p/2", replaced="p/1", next_seq=1)
    back = arrival(1, 0, "p/2", PresenceEvent.RECONNECTED)
    first = core.entered(2, answer, 0.0) if answer_first else core.delivered(ROOM, [back], 0.0)
    second = core.delivered(ROOM, [back], 0.0) if answer_first else core.entered(2, answer, 0.0)
    assert received([*first, *second], 1)[-1] == Error(
        ErrorCode.REPLACED, REFUSALS[ErrorCode.REPLACED][1]
    )
    out = core.delivered(ROOM, [message(2, 1, "q/9", b"from the other seat")], 0.0)
    assert received(out, 2) == [Message(2, 1, b"from the other seat")]


def test_a_shared_rooms_sender_is_told_the_number_of_each_send_that_asked() -> None:
    core = RelayCore(RelayConfig(), process="p")
    joined(core, 1)
    core.entered(1, entered(0, "p/1", next_seq=0), 0.0)
    appends = []
    for payload, tell in ((b"a", False), (b"b", True), (b"c", False)):
        [append] = core.receive(1, encode(Send(payload, tell)), 0.0)
        assert isinstance(append, Append)
        appends.append(payload)
    out = core.delivered(
        ROOM, [message(1 + i, 0, "p/1", payload) for i, payload in enumerate(appends)], 0.0
    )
    assert received(out, 1) == [Stamped(2)]  # for "b" only; "a" before it is placed too
