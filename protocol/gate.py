"""The first checks of every message a session receives: is it a message, from the seat it
names, signed by that seat's key, dated within the receiver's clock tolerance?

A message that fails them proves nothing against the seat it names (anyone can write that
seat's number on garbage, or a wrong date on nothing), so it is dropped — the error raised is
not ``fatal`` — and the error names the seat that *sent* it (the relay stamps every frame
with its sender), never the seat it names.

>>> from protocol.local import LocalMatch
>>> from protocol.identity import seeded_source
>>> match = LocalMatch.create("goose", {}, names=("Ann", "Bob"), now=0,
...                           random_source=seeded_source("gate-doc"))
>>> gate = Gate(match.setup, seat=None)
>>> gate.admit(b"\\x93 not a message", sender=1, own=False)
Traceback (most recent call last):
...
protocol.errors.MalformedMessage: seat 1: not a valid message (unreadable bytes)
"""

from __future__ import annotations

from collections.abc import Callable

from engine.clause import N_, Clause
from protocol.clock import ahead_by, duration
from protocol.errors import BadSignature, BadTime, MalformedMessage, RemoteProtocolError
from protocol.identity import verify_signature
from protocol.messages import Chat, GameMessage, decode_message, signed_data
from protocol.setup import MatchSetup


class Gate:
    """The checks for one seat's session (``seat=None``: a spectator's or a verifier's).

    ``check_signatures=False`` (a verifier in a hurry) leaves game records' signatures
    unchecked as they come: :mod:`protocol.verify` checks, once the log is replayed, those
    that no later signature of their signer vouches for.
    """

    def __init__(
        self,
        setup: MatchSetup,
        *,
        seat: int | None,
        verify: Callable[[bytes, bytes, bytes], bool] = verify_signature,
        check_signatures: bool = True,
    ) -> None:
        self.setup = setup
        self.seat = seat
        self.check_signatures = check_signatures
        self.restored = False  # own messages from before a restart come in like others'
        self._verify = verify

    def admit(self, raw: bytes, *, sender: int | None, own: bool) -> GameMessage:
        """*raw* decoded and, unless it is *own* (signed here), signature-checked."""
        try:
            message = decode_message(raw)
        except RemoteProtocolError as error:
            raise type(error)(error.reason, seat=sender, fatal=False) from None
        seat, names = message.seat, self.setup.names
        if seat >= self.setup.seats:
            raise MalformedMessage(Clause.of(N_("no seat {seat} in this match"), seat=seat),
                                   seat=sender, fatal=False)  # fmt: skip
        if sender is not None and seat != sender:
            raise BadSignature(Clause.of(N_("{sender} sent a message in {seat}'s name"),
                                         sender=names[sender], seat=names[seat]),
                               seat=sender, fatal=False)  # fmt: skip
        if own:
            return message
        if seat == self.seat and not self.restored:
            raise BadSignature(Clause.of(N_("a message claims to come from our own seat")),
                               seat=sender, fatal=False)  # fmt: skip
        if (self.check_signatures or isinstance(message, Chat)) and not self.signature_holds(
            message
        ):
            raise BadSignature(_unsigned(names[seat], None if sender is None else names[sender]),
                               seat=sender, fatal=False)  # fmt: skip
        return message

    def on_time(self, message: GameMessage, now: int) -> None:
        """Refuse *message* if it is dated further ahead of *now* than clocks may differ."""
        ahead = ahead_by(message.time, now=now)
        if ahead is not None:
            raise BadTime(Clause.of(N_("{name}'s message is dated {ahead} ahead of this "
                                       "computer's clock: one of the two clocks is wrong"),
                                    name=self.setup.names[message.seat], ahead=duration(ahead)),
                          seat=message.seat, fatal=False)  # fmt: skip

    def signature_holds(self, message: GameMessage) -> bool:
        """Whether *message* is signed by the key of the seat it names."""
        return signed_by_its_seat(self.setup, message, self._verify)

    def blame(self, message: GameMessage, error: RemoteProtocolError) -> RemoteProtocolError:
        """*error*, unless *message*'s signature was left unchecked and does not hold: then
        nobody signed it, and it proves nothing."""
        if not self.check_signatures and not self.signature_holds(message):
            return BadSignature(_unsigned(self.setup.names[message.seat], None), fatal=False)
        return error


def signed_by_its_seat(
    setup: MatchSetup,
    message: GameMessage,
    verify: Callable[[bytes, bytes, bytes], bool] = verify_signature,
) -> bool:
    """Whether *message*, of the match *setup*, is signed by the key of the seat it names
    (a seat the match has: the caller has checked that)."""
    signed = signed_data(setup.match_id, message.unsigned_fields())
    return verify(setup.public_keys[message.seat], message.signature, signed)


def _unsigned(seat: str, sender: str | None) -> Clause:
    """A message naming *seat* (sent by *sender*, if known) that its key did not sign."""
    if sender is None:
        return Clause.of(N_("a message claiming to be {seat}'s is not signed by their key"),
                         seat=seat)  # fmt: skip
    return Clause.of(N_("a message from {sender} claiming to be {seat}'s is not signed by their "
                        "key"), sender=sender, seat=seat)  # fmt: skip
