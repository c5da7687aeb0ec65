"""The protocol's errors: typed, and saying whose fault it is.

Every error is a :class:`ProtocolError`, itself a :class:`ValueError`. The split follows
h11: :class:`LocalProtocolError` means *this* program asked for something impossible (not
your turn, the match is over); :class:`RemoteProtocolError` means a peer sent something the
rules forbid, and ``seat`` names that peer when it is known.

>>> error = BadShare("the dice share does not follow from the previous one", seat=2)
>>> isinstance(error, RemoteProtocolError), isinstance(error, ValueError), error.seat
(True, True, 2)
>>> str(error)
'seat 2: the dice share does not follow from the previous one'

An error a player may meet by acting (not his turn, a message still on its way) carries its
reason as a :class:`~engine.clause.Clause` too, for the client to say in his language;
``reason`` is its English.
"""

from __future__ import annotations

from engine.clause import Clause


class ProtocolError(ValueError):
    """Base class of every error :mod:`protocol` raises. ``seat`` is the culprit, if known."""

    def __init__(self, message: str | Clause, *, seat: int | None = None) -> None:
        self.clause = message if isinstance(message, Clause) else None
        self.reason = str(message)
        self.seat = seat
        super().__init__(self.reason if seat is None else f"seat {seat}: {self.reason}")


class LocalProtocolError(ProtocolError):
    """The caller misused the protocol (not its turn, match over, bad argument)."""


class RemoteProtocolError(ProtocolError):
    """A peer (``seat``) sent what the protocol refuses.

    ``fatal``: the message was signed by ``seat`` and proves that seat broke the rules, so
    the match stops and the log keeps the evidence. Otherwise the message proved nothing
    against anyone (unreadable, not signed by the seat it names, dated outside the clock
    tolerance, a claim that does not hold): it is dropped, the match goes on, and ``seat`` is
    the one who sent it, if known.
    """

    def __init__(
        self, message: str | Clause, *, seat: int | None = None, fatal: bool = True
    ) -> None:
        super().__init__(message, seat=seat)
        self.fatal = fatal


class MalformedMessage(RemoteProtocolError):
    """Bytes that are not a valid message: garbage, too large, wrong shape or types."""


class VersionMismatch(RemoteProtocolError):
    """A message from a different protocol (or log format) version."""


class BadSignature(RemoteProtocolError):
    """A message that was not signed by the key of the seat it claims to come from."""


class BadShare(RemoteProtocolError):
    """A dice share that does not hash to that seat's previous link, or is out of place."""


class IllegalPlay(RemoteProtocolError):
    """A play the rules forbid, or a message that is not expected at this point."""


class Desync(RemoteProtocolError):
    """The state a peer says it reached differs from the one our own engine computed."""


class BadTime(RemoteProtocolError):
    """A message dated ahead of the receiver's clock, or a record dated before the one it
    follows, by more than the clock tolerance (:data:`protocol.clock.CLOCK_TOLERANCE_MS`)."""


class TimedOut(RemoteProtocolError):
    """A seat neither revealed nor moved within the match's time limit (abandonment)."""


class LogError(ProtocolError):
    """A match log file that cannot be used as it is."""


class NotALog(LogError):
    """The file is not a Tablier match log at all."""


class CorruptLog(LogError):
    """Record ``record`` (0 is the first after the header; None: the header) is bad.

    ``cause`` is the protocol error the record raised when replayed, if that is why.
    """

    def __init__(
        self,
        message: str,
        *,
        record: int | None,
        offset: int,
        cause: ProtocolError | None = None,
    ) -> None:
        self.record = record
        self.offset = offset
        self.cause = cause
        where = "the header" if record is None else f"record {record} (byte {offset})"
        super().__init__(f"{where}: {message}")
