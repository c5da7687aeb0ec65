"""Who is in a relay room and who sits where, sans-I/O: the relay's roster and presence in.

The relay numbers its members (relay seats); a match numbers its players (match seats). A
:class:`Roster` keeps the relay's members as the relay described them (its welcome, then
each presence event, stamped with the time the shell read it) and which relay seat plays
which match seat. Only signed data binds a relay seat to a match seat (:meth:`Roster.bind`):
the join the meeting seated, or the first record new to us that a seat signed and that
connection sent — never a hello, which anyone can write for any seat; a binding holds until
the relay gives that seat up or numbers the room anew. It only records: whether a sender
may say what he said is the match's business.

>>> roster = Roster("Ada")
>>> roster.welcomed(1, [(0, "Bob", True)], now=1_000)
>>> roster.presence(0, "left", "Bob", now=2_000)
>>> roster.members[0].connected, roster.members[0].since, roster.members[1].name
(False, 2000, 'Ada')
>>> roster.bind(0, 1), roster.bind(1, 1)  # match seat 1 is relay seat 0's now
(True, False)
>>> roster.who(0, ("Ada", "Bobby")), roster.who(5, None)
('Bobby', 'the player in seat 6')
>>> roster.presence(0, "expired", "Bob", now=3_000)  # given up: the binding goes with it
>>> roster.member_for_seat(1), roster.given_up
(None, {1})
>>> roster.bind(1, 1), roster.given_up
(True, set())
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from client.i18n import _

PresenceChange = Literal["joined", "left", "reconnected", "expired"]


@dataclass(slots=True)
class Member:
    """Someone seated in the relay's room (before or during the match)."""

    relay_seat: int
    name: str
    connected: bool = True
    since: int = 0  # ms: when ``connected`` last changed
    expired: bool = False


class Roster:
    """The relay's members of one room as this client last heard of them."""

    def __init__(self, name: str) -> None:
        self.name = name  # ours, as the relay shows it to the others
        self.members: dict[int, Member] = {}
        self.seat_of_member: dict[int, int] = {}  # relay seat -> match seat
        self.given_up: set[int] = set()  # match seats whose relay seat expired, none since
        self.me: int | None = None  # our relay seat (None: a spectator, or not in yet)
        self.epoch = 0  # the relay's numbering of the room's seats and events (its welcome)

    def welcomed(
        self,
        relay_seat: int | None,
        roster: Sequence[tuple[int, str, bool]],
        now: int,
        *,
        fresh: bool = False,
        epoch: int = 0,
    ) -> None:
        """The relay let us in (again): who is there. ``fresh``: a re-created room, whose
        seats are numbered anew (each player's signed hello says who is who again);
        ``epoch``: the name of the relay's numbering (a hello is signed for one)."""
        self.me = relay_seat
        self.epoch = epoch
        if fresh:
            self.seat_of_member.clear()
        self.members = {
            seat: Member(seat, name, connected, now) for seat, name, connected in roster
        }
        if relay_seat is not None:
            self.members[relay_seat] = Member(relay_seat, self.name, True, now)

    def presence(self, relay_seat: int, change: PresenceChange, name: str, now: int) -> None:
        if relay_seat == self.me:
            name = self.name  # ours: as we gave it (a relay's news cannot rename us)
        member = self.members.get(relay_seat)
        if member is None or change == "joined":
            member = self.members[relay_seat] = Member(relay_seat, name, True, now)
        member.connected = change in ("joined", "reconnected")
        member.expired = change == "expired"
        member.since = now
        if change in ("expired", "joined"):  # someone else may hold this relay seat now
            seat = self.seat_of_member.pop(relay_seat, None)
            if change == "expired" and seat is not None:
                self.given_up.add(seat)  # shown as given up, not as a player unheard of

    def bind(self, relay_seat: int, seat: int) -> bool:
        """Signed data says relay seat *relay_seat* plays match seat *seat*: recorded unless
        either is bound already (True: it is now)."""
        if relay_seat in self.seat_of_member or seat in self.seat_of_member.values():
            return False
        self.seat_of_member[relay_seat] = seat
        self.given_up.discard(seat)
        return True

    def rebind(self, relay_seat: int, seat: int) -> None:
        """Match seat *seat* itself signed that it speaks from *relay_seat* now (its hello,
        for this relay seat in this numbering): so bound, whatever was bound before."""
        for other, bound in list(self.seat_of_member.items()):
            if bound == seat:
                del self.seat_of_member[other]
        self.seat_of_member[relay_seat] = seat
        self.given_up.discard(seat)

    def member_for_seat(self, seat: int) -> Member | None:
        """The relay member who plays match seat *seat* (None: not known, or gone)."""
        for relay_seat, match_seat in self.seat_of_member.items():
            if match_seat == seat and relay_seat in self.members:
                return self.members[relay_seat]
        return None

    def here(self, seat: int) -> bool:
        member = self.member_for_seat(seat)
        return member is not None and member.connected

    def connected(self) -> set[int]:
        """The relay seats connected now, ours included."""
        return {seat for seat, member in self.members.items() if member.connected}

    def who(self, relay_seat: int, names: Sequence[str] | None) -> str:
        """A relay member named for a person: the match's name (*names*) when we know it."""
        seat = self.seat_of_member.get(relay_seat)
        if seat is not None and names is not None and seat < len(names):
            return names[seat]
        member = self.members.get(relay_seat)
        return member.name if member else _("the player in seat {seat}").format(seat=relay_seat + 1)
