"""The players' meeting before each match of a room, sans-I/O: proposal, joins, setup.

The host proposes (:class:`~protocol.setup.Proposal`), every player answers with a signed
:class:`~protocol.setup.Join`, and once every seat is taken the host seats them
(:class:`~protocol.setup.MatchSetup`). :class:`Meeting` keeps what one meeting heard and
says what it refuses (:class:`Refused`); :class:`~client.net.match.NetMatch` holds one per
match and does the sending. A rematch's meeting (``previous`` set) takes only the next match
between the same players: same game and options, every join from a key of the match before,
and the players seated as they sat in it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from client.i18n import _
from protocol.names import name_key
from protocol.setup import Join, MatchSetup, Proposal
from relay.fault import Fault

HOST_RELAY_SEAT = 0
"""The relay seat of the room's host: he creates the room and joins it before he hands out
its invite, and the relay gives the lowest free seat, so nobody else can hold it first. Only
it makes a room's first proposal (a rematch's is its match seat's, :data:`HOST_SEAT`)."""


NO_SENDER = -1  # a join's sender who has since left the room for good


class Refused(ValueError):
    """A meeting message the meeting does not take (a bad value from a peer, as
    :class:`~protocol.errors.RemoteProtocolError` is); ``str`` says what its sender did,
    ``fault`` whose it is: its sender's, unless the message was this client's own
    (:class:`~client.net.meetings.Meetings` tells, and turns itself away then)."""

    fault = Fault.PEER


class Unseated(Refused):
    """A setup from the proposer that does not seat the joins this meeting took: its sender
    seated the match otherwise than the room met for it. We follow it no further."""


class NameClash(Refused):
    """A join whose name reads as that of a player who joined before (``taken``, as he
    joined): the meeting keeps the first. The name was its joiner's choice (``fault``); he
    is to blame only when he signed another name than the room knows him by
    (:meth:`client.net.meetings.Meetings.joined` decides)."""

    fault = Fault.INPUT

    def __init__(self, text: str, taken: str) -> None:
        super().__init__(text)
        self.taken = taken


@dataclass(slots=True)
class Meeting:
    """The meeting for one match: the proposal and the joins, in the order they came."""

    previous: MatchSetup | None = None  # a rematch: the match it follows
    proposal: Proposal | None = None
    proposer: int | None = None  # relay seat that sent the proposal (None: ours, not back yet)
    joins: list[Join] = field(default_factory=list)
    join_senders: list[int] = field(default_factory=list)  # (NO_SENDER: a member since gone)
    begun: bool = False  # the match it met for has begun: it hears nothing more
    # Part of the meeting may have passed us by (the relay kept too little, or a join came
    # before the proposal did): its setup may seat joins we never heard.
    missed: bool = False

    def offered(self, relay_seat: int, proposal: Proposal) -> bool:
        """A proposal came from *relay_seat*: True when it opens this meeting (join it)."""
        if self.proposal is not None:
            if self.proposer is None and proposal == self.proposal:
                self.proposer = relay_seat  # our own proposal, in its place
            return False
        previous = self.previous
        if previous is not None and _terms(proposal) != _terms(previous.proposal):
            raise Refused(_("proposed a rematch of another game than the one just played"))
        self.proposal, self.proposer = proposal, relay_seat
        return True

    def add(self, relay_seat: int, join: Join, sender_name: str | None = None) -> bool:
        """A join came from *relay_seat*, whom the relay calls *sender_name*: True when it
        took the last seat. A bad signature raises the protocol's own error. A relay member
        joins once per meeting, under the name the room knows him by, so that one
        connection takes one seat and nobody sits under another's name."""
        proposal = self.proposal
        if proposal is None:
            self.missed = True  # (its proposal comes again: the host re-sends it)
            return False
        if self.begun:
            return False
        join.check(proposal)
        if self.previous is not None and join.public_key not in self.previous.public_keys:
            raise Refused(
                _("joined the rematch as {name}, who did not play the match before").format(
                    name=join.name
                )
            )
        if any(known.public_key == join.public_key for known in self.joins):
            return False  # a resend after a reconnection
        if relay_seat in self.join_senders:
            raise Refused(_("joined the match a second time, as {name}").format(name=join.name))
        if sender_name is None or name_key(sender_name.strip()) != name_key(join.name):
            raise Refused(
                _("joined as {name}, which is not the name it goes by in the room").format(
                    name=join.name
                )
            )
        key = name_key(join.name)
        for known in self.joins:
            if name_key(known.name) == key:
                raise NameClash(
                    _("joined as {name}, which reads as the name of a player already in the "
                      "match").format(name=join.name),
                    taken=known.name,
                )  # fmt: skip
        if len(self.joins) >= proposal.seats:
            return False
        self.joins.append(join)
        self.join_senders.append(relay_seat)
        return len(self.joins) == proposal.seats

    def seated(self) -> MatchSetup:
        """The host's setup once every seat is taken: the players in the order they joined,
        or, for a rematch, in the seats they had."""
        assert self.proposal is not None
        joins = self.joins
        if self.previous is not None:
            keys = self.previous.public_keys
            joins = sorted(joins, key=lambda join: keys.index(join.public_key))
        return MatchSetup.create(self.proposal, joins)

    def check_sender(self, relay_seat: int) -> None:
        """Raise :class:`Refused` unless *relay_seat* may set up this meeting's match (the
        one who proposed it): asked before its setup is read, which costs a signature check
        per seat."""
        if relay_seat != self.proposer:
            raise Refused(_("tried to start a match it did not propose"))

    def check(self, relay_seat: int, setup: MatchSetup) -> None:
        """Raise :class:`Refused` unless *setup*, from *relay_seat*, is the one this meeting
        was heading for."""
        self.check_sender(relay_seat)
        if setup.proposal != self.proposal:
            raise Refused(_("started a different match from the one proposed"))
        if self.previous is not None and setup.public_keys != self.previous.public_keys:
            raise Refused(_("seated the rematch's players otherwise than in the match before"))
        seated = {join.encode() for join in setup.joins}
        left_out = [join.name for join in self.joins if join.encode() not in seated]
        if left_out:
            raise Unseated(_("seated the match without {names}, who joined it").format(
                names=", ".join(left_out)))  # fmt: skip
        heard = {join.encode() for join in self.joins}
        strangers = [join.name for join in setup.joins if join.encode() not in heard]
        if strangers and not self.missed:
            raise Unseated(_("seated {names}, whose joins the room never heard").format(
                names=", ".join(strangers)))  # fmt: skip

    def gone(self, relay_seat: int) -> None:
        """The relay gave *relay_seat* up (or to someone new): whoever holds it now has not
        joined this meeting (the join its former holder sent stays)."""
        self.join_senders = [NO_SENDER if s == relay_seat else s for s in self.join_senders]

    def seats_of_senders(self, setup: MatchSetup) -> dict[int, int]:
        """Relay seat -> match seat, for every join this meeting heard."""
        keys = setup.public_keys
        return {
            sender: keys.index(join.public_key)
            for sender, join in zip(self.join_senders, self.joins, strict=True)
            if join.public_key in keys and sender != NO_SENDER
        }


def _terms(proposal: Proposal) -> tuple[object, ...]:
    """What a rematch keeps from the match before (not its start time or nonce)."""
    return (proposal.game, proposal.options, proposal.seats, proposal.time_limit_ms)
