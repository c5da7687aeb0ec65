"""One member's view of a room's numbered stream, its own messages included (sans-I/O).

The relay does not send a member its own messages back (envelope version 2): the numbers
missing from what it receives are its own sends, in the order it sent them, and a
``stamped`` closes the count when the sender asked (``Send.tell``). :class:`MemberStream`
turns what the relay sends into the room's whole stream, as every other member sees it::

    >>> stream = MemberStream(seat=0, next_seq=5)
    >>> stream.sent(b"mine")
    >>> stream.received(Message(6, 1, b"theirs"))
    [Message(seq=5, seat=0, payload=b'mine'), Message(seq=6, seat=1, payload=b'theirs')]
    >>> stream.sent(b"last word")
    >>> stream.received(Stamped(7))
    [Message(seq=7, seat=0, payload=b'last word')]

:class:`relay.client.RoomConnection` wraps one around its websocket.
"""

from __future__ import annotations

from collections import deque

from relay.envelope import Message, Notice, Presence, RelayMessage, Stamped

Event = Message | Presence | Notice


class StreamError(ValueError):
    """The relay broke the numbering: a gap that is not ours, or a number twice."""


class MemberStream:
    """Places this member's own sends among the events the relay numbers for the room."""

    def __init__(self, seat: int | None, next_seq: int) -> None:
        self.seat = seat  # None for a spectator, which sends nothing
        self.next_seq = next_seq  # the number the next event will carry
        self._unplaced: deque[bytes] = deque()

    @property
    def unplaced(self) -> int:
        """How many of our sends still wait for their number."""
        return len(self._unplaced)

    def sent(self, payload: bytes) -> None:
        """We sent ``payload``: call before the frame leaves, since the next event may place it."""
        if self.seat is not None:
            self._unplaced.append(payload)

    def received(self, message: RelayMessage) -> list[Event]:
        """The events ``message`` completes, in the room's order (none for a late ``stamped``).

        Raises :class:`StreamError` for a numbering only a broken relay would send, and
        ``TypeError`` for a message that has no place in a room's stream (a welcome, say).
        """
        if isinstance(message, Message | Presence):
            if message.seq < self.next_seq:
                raise StreamError(f"The relay sent event {message.seq} twice or late.")
            events = self._own_until(message.seq)
            events.append(message)
            self.next_seq = message.seq + 1
            return events
        if isinstance(message, Stamped):
            return self._own_until(message.seq + 1)
        if isinstance(message, Notice):
            return [message]
        raise TypeError(f"{message!r} is not part of a room's stream")

    def _own_until(self, seq: int) -> list[Event]:
        """Our sends, numbered from ``next_seq`` up to ``seq`` (excluded)."""
        events: list[Event] = []
        while self.next_seq < seq:
            if not self._unplaced or self.seat is None:
                raise StreamError(
                    f"The relay skipped event {self.next_seq}, which is not one of ours."
                )
            events.append(Message(self.next_seq, self.seat, self._unplaced.popleft()))
            self.next_seq += 1
        return events
