"""What the screens read of a room's networked matches: derived, never changed here.

:class:`MatchView` answers the UI's questions (whose seat, which match, where the meeting
and the rematch stand, whether this seat may act, what it waits for) from the pieces a
:class:`~client.net.match.NetMatch` holds; the shell, which takes the relay's events and
changes them, is a :class:`MatchView` too. Nothing here sends, writes or reads the clock:
the notes say *now* as the caller read it.
"""

from __future__ import annotations

from pathlib import Path

from client.net.catchup import CatchUp
from client.net.durable import MatchLogs
from client.net.meeting import Meeting
from client.net.meetings import Meetings, Standing
from client.net.playing import Playing
from client.net.rematch import RematchVote
from client.net.roster import Member, Roster
from client.net.spectators import Arrival
from protocol.events import MatchEnded
from protocol.session import MatchSession
from protocol.setup import MatchSetup


class MatchView:
    """The read side of a room's matches (the shell sets these pieces up)."""

    play: Playing  # the match in progress
    meetings: Meetings  # its meeting, the next one's, the rematch vote
    roster: Roster  # who is in the room
    logs: MatchLogs
    arrival: Arrival | None  # a late spectator's, until its catch-up came
    in_relay_step: bool  # the relay replayed what it kept since we first connected
    replaying: bool  # the relay is replaying what it kept for this connection
    broken: str | None  # why this client stopped following the room

    @property
    def session(self) -> MatchSession | None:
        """The current match's session, or the ended one's (see :class:`Playing`)."""
        return self.play.session

    @property
    def log_path(self) -> Path | None:
        """The current match's log (or the ended one's)."""
        return self.logs.path

    @property
    def catch_up(self) -> CatchUp:
        return self.play.catch_up

    @property
    def seat(self) -> int | None:
        return None if self.session is None else self.session.seat

    @property
    def setup(self) -> MatchSetup | None:
        """The match last begun in the room (the current one, or the one that ended)."""
        return self.meetings.setup

    @property
    def meeting(self) -> Meeting:
        return self.meetings.meeting

    @property
    def spectator_token(self) -> str | None:
        return self.meetings.spectator_token

    @property
    def rematch(self) -> RematchVote | None:
        return self.meetings.vote

    @property
    def rematching(self) -> bool:
        """The next match in the room is proposed and its players are joining."""
        return self.meetings.rematching

    def _standing(self) -> Standing:
        return Standing(self.seat, self.ended)

    @property
    def started(self) -> bool:
        return self.session is not None

    @property
    def in_step(self) -> bool:
        """The relay replayed what it kept and nobody's word is awaited: this seat may act
        (a late spectator: the match so far came)."""
        return self.in_relay_step and self.catch_up.in_step and self.arrival is None

    @property
    def catching_up(self) -> bool:
        """The match is on, and the board this seat holds is not yet known to be where it
        stands, so nobody here acts on it. Caught up is: the relay replayed all it kept for
        this connection (:attr:`replaying` ended, as it does once it sent it); a seat back
        from its log heard every other seat's word (:attr:`CatchUp.unheard
        <client.net.catchup.CatchUp.unheard>`); this seat holds every record a peer said it
        holds (:attr:`CatchUp.behind <client.net.catchup.CatchUp.behind>`); a late
        spectator's catch-up came. Never an endless catching up, nor one turned against the
        seat catching up (:mod:`client.net.catchup`, :meth:`Playing.tick`): behind one
        peer's word :data:`~client.net.catchup.BEHIND_LIMIT_MS` (20 s) at most in all until
        another seat's share or play moves the match on (its chat lines and its own records
        renew nothing); a resumed seat waits that long at most; neither takes the last
        :data:`~client.net.catchup.ACT_MARGIN_MS` (10 s) of this seat's own time limit; and
        a claim of abandonment is refused only in the 20 s after a catch-up the relay could
        not make whole (:meth:`may_claim`). A late spectator waits until its catch-up comes
        or cannot (:class:`~client.net.spectators.Arrival`). A stopped match has nothing
        more to catch up with."""
        session = self.session
        if session is None or session.stopped is not None or self.broken is not None:
            return False
        return self.replaying or not self.in_step

    def may_claim(self, now: int) -> bool:
        """Whether a claim of abandonment may be made *now*, catching up or not: a claim is
        judged where the relay places it, on signed records and times, so a board behind a
        peer's word only may claim (see :meth:`CatchUp.may_claim
        <client.net.catchup.CatchUp.may_claim>`); not while the relay replays, nor as a
        late spectator."""
        return (not self.replaying and self.in_relay_step and self.arrival is None
                and self.catch_up.may_claim(now))  # fmt: skip

    @property
    def names(self) -> tuple[str, ...]:
        if self.setup is not None:
            return self.setup.names
        return tuple(join.name for join in self.meeting.joins)

    @property
    def seats(self) -> int:
        proposal = self.meeting.proposal
        return 0 if proposal is None else proposal.seats

    @property
    def ended(self) -> MatchEnded | None:
        return None if self.session is None else self.session.ended

    @property
    def members(self) -> dict[int, Member]:
        return self.roster.members

    def member_for_seat(self, seat: int) -> Member | None:
        return self.roster.member_for_seat(seat)

    def who(self, relay_seat: int) -> str:
        """A relay member named for a person: the match's name when we know it."""
        return self.play.who(relay_seat)

    def waiting_note(self, now: int) -> str | None:
        """Resumed and waiting for the others' word: whom for, how long, what can be done
        (a late spectator: for whom to send the match so far)."""
        if self.arrival is not None:  # a late spectator, its catch-up not there yet
            return self.arrival.note(self.play, now)
        return self.play.waiting_note(now)

    def rematch_refusal(self) -> str | None:
        """Why this terminal cannot ask for a rematch (None: it may): see
        :meth:`Meetings.cannot_ask <client.net.meetings.Meetings.cannot_ask>`."""
        return self.meetings.cannot_ask(self._standing())

    def rematch_note(self) -> str | None:
        """Where a rematch stands, in words for the end screen (None: nobody asked)."""
        return self.meetings.note(self._standing())
