"""The protocol's errors: typed, and saying whose fault it is.

Every error is a :class:`ProtocolError`, itself a :class:`ValueError`. The split follows
h11: :class:`LocalProtocolError` means *this* program asked for something impossible (not
your turn, the match is over); :class:`RemoteProtocolError` means a peer sent something the
rules forbid, and ``seat`` names that peer when it is known.

Every error :mod:`protocol` raises gives its ``reason`` as a :class:`~engine.clause.Clause`,
for the client to say in its reader's language, a French player reading a peer's fault in
French (``tests/protocol/test_error_clauses.py`` holds every raise site to it); ``message``
is the whole of it (the culprit's seat, then the reason), ``str()`` its English, for logs
and the JSON interfaces. Only the client's own errors (words it has already said in its
reader's language) come as a string. The client says either with ``client.i18n.say``.

What is fatal, once for the whole protocol: **a signed record that breaks the rules where
the receiver can judge it.** A share for a throw the receiver has reached, or a play for a
throw it has rolled, is judged on what the game records it holds decide — the signer's
committed chain, the game state, whose turn it is, what is legal: a link off the chain, a
state that differs, an out-of-turn, illegal or unawaited play proves the fault. Anything
else (a time, a ``seen``, a claim, a resignation) is judged at its place: signed over the
receiver's own history there. A second, different record for a place already taken
(equivocation) proves it too. Such a record stops the match, naming its signer. A record
that is only out of place — numbered ahead of what the receiver holds, or signed over a
history it does not hold — proves nothing against its signer: the receiver may lack
records (a log that lost its tail, a spectator given a short catch-up). It is an
:class:`OutOfPlace` refusal, never fatal, naming nobody, and may be asked for again and
taken later; delivered in a transcript or a catch-up, it is the deliverer's fault (what he
sent does not follow what it says it follows).

>>> error = BadShare(Clause.of(N_("the dice share does not follow from the previous one")),
...                  seat=2)
>>> isinstance(error, RemoteProtocolError), isinstance(error, ValueError), error.seat
(True, True, 2)
>>> str(error)
'seat 2: the dice share does not follow from the previous one'
"""

from __future__ import annotations

import errno

from engine.clause import N_, Clause, Value


class ProtocolError(ValueError):
    """Base class of every error :mod:`protocol` raises. ``seat`` is the culprit, if known."""

    def __init__(self, reason: str | Clause, *, seat: int | None = None) -> None:
        self.reason = reason
        """Why, as it was given: a clause, or words the client already said."""
        self.seat = seat
        super().__init__(str(self.message))

    @property
    def message(self) -> str | Clause:
        """The whole message (``str()`` is its English): the culprit's seat, if known, then
        the reason."""
        if self.seat is None:
            return self.reason
        return Clause.of(N_("seat {seat}: {reason}"), seat=self.seat, reason=self.reason)


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
        self, reason: str | Clause, *, seat: int | None = None, fatal: bool = True
    ) -> None:
        super().__init__(reason, seat=seat)
        self.fatal = fatal


class MalformedMessage(RemoteProtocolError):
    """Bytes that are not a valid message: garbage, too large, wrong shape or types."""


class VersionMismatch(RemoteProtocolError):
    """A message from a different protocol (or log format) version."""


class BadSignature(RemoteProtocolError):
    """A message that was not signed by the key of the seat it claims to come from."""


class BadShare(RemoteProtocolError):
    """A dice share that does not hash to that seat's previous link, or is out of place."""


class OutOfPlace(RemoteProtocolError):
    """A signed record that does not stand where the receiver's match is: numbered ahead of
    it, or signed over a history it does not hold. The receiver may lack records, so it
    proves nothing against its signer: never fatal, and ``seat`` is None (who delivered it,
    in a transcript or a catch-up, is to blame for that)."""

    def __init__(self, message: str | Clause) -> None:
        super().__init__(message, seat=None, fatal=False)


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

    ``cause`` is the protocol error the record raised when replayed, if that is why;
    ``what`` is what is wrong, without where.
    """

    def __init__(
        self,
        message: str | Clause,
        *,
        record: int | None,
        offset: int,
        cause: ProtocolError | None = None,
    ) -> None:
        self.record = record
        self.offset = offset
        self.cause = cause
        self.what = message
        if record is None:
            where = Clause.of(N_("the header: {problem}"), problem=message)
        else:
            where = Clause.of(N_("record {record} (byte {offset}): {problem}"), record=record,
                              offset=offset, problem=message)  # fmt: skip
        super().__init__(where)


def os_reason(error: OSError) -> Value:
    """Why the system refused to read or write a file (or to listen on a port), in a few
    words for the reader's language (the system's own words, ``strerror``, are English
    whatever the reader reads; an unusual error keeps them).

    >>> str(os_reason(FileNotFoundError(errno.ENOENT, "No such file or directory")))
    'there is no such file or folder'
    """
    words = _OS_REASONS.get(error.errno or 0)
    if words is not None:
        return Clause.of(words)
    return error.strerror or type(error).__name__


_OS_REASONS: dict[int, str] = {
    errno.ENOENT: N_("there is no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EISDIR: N_("it is a folder, not a file"),
    errno.ENOTDIR: N_("a folder on its path is a file"),
    errno.EEXIST: N_("it already exists"),
    errno.ENOSPC: N_("the disk is full"),
    errno.EDQUOT: N_("the disk quota is exceeded"),
    errno.EROFS: N_("the file system is read-only"),
    errno.ENAMETOOLONG: N_("its name is too long"),
    errno.ELOOP: N_("its path loops through symbolic links"),
    errno.EIO: N_("the disk could not be read or written (input/output error)"),
    errno.EMFILE: N_("too many files are open"),
    errno.EADDRINUSE: N_("the port is already in use"),
    errno.EADDRNOTAVAIL: N_("the address is not one of this machine's"),
}
