"""A networked match as the game screens play it: one seat here (or none, watching).

:class:`NetworkGame` is a :class:`~client.game.driver.GameDriver` like the local game and the
replay; what differs is time. A throw is not over when this seat reveals its share: the dice
are known once every other seat's share came back through the relay, so :meth:`throw` only
starts it, and the finished turn — ours or anyone's — arrives from :meth:`next_turn`, in the
room's order. It is also the game's chat, its relay link and its rematch
(:class:`~client.game.driver.Extras`).

One :class:`NetworkGame` is one match: when a rematch begins in the room, this one is
:attr:`superseded` and :meth:`next_game` gives the next one, which takes the room over.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

from client.game.driver import (
    Changed,
    ChatLine,
    Extras,
    GameDriver,
    GameNews,
    Listener,
    Offence,
    OffenceNews,
    PeerLine,
    RoomInvites,
    SeatRole,
    Superseded,
    catching_up_refusal,
    seated,
)
from client.game.link_status import LinkStatus
from client.game.queued import QueuedTurns
from client.game.turn import NotYourTurnError, TurnQueue
from client.i18n import _, say
from client.net.link import RelayLink
from client.net.match import NetMatch
from client.setup import GameSetup, SessionSettings, setup_for_match
from engine.awaiting import ChoosePlay, ThrowDice
from engine.jacquet import Play
from protocol.errors import LocalProtocolError
from protocol.events import ChatReceived, Event
from protocol.session import MatchSession

Closer = Callable[[], Coroutine[Any, Any, None]]
SEAT_GRACE_S = 300
"""How long the relay holds a disconnected player's seat: its default (``--seat-grace``); the
relay does not say its own, so a relay configured otherwise shows a countdown that is off."""


class NetworkGame(QueuedTurns):
    """One networked match on this terminal; see the module docstring."""

    def __init__(
        self,
        match: NetMatch,
        link: RelayLink,
        settings: SessionSettings,
        *,
        computer: bool = False,
        level: int = 1,
        invites: RoomInvites | None = None,
    ) -> None:
        assert match.setup is not None and match.session is not None, "the match has begun"
        self.match = match
        self.link = link
        self.settings = settings
        self.local_seat = match.seat
        self.computer = computer and self.local_seat is not None
        self.level = level
        here = self.local_seat
        computer_seats = frozenset({here}) if self.computer and here is not None else frozenset()
        setup = match.setup
        self.setup: GameSetup = setup_for_match(
            setup.game, setup.names, dict(setup.proposal.options),
            computer_seats=computer_seats, level=level,
        )  # fmt: skip
        self._match_setup = setup  # the match this game is (a rematch is another)
        self._log_path = match.log_path
        self._handed_over = False
        # Every turn the match has cut so far waits here, from the first: a late spectator's
        # screen (or one back in its seat) catches up through the same turns as a live one.
        self._turns = TurnQueue(match.session.state if not match.turns else match.turns[0].before)
        # Every line said in the room so far, for a chat panel opened now (a rematch's too).
        self.chat_history: list[ChatReceived] = list(match.chats)
        match.chats.clear()
        self._listeners: list[Listener] = []
        self._offences_seen = 0
        self.closer: Closer | None = None  # leaves the room
        self._next: NetworkGame | None = None  # the rematch's game, once asked for
        self._told_superseded = False
        self.extras = Extras(chat=self, link=self, resigning=self, rematch=self,
                             score=match.score, invites=invites)  # fmt: skip
        self._unsubscribe = match.subscribe(self._on_change)
        self._on_change()

    # ----------------------------------------------------------------- as a game driver

    animated = True

    @property
    def names(self) -> tuple[str, ...]:
        return self.match.names

    @property
    def log_path(self) -> Path | None:
        return self._log_path

    @property
    def home_seat(self) -> int | None:
        return self.local_seat

    @property
    def watching(self) -> bool:
        return self.local_seat is None

    def seat_role(self, seat: int) -> SeatRole:
        if seat != self.local_seat:
            return "elsewhere"
        return "computer" if self.computer else "person"

    def throw(self) -> None:
        """Reveal this seat's share for the awaited throw; the turn comes from next_turn."""
        self._in_step()
        awaiting = self.awaiting
        if not isinstance(awaiting, ThrowDice) or awaiting.seat != self.local_seat:
            raise NotYourTurnError(_("the game is not waiting for your throw"))
        self._act(lambda session: session.throw(self.settings.clock()))

    def play(self, play: Play) -> None:
        """Jacquet: play this seat's play (checked and applied at once; its turn follows)."""
        self._in_step()
        awaiting = self.awaiting
        if not isinstance(awaiting, ChoosePlay) or awaiting.seat != self.local_seat:
            raise NotYourTurnError(_("the game is not waiting for your play"))
        self._act(lambda session: session.play(play, self.settings.clock()))

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def close(self) -> None:
        """Close the log (the game screen does it when it is removed)."""
        if not self._handed_over:  # else the rematch's game has the match now
            self.match.close()

    # ----------------------------------------------------------------- the chat

    @property
    def can_speak(self) -> bool:
        return not self.watching

    def chat(self, text: str) -> None:
        self._act(lambda session: session.chat(text, self.settings.clock()))

    # ----------------------------------------------------------------- the relay link

    @property
    def status(self) -> LinkStatus:
        return self.link.status

    @property
    def offences(self) -> Sequence[Offence]:
        return self.match.offences

    @property
    def resumable(self) -> bool:
        return self.match.resumable

    def describe_peers(self) -> Sequence[PeerLine]:
        """Each other player: here, away (with his seat's grace left), gone."""
        now = self.settings.clock()
        lines = []
        for seat, plain in enumerate(self.names):
            if seat == self.local_seat:
                continue
            name = seated(plain, seat)
            member = self.match.member_for_seat(seat)
            if member is None:  # given up (his seat expired), or not heard of here yet
                gone = seat in self.match.roster.given_up
                lines.append(PeerLine(name, "gone" if gone else "unknown"))
            elif member.connected:
                lines.append(PeerLine(name, "here"))
            elif member.expired:
                lines.append(PeerLine(name, "gone"))
            else:
                left = SEAT_GRACE_S * 1000 - (now - member.since)
                lines.append(PeerLine(name, "away", max(0, left)))
        return lines

    def claimable(self, now_ms: int) -> int | None:
        """The seat this one may claim abandoned now (past its time limit), catching up or
        not (see :meth:`MatchView.may_claim <client.net.view.MatchView.may_claim>`)."""
        session = self._live_session()
        if session is None or self.local_seat is None or now_ms < session.claim_deadline():
            return None
        if self.catching_up and not self.match.may_claim(now_ms):
            return None
        return next((s for s in session.awaited_seats() if s != self.local_seat), None)

    def waiting_for(self, now_ms: int) -> tuple[tuple[str, ...], int] | None:
        """Absent players the match waits for, and the ms until a claim is possible."""
        session = self._live_session()
        if session is None or self.watching:
            return None
        awaited = [seat for seat in session.awaited_seats() if seat != self.local_seat]
        absent = [
            seat
            for seat in awaited
            if not (member := self.match.member_for_seat(seat)) or not member.connected
        ]
        if not absent:
            return None
        return tuple(self.names[seat] for seat in absent), session.claim_deadline() - now_ms

    def claim_abandonment(self, seat: int) -> None:
        if self.catching_up and not self.match.may_claim(self.settings.clock()):
            raise NotYourTurnError(catching_up_refusal())
        self._act(lambda session: session.claim_abandonment(seat, self.settings.clock()))

    @property
    def catching_up(self) -> bool:
        """See :attr:`MatchView.catching_up <client.net.view.MatchView.catching_up>`; a
        rematch's or a link that left the room for good is not this game's to catch up."""
        if self.superseded or self.link.status.state == "failed":
            return False
        return self.match.catching_up

    def catching_up_note(self, now_ms: int) -> str | None:
        return self.match.waiting_note(now_ms) if self.catching_up else None

    @property
    def resigner(self) -> int | None:
        return None if self.finished else self.local_seat

    def resign(self) -> None:
        self._in_step()
        self._act(lambda session: session.resign(self.settings.clock()))

    def leaving(self) -> Closer | None:
        closer, self.closer = self.closer, None
        return None if self._handed_over else closer

    # ----------------------------------------------------------------- the rematch

    def ask_rematch(self) -> None:
        """Ask for another match with the same players in this room (the host proposes it
        once everyone asked); NotYourTurnError says why not."""
        try:
            self.match.ask_rematch(self.settings.clock())
        except LocalProtocolError as error:
            raise NotYourTurnError(say(error.reason)) from None
        self.link.flush()

    def withdraw_rematch(self) -> None:
        try:
            self.match.withdraw_rematch()
        except LocalProtocolError as error:
            raise NotYourTurnError(say(error.reason)) from None
        self.link.flush()

    @property
    def can_ask_rematch(self) -> bool:
        """A player's, after a match that may have one (not one stopped, or claimed from a
        player gone: nobody to play again with); the same rule as the rematch's own."""
        return self.match.rematch_refusal() is None

    @property
    def can_withdraw_rematch(self) -> bool:
        return self.match.role == "host" and self.match.rematching

    @property
    def rematch_note(self) -> str | None:
        return self.match.rematch_note()

    @property
    def superseded(self) -> bool:
        """A rematch has begun in the room: this game's match is over and done with."""
        return self.match.setup is not self._match_setup

    def next_game(self) -> GameDriver:
        """The match that superseded this one; it takes the room over (closing this game no
        longer leaves it). The same game however often it is asked for."""
        assert self.superseded
        if self._next is None:
            self._unsubscribe()
            game = NetworkGame(self.match, self.link, self.settings, computer=self.computer,
                               level=self.level, invites=self.extras.invites)  # fmt: skip
            game.closer, self.closer = self.closer, None
            game.chat_history[:0] = self.chat_history  # the talk goes on across matches
            self._handed_over = True
            self._next = game
        return self._next

    def _computer_accepts_a_rematch(self) -> None:
        """A computer seat wants whatever rematch a person here asked for."""
        vote, seat = self.match.rematch, self.local_seat
        if not self.computer or seat is None or vote is None or not vote.askers:
            return
        if seat in vote.askers or self.match.rematching:
            return
        with contextlib.suppress(LocalProtocolError):  # a player is away: asked again later
            self.match.ask_rematch(self.settings.clock())
            self.link.flush()

    # ----------------------------------------------------------------- internals

    def _live_session(self) -> MatchSession | None:
        session = self.match.session
        if session is None or session.ended is not None or self.superseded:
            return None
        return session

    def _in_step(self) -> None:
        """Nothing is done on a board that is not known to be current: NotYourTurnError."""
        if self.catching_up:
            raise NotYourTurnError(catching_up_refusal())

    def _act(self, action: Callable[[MatchSession], list[Event]]) -> None:
        try:
            self.match.act(action)
        except LocalProtocolError as error:
            raise NotYourTurnError(say(error.reason)) from None
        except Exception as error:  # on what peers said before: named, never a crash
            self.link.stop_for(self.match.cannot_handle(None, error, own=True))
            return
        self.link.flush()

    def _tell(self, news: GameNews) -> None:
        for listener in list(self._listeners):
            listener(news)

    def _on_change(self) -> None:
        # What the change asked to send leaves first: the turn put below wakes the screen's
        # worker, which would otherwise draw the play (milliseconds) before it is sent.
        self.link.flush()
        if self.superseded:  # a rematch's turns are not ours
            if not self._told_superseded:
                self._told_superseded = True
                self._tell(Superseded())
            return
        self._computer_accepts_a_rematch()
        while self.match.turns:
            self._turns.put(self.match.turns.popleft())
        while self.match.chats:
            line = self.match.chats.popleft()
            self.chat_history.append(line)
            self._tell(ChatLine(line))
        for offence in self.match.offences[self._offences_seen :]:
            self._tell(OffenceNews(offence))
        self._offences_seen = len(self.match.offences)
        self._tell(Changed())
