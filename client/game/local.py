"""A local game: every seat at this terminal, a person or the computer (hot-seat).

:class:`LocalGame` wraps the protocol's in-memory match (every seat a real session, a signed
log written record by record), so the screens never touch dice or logs themselves. An action
runs at once; its turn waits in the driver's queue for the screen (:meth:`next_turn`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from client.game.driver import Extras, Listener, ScreenAwaiting, SeatRole
from client.game.score import RunningScore
from client.game.turn import GameState, NotYourTurnError, Turn, TurnEvent, TurnQueue
from client.setup import GameSetup, SessionSettings, game_options
from engine.awaiting import ChoosePlay, Finished, ThrowDice
from engine.jacquet import Play
from protocol.events import MatchEnded
from protocol.local import LocalMatch
from protocol.logfile import default_data_dir


def free_log_path(path: Path) -> Path:
    """*path*, or *path* with ``-2``, ``-3``… added when a log is already there (logs are
    never overwritten, and "play again" reuses the path given on the command line, networked
    rematches too)."""
    candidate, counter = path, 2
    while candidate.exists():
        candidate = path.with_name(f"{path.stem}-{counter}{path.suffix}")
        counter += 1
    return candidate


class LocalGame:
    """One local game on this terminal (a :class:`~client.game.driver.GameDriver`)."""

    animated = True
    home_seat = None
    def __init__(
        self, setup: GameSetup, settings: SessionSettings, score: RunningScore | None = None
    ) -> None:
        """*score*: the session's so far, when this game is played again after others."""
        self.setup = setup
        self.settings = settings
        self.extras = Extras(score=score)
        self.match = LocalMatch.create(
            setup.game,
            game_options(setup),
            names=setup.names,
            random_source=settings.random_source,
            now=settings.clock(),
            log_path=None if settings.log_path is None else free_log_path(settings.log_path),
            log_data_dir=settings.data_dir or default_data_dir(),
        )
        # LocalMatch names the file itself when no path was given (date, game, players).
        assert self.match.log_path is not None
        self.log_path: Path = self.match.log_path
        self._turns = TurnQueue(self.match.state)

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.names

    @property
    def state(self) -> GameState:
        return self._turns.shown

    @property
    def awaiting(self) -> ScreenAwaiting:
        if self._turns.ended is not None:
            return Finished()
        awaiting = self.state.awaiting
        assert isinstance(awaiting, ThrowDice | ChoosePlay | Finished)  # MissTurn: applied
        return awaiting

    @property
    def ended(self) -> MatchEnded | None:
        return self._turns.ended

    @property
    def finished(self) -> bool:
        return isinstance(self.awaiting, Finished)

    @property
    def pending_turns(self) -> int:
        return self._turns.pending

    def seat_role(self, seat: int) -> SeatRole:
        return "computer" if seat in self.setup.computer_seats else "person"

    def throw(self) -> None:
        """Throw the dice the match waits for (whoever's turn it is: every seat is here)."""
        awaiting = self.match.awaiting
        if not isinstance(awaiting, ThrowDice) or self.match.ended is not None:
            raise NotYourTurnError("the game is not waiting for a throw")
        self._act(awaiting.seat, lambda now: self.match.throw(awaiting.seat, now))

    def play(self, play: Play) -> None:
        """Jacquet: play one of the legal plays (an illegal one raises the protocol's error)."""
        awaiting = self.match.awaiting
        if not isinstance(awaiting, ChoosePlay) or self.match.ended is not None:
            raise NotYourTurnError("the game is not waiting for a play")
        self._act(awaiting.seat, lambda now: self.match.play(awaiting.seat, play, now))

    async def next_turn(self) -> Turn:
        return await self._turns.next()

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return lambda: None  # nothing changes here but by the turns

    def close(self) -> None:
        """Close the log file (the log keeps every record accepted so far)."""
        self.match.close()

    def _act(self, seat: int, act: Callable[[int], list[TurnEvent]]) -> None:
        before = self.match.state
        events = tuple(act(self.settings.clock()))
        if self.match.ended is not None:
            self.close()
        self._turns.put(Turn(seat, before, self.match.state, events))
