"""A room's meetings, one per match (the first, then each rematch), sans-I/O: payloads in,
:data:`Action` values out.

:class:`Meetings` decides what a room's meeting and rematch traffic means — whom to join,
when a match begins, what to refuse and whose fault it is — in the manner of
:class:`relay.core.RelayCore`: it sends nothing, starts nothing and reads no clock; the
match (:class:`~client.net.match.NetMatch`) carries out the actions it returns, in order.
One meeting (:class:`~client.net.meeting.Meeting`) gathers each match's players; the asks
for a rematch are a :class:`~client.net.rematch.RematchVote`.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.i18n import _
from client.net import wire
from client.net.catchup import ANSWER_SPACING_MS
from client.net.meeting import HOST_RELAY_SEAT, Meeting, NameClash, Refused, Unseated
from client.net.rematch import HOST_SEAT, RematchVote
from client.net.roster import PresenceChange, Roster
from client.net.untrusted import is_secret
from protocol.errors import LocalProtocolError
from protocol.events import MatchEnded
from protocol.identity import RandomSource
from protocol.names import name_key
from protocol.setup import Join, MatchSetup, Proposal, check_start


@dataclass(frozen=True, slots=True)
class Send:
    payload: wire.Payload


@dataclass(frozen=True, slots=True)
class JoinIt:
    """Join this proposal (with a fresh dice chain): a player's answer to it."""

    proposal: Proposal


@dataclass(frozen=True, slots=True)
class Begin:
    setup: MatchSetup
    began: int  # our clock when the match was set up: the first turn's limit runs from here


@dataclass(frozen=True, slots=True)
class Blame:
    """*relay_seat* sent what the room does not take; *text* says what it did (``fatal``:
    this client follows the room no further, and says so)."""

    relay_seat: int
    text: str
    fatal: bool = False


@dataclass(frozen=True, slots=True)
class TurnedAway:
    """This client's own join was not taken: it cannot play in this match; *text* says
    why and what to do, for the person at its screen (nobody is at fault)."""

    text: str


Action = Send | JoinIt | Begin | Blame | TurnedAway


@dataclass(frozen=True, slots=True)
class Standing:
    """Where the current match stands, as its session says."""

    seat: int | None  # ours (None: watching)
    ended: MatchEnded | None


def no_rematch_after(ended: MatchEnded) -> str | None:
    """Why a match that ended so has no rematch (None: it may have one): stopped on a
    fault, or claimed from a player gone past the time limit — nobody to play again with.

    >>> no_rematch_after(MatchEnded("resigned", winner=1, seat=0)) is None
    True
    >>> no_rematch_after(MatchEnded("abandoned", winner=1, seat=0)).endswith("nobody to play "
    ...                                                                    "again with")
    True
    """
    if ended.reason == "stopped":
        return _("the match was stopped: there is no rematch after that")
    if ended.reason == "abandoned":
        return _(
            "the match was claimed from a player gone past the time limit: there is nobody "
            "to play again with"
        )
    return None


