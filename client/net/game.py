"""A networked game as the game screens see it: the same members as :class:`LocalGame`.

The screens read ``state``/``awaiting`` and call ``throw``/``play`` exactly as for a local
game; what differs is time. A throw is not over when this seat reveals its share: the dice
are known once every other seat's share came back through the relay, so :meth:`throw` only
starts it, and the finished turn — ours or anyone's — arrives from :meth:`next_turn`.
``state`` and ``awaiting`` describe the last turn handed to the screen, not what the session
already knows, so the screen never sees the match jump ahead of what it has shown.

One :class:`NetworkGame` is one match: when a rematch begins in the room, this one is
:attr:`~NetworkGame.superseded` and :meth:`~NetworkGame.rematch` gives the next one, which
takes the room over.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from client.local_game import NotYourTurnError, Turn
from client.net.link import LinkStatus, RelayLink
from client.net.match import NetMatch, Offence
from client.setup import GameSetup, GooseSetup, JacquetSetup, SessionSettings, SetupError
from engine.awaiting import Awaiting, ChoosePlay, Finished, ThrowDice
from protocol.errors import LocalProtocolError
from protocol.events import ChatReceived, MatchEnded


class NetworkGame:
    """One networked match on this terminal: one seat here (or none, watching)."""

    def __init__(
        self,
        match: NetMatch,
        link: RelayLink,
        settings: SessionSettings,
        *,
        computer: bool = False,
        level: int = 1,
    ) -> None:
        assert match.setup is not None and match.session is not None, "the match has begun"
        self.match = match
        self.link = link
        self.settings = settings
        self.local_seat = match.seat
        self.computer = computer and self.local_seat is not None
        self.level = level
        self.setup = _game_setup(match, self.local_seat if self.computer else None, level)
        self._match_setup = match.setup  # the match this game is (a rematch is another)
        self._log_path = match.log_path
        self._handed_over = False
        self._state: Any = match.session.state
        self._ended: MatchEnded | None = None
        # Turns played before this screen existed (a late spectator's catch-up): told, not
        # replayed, so the screen opens on the current position.
        self.history: tuple[Turn, ...] = tuple(match.turns)
        match.turns.clear()
        # Every line said in the room so far, for a chat panel opened now (a rematch's too).
        self.chat_history: list[ChatReceived] = list(match.chats)
        match.chats.clear()
        for turn in self.history:
            self._show(turn)
        self._turn_ready = asyncio.Event()
        self.chat_listeners: list[Callable[[ChatReceived], None]] = []
        self.offence_listeners: list[Callable[[Offence], None]] = []
        self.change_listeners: list[Callable[[], None]] = []
        self._offences_seen = len(match.offences)
        self.closer: Callable[[], Coroutine[Any, Any, None]] | None = None  # leaves the room
        match.listeners.append(self._on_change)
        self._on_change()

    # ----------------------------------------------------------------- as LocalGame

    @property
    def names(self) -> tuple[str, ...]:
        return self.match.names

    @property
    def state(self) -> Any:
        return self._state

    @property
    def awaiting(self) -> Awaiting:
        if self._ended is not None:
            return Finished()
        awaiting: Awaiting = self._state.awaiting
        return awaiting

    @property
    def ended(self) -> MatchEnded | None:
        return self._ended

    @property
    def finished(self) -> bool:
        return isinstance(self.awaiting, Finished)

    @property
    def log_path(self) -> Path | None:
        return self._log_path

    @property
    def watching(self) -> bool:
        return self.local_seat is None

    def is_computer(self, seat: int) -> bool:
        return self.computer and seat == self.local_seat

    def is_local_human(self, seat: int) -> bool:
        return not self.computer and seat == self.local_seat

    def is_remote(self, seat: int) -> bool:
        return seat != self.local_seat

    def throw(self) -> None:
        """Reveal this seat's share for the awaited throw; the turn comes from next_turn."""
        awaiting = self.awaiting
        if not isinstance(awaiting, ThrowDice) or awaiting.seat != self.local_seat:
            raise NotYourTurnError("the game is not waiting for your throw")
        self._act(lambda session: session.throw(self.settings.clock()))

    def play(self, play: Any) -> Turn:
        """Jacquet: play this seat's play; checked and applied here at once."""
        awaiting = self.awaiting
        if not isinstance(awaiting, ChoosePlay) or awaiting.seat != self.local_seat:
            raise NotYourTurnError("the game is not waiting for your play")
        self._act(lambda session: session.play(play, self.settings.clock()))
        turn = self.match.turns.pop()  # the play just made, already accepted
        self._show(turn)
        return turn

    async def next_turn(self, *, show: bool = True) -> Turn:
        """The next finished turn, in match order (anyone's, ours included).

        ``show=False`` leaves ``state`` where it was, for a screen that first plays the turn
        back from there; it then calls :meth:`show` with the turn.
        """
        while self.superseded or not self.match.turns:  # a rematch's turns are not ours
            self._turn_ready.clear()
            await self._turn_ready.wait()
        turn = self.match.turns.popleft()
        if show:
            self._show(turn)
        return turn

    def show(self, turn: Turn) -> None:
        """The screen has shown *turn*: ``state`` and ``awaiting`` move on past it."""
        self._show(turn)

    def chat(self, text: str) -> None:
        self._act(lambda session: session.chat(text, self.settings.clock()))

    def resign(self) -> None:
        self._act(lambda session: session.resign(self.settings.clock()))

    def claim_abandonment(self, seat: int) -> None:
        self._act(lambda session: session.claim_abandonment(seat, self.settings.clock()))

    # ----------------------------------------------------------------- the rematch

    def ask_rematch(self) -> None:
        """Ask for another match with the same players in this room (the host proposes it
        at once); NotYourTurnError says why not."""
        try:
            self.match.ask_rematch(self.settings.clock())
        except LocalProtocolError as error:
            raise NotYourTurnError(error.reason) from None
        self.link.flush()

    @property
    def rematch_note(self) -> str | None:
        return self.match.rematch_note()

    @property
    def superseded(self) -> bool:
        """A rematch has begun in the room: this game's match is over and done with."""
        return self.match.setup is not self._match_setup

    def rematch(self) -> NetworkGame:
        """The match that superseded this one, as the game screens use it; it takes the room
        over (closing this game no longer leaves it)."""
        assert self.superseded
        self.match.listeners.remove(self._on_change)
        game = NetworkGame(
            self.match, self.link, self.settings, computer=self.computer, level=self.level
        )
        game.closer, self.closer = self.closer, None
        game.chat_history[:0] = self.chat_history  # the talk goes on across matches
        self._handed_over = True
        return game

    def close(self) -> None:
        """Close the log (the game screen does it when it is removed)."""
        if not self._handed_over:  # else the rematch's game has the match now
            self.match.close()

    def leaving(self) -> Callable[[], Coroutine[Any, Any, None]] | None:
        """What leaves the room once this game's screen is gone (``None`` when a rematch's
        game took the room over). The caller runs it: the app, which waits for it before it
        exits, so a connection is never left half-closed."""
        closer, self.closer = self.closer, None
        return None if self._handed_over else closer

    # ----------------------------------------------------------------- the connection

    @property
    def status(self) -> LinkStatus:
        return self.link.status

    def claimable(self, now_ms: int) -> int | None:
        """The seat this seat may claim abandoned now (past the time limit), if any."""
        session = self.match.session
        if session is None or self.local_seat is None or session.ended is not None:
            return None
        if now_ms < session.deadline():
            return None
        return next((s for s in session.awaited_seats() if s != self.local_seat), None)

    # ----------------------------------------------------------------- internals

    def _act(self, action: Callable[[Any], list[Any]]) -> None:
        try:
            self.match.act(action)
        except LocalProtocolError as error:
            raise NotYourTurnError(error.reason) from None
        self.link.flush()

    def _show(self, turn: Turn) -> None:
        self._state = turn.after
        ended = [event for event in turn.events if isinstance(event, MatchEnded)]
        if ended:
            self._ended = ended[-1]

    def _on_change(self) -> None:
        if self.match.turns:
            self._turn_ready.set()
        while self.match.chats:
            line = self.match.chats.popleft()
            self.chat_history.append(line)
            for chat_listener in self.chat_listeners:
                chat_listener(line)
        for offence in self.match.offences[self._offences_seen :]:
            for offence_listener in self.offence_listeners:
                offence_listener(offence)
        self._offences_seen = len(self.match.offences)
        for listener in self.change_listeners:
            listener()


def _game_setup(match: NetMatch, computer_seat: int | None, level: int) -> GameSetup:
    """The screens' view of the match: a local setup with the same names and options."""
    assert match.setup is not None
    computer = frozenset() if computer_seat is None else frozenset({computer_seat})
    options: dict[str, Any] = dict(match.setup.proposal.options)
    names = match.setup.names
    try:
        return _setup(match.setup.game, names, computer, level, options)
    except SetupError:  # names the protocol allows but a local game would not (twins, long)
        unique = tuple(f"{name[:16]} {seat + 1}" for seat, name in enumerate(names))
        return _setup(match.setup.game, unique, computer, level, options)


def _setup(
    game: str, names: tuple[str, ...], computer: frozenset[int], level: int, options: Any
) -> GameSetup:
    if game == "goose":
        return GooseSetup(names, computer, **options)
    return JacquetSetup((names[0], names[1]), computer, level, **options)
