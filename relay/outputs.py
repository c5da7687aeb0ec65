"""What the relay core returns: the frames to send, the connections to close, the lines to
log, and the requests to a backplane (:mod:`relay.shared`), which the shell carries out in
order (:mod:`relay.server`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from relay.rooms import ConnId
from relay.rules import Admitted
from relay.shared import Request


class Transmit(NamedTuple):
    """Send these bytes, as one binary frame, to each of these connections.

    A named tuple rather than a frozen dataclass: one is made per message forwarded, and a
    tuple is built in a fraction of the time."""

    to: tuple[ConnId, ...]
    data: bytes


@dataclass(frozen=True, slots=True)
class Close:
    conn: ConnId
    code: int
    reason: str
    # The close frame written and the TCP connection closed behind it, without waiting for
    # the client's close frame: for one refused for the number it holds, which must not keep
    # holding one (nor a proxy's two) for the close timeout.
    at_once: bool = False


@dataclass(frozen=True, slots=True)
class Log:
    """Something an operator should see: one line per connection event or refusal."""

    conn: ConnId | None  # None for room events with no connection behind them
    event: str
    details: dict[str, str | int]


Output = Transmit | Close | Log | Request


def joined(room_id: str, admitted: Admitted, ip: str) -> dict[str, str | int]:
    """A ``joined`` line's details."""
    # The address too: every line a client's doing causes is paced by it (relay.logs).
    if admitted.seat is None:
        return {"room": room_id[:8], "as": "spectator", "ip": ip}
    return {"room": room_id[:8], "as": "player", "seat": admitted.seat.index, "ip": ip}