class Meetings:
    """The meeting of the match being met for, the one before it, and the rematch vote."""

    def __init__(
        self, role: str, roster: Roster, random_source: RandomSource, public_key: bytes = b""
    ) -> None:
        self.role = role
        self.public_key = public_key  # ours: our own join is the one signed with it
        self.roster = roster
        self.random_source = random_source
        self.meeting = Meeting()  # the current match's, or the next one's once it is proposed
        self.setup: MatchSetup | None = None  # the match last begun
        self.spectator_token: str | None = None
        self.vote: RematchVote | None = None  # once the match ended and someone asked
        self._ended_meeting: Meeting | None = None  # back to it when a rematch is withdrawn
        self.joined_proposal: Proposal | None = None  # the last proposal this client joined
        self._setup_sent: dict[int, int] = {}  # host: relay seat -> when we last answered its ask

    @property
    def rematching(self) -> bool:
        """The next match in the room is proposed and its players are joining."""
        return self.setup is not None and self.meeting.previous is self.setup

    def begun(self, setup: MatchSetup) -> None:
        """The match *setup* began (met for here, or taken back from a log)."""
        self.setup = setup
        self.meeting.begun = True
        self.roster.seat_of_member.update(self.meeting.seats_of_senders(setup))
        self.vote = None
        self._ended_meeting = None

    def receive(
        self, relay_seat: int, payload: wire.Payload, now: int, standing: Standing
    ) -> list[Action]:
        """A payload from *relay_seat* about meeting a match (a proposal, a join, a setup,
        a rematch asked for or withdrawn); anything else is not the meetings'."""
        match payload:
            case wire.ProposalMsg(data, token):
                if not is_secret(token):  # it becomes a watch invite and a seat file's field
                    return [Blame(relay_seat, _("proposed a match with a malformed spectator "
                                                "token"))]  # fmt: skip
                proposal = Proposal.decode(data)
                check_start(proposal, now)  # its first deadline: within reach of our clock
                return self.proposed(relay_seat, proposal, token, now, standing)
            case wire.JoinMsg(data):
                return self.joined(relay_seat, Join.decode(data), now)
            case wire.SetupMsg(data):
                return self.started(relay_seat, data, now)
            case wire.SetupAsk():
                return self.setup_asked(relay_seat, now)
            case wire.Rematch(match_id):
                return self.asked(relay_seat, match_id, now, standing)
            case wire.RematchWithdrawn(match_id):
                return self.withdrawn(relay_seat, match_id)
        return []

    # ----------------------------------------------------------------- the meeting

    def propose(self, proposal: Proposal, spectator_token: str) -> list[Action]:
        """Host: offer the match to the room, then join it first."""
        self.meeting.proposal = proposal
        self.spectator_token = spectator_token
        return [Send(wire.ProposalMsg(proposal.encode(), spectator_token)), self._join(proposal)]

    def _join(self, proposal: Proposal) -> JoinIt:
        self.joined_proposal = proposal
        return JoinIt(proposal)

    def proposed(
        self, relay_seat: int, proposal: Proposal, token: str, now: int, standing: Standing
    ) -> list[Action]:
        setup = self.setup
        if setup is None and relay_seat != HOST_RELAY_SEAT:
            return [Blame(relay_seat, _("proposed a match, which only the host does"))]
        if setup is not None and self.meeting.begun and proposal != setup.proposal:
            if self.roster.seat_of_member.get(relay_seat) != HOST_SEAT:
                return [Blame(relay_seat, _("proposed a rematch, which only the host does"))]
            if standing.ended is None:
                return [Blame(relay_seat, _("proposed a rematch before the match ended"))]
            ended_meeting, self.meeting = self.meeting, Meeting(previous=setup)
            self._ended_meeting = ended_meeting
        try:
            opened = self.meeting.offered(relay_seat, proposal)
        except Refused as refusal:
            if self._ended_meeting is not None:
                self.meeting, self._ended_meeting = self._ended_meeting, None
            return [Blame(relay_seat, str(refusal))]
        if not opened:
            return []
        self.spectator_token = token
        if self.role == "spectator":
            return []
        if self.setup is not None:  # a rematch: the host withdraws it if it takes too long
            vote = self._vote()
            vote.proposed(now)
            # Nobody is put into a match he did not ask for: a rematch this seat did not ask
            # for is an offer, which the end screen shows and `a` accepts (:meth:`ask`).
            if standing.seat is None or standing.seat not in vote.askers:
                return []
        return [self._join(proposal)]

    def joined(self, relay_seat: int, join: Join, now: int) -> list[Action]:
        member = self.roster.members.get(relay_seat)
        try:
            full = self.meeting.add(relay_seat, join, None if member is None else member.name)
        except NameClash as clash:
            return self._clashed(relay_seat, join, clash)
        except Refused as refusal:
            if join.public_key == self.public_key:  # ours: nobody to blame but the relay's news
                return [TurnedAway(str(refusal))]
            return [Blame(relay_seat, str(refusal))]
        if not (full and self.role == "host"):
            return []
        setup = self.meeting.seated()
        return [Send(wire.SetupMsg(setup.encode())), Begin(setup, now)]

    def _clashed(self, relay_seat: int, join: Join, clash: NameClash) -> list[Action]:
        """A join came after another whose name reads the same; the meeting kept the first.
        Every client sees the joins in the relay's one order, so all agree on which one is
        out. Ours: this client is turned away and says so (it did nothing wrong). Another's:
        its sender is at fault only when he signed a name that is not the one the relay
        knows him by; otherwise each player signed his own name, nothing shows who lied,
        and the join is simply not taken (its sender's own client turns itself away)."""
        if join.public_key == self.public_key:
            text = _("this room already has a player called {name}: join again with another "
                     "name").format(name=clash.taken)  # fmt: skip
            return [TurnedAway(text)]
        member = self.roster.members.get(relay_seat)
        if member is None or name_key(member.name) != name_key(join.name):
            return [Blame(relay_seat, str(clash))]
        return []

    def started(self, relay_seat: int, data: bytes, now: int) -> list[Action]:
        meeting = self.meeting
        if meeting.begun:
            return []
        try:  # who sent it first: reading a setup checks every join's signature
            self.meeting.check_sender(relay_seat)
        except Refused as refusal:
            return [Blame(relay_seat, str(refusal))]
        setup = MatchSetup.decode(data)
        if setup == self.setup:
            return []  # the match begun before, sent again to a member who asked for it
        check_start(setup.proposal, now)
        if meeting.proposal is None and self.setup is None and relay_seat == HOST_RELAY_SEAT:
            meeting.missed = True  # the host's answer to our ask: its proposal passed us by
            meeting.offered(relay_seat, setup.proposal)
        try:
            meeting.check(relay_seat, setup)
        except Unseated as refusal:
            return [Blame(relay_seat, str(refusal), fatal=True)]
        except Refused as refusal:
            return [Blame(relay_seat, str(refusal))]
        return [Begin(setup, now)]

    def came(self, relay_seat: int, change: PresenceChange) -> list[Action]:
        """A member joined, came back, left or was given up. A relay seat given up or to
        someone new has not joined the meeting; the host offers the match being met for
        again to whoever comes, who may have missed it (the relay keeps so much of a room)."""
        if change in ("joined", "expired"):
            self.meeting.gone(relay_seat)
        if change in ("joined", "reconnected"):
            return self.offer_again()
        return []

    def offer_again(self) -> list[Action]:
        """Host: the proposal being met for, sent again (whoever holds it takes nothing new)."""
        meeting, token = self.meeting, self.spectator_token
        if self.role != "host" or meeting.begun or meeting.proposal is None or token is None:
            return []
        return [Send(wire.ProposalMsg(meeting.proposal.encode(), token))]

    def setup_asked(self, relay_seat: int, now: int) -> list[Action]:
        """Host: a member back without the match asks for its setup (it passed him by): the
        match being played, at most once per :data:`ANSWER_SPACING_MS` to each relay seat."""
        setup, last = self.setup, self._setup_sent.get(relay_seat)
        if self.role != "host" or setup is None or relay_seat == self.roster.me:
            return []
        if last is not None and now < last + ANSWER_SPACING_MS:
            return []
        self._setup_sent[relay_seat] = now
        return [Send(wire.SetupMsg(setup.encode()))]

    # ----------------------------------------------------------------- the rematch

    def away(self, standing: Standing) -> list[int]:
        """The match's other players not in the room now."""
        assert self.setup is not None
        seats = range(self.setup.seats)
        return [s for s in seats if s != standing.seat and not self.roster.here(s)]

    def _vote(self) -> RematchVote:
        assert self.setup is not None
        if self.vote is None:
            self.vote = RematchVote(self.setup.names)
        return self.vote

    def ask(self, now: int, standing: Standing) -> list[Action]:
        """This player would like another match with the same players in this room. Every
        player says so to the others (again if asked again: someone away may be back); once
        all of them have, the host proposes it. Nobody is put into a match he did not ask
        for. LocalProtocolError says why not (the match still on, a player gone…)."""
        setup, refusal = self.setup, self.cannot_ask(standing)
        if refusal is not None or setup is None or standing.seat is None:
            raise LocalProtocolError(refusal or _("only the players ask for a rematch"))
        vote = self._vote()
        if self.rematching:  # proposed: accepted by joining it, unless joined already
            proposal = self.meeting.proposal
            if proposal is None or self.joined_proposal is proposal:
                return []
            vote.ask(standing.seat)
            return [self._join(proposal)]
        missing = vote.missing(self.away(standing))
        if missing is not None:
            raise LocalProtocolError(missing)
        vote.ask(standing.seat)
        return [Send(wire.Rematch(setup.match_id)), *self._propose_when_all_asked(now, standing)]

    def cannot_ask(self, standing: Standing) -> str | None:
        """Why this terminal can never ask for a rematch after the match as it stands (None:
        it may; a player away for now is said by the end screen's note, not here). The end
        screen offers "Play again" only when this is None."""
        ended = standing.ended
        if standing.seat is None or self.setup is None:
            return _("only the players ask for a rematch")
        if ended is None:
            return _("the match is still being played: a rematch comes after it")
        return no_rematch_after(ended)

    def asked(self, relay_seat: int, match_id: bytes, now: int, standing: Standing) -> list[Action]:
        setup, seat = self.setup, self.roster.seat_of_member.get(relay_seat)
        if setup is None or match_id != setup.match_id or seat is None or self.rematching:
            return []  # an earlier match's, or already answered
        if standing.ended is None:
            asked = _("asked for a rematch while the match is still being played")
            return [Blame(relay_seat, asked)]
        self._vote().ask(seat)
        return self._propose_when_all_asked(now, standing)

    def withdraw(self) -> list[Action]:
        """Host: the rematch he proposed is off (a player left, say); everyone is back
        between the two matches. LocalProtocolError when there is none to withdraw."""
        if self.role != "host" or not self.rematching or self.setup is None:
            raise LocalProtocolError(_("only the host withdraws the rematch he proposed"))
        self._back_between_matches()
        return [Send(wire.RematchWithdrawn(self.setup.match_id))]

    def withdrawn(self, relay_seat: int, match_id: bytes) -> list[Action]:
        if relay_seat == self.roster.me or self.setup is None or match_id != self.setup.match_id:
            return []  # ours, done when sent; or an earlier match's
        if self.roster.seat_of_member.get(relay_seat) != HOST_SEAT:
            return [Blame(relay_seat, _("withdrew a rematch, which only the host does"))]
        if self.rematching:
            self._back_between_matches()
        return []

    def tick(self, now: int) -> list[Action]:
        """Host: a proposal its players did not complete in time is withdrawn."""
        vote = self.vote
        if self.role == "host" and self.rematching and vote is not None and vote.expired(now):
            return self.withdraw()
        return []

    def note(self, standing: Standing) -> str | None:
        """Where a rematch stands, in words for the end screen (None: nothing to say)."""
        if self.setup is None or standing.ended is None:
            return None
        joined = len(self.meeting.joins) if self.rematching else None
        offered = self.rematching and self.joined_proposal is not self.meeting.proposal
        return self._vote().note(my_seat=standing.seat, away=self.away(standing), joined=joined,
                                 offered=offered and standing.seat is not None)  # fmt: skip

    def _back_between_matches(self) -> None:
        assert self._ended_meeting is not None
        self.meeting, self._ended_meeting = self._ended_meeting, None
        self._vote().withdraw()

    def _propose_when_all_asked(self, now: int, standing: Standing) -> list[Action]:
        """Host: every player of the match asked, none is gone: the rematch it is."""
        setup, ended, vote = self.setup, standing.ended, self.vote
        if (
            self.role != "host"
            or setup is None
            or ended is None
            or no_rematch_after(ended) is not None
            or self.rematching
            or vote is None
            or not vote.all_asked
            or self.away(standing)
            or self.spectator_token is None
        ):
            return []
        before = setup.proposal  # the same match again: a new id, fresh chains
        proposal = Proposal.create(
            before.game,
            dict(before.options),
            seats=before.seats,
            start_time=now,
            random_source=self.random_source,
            time_limit_ms=before.time_limit_ms,
        )
        self._ended_meeting, self.meeting = self.meeting, Meeting(previous=setup)
        vote.proposed(now)
        return self.propose(proposal, self.spectator_token)
