"""A local game as a screen sees it: whose turn, who the computer plays, dice, the log.

:class:`LocalGame` wraps the protocol's in-memory match so the screens never touch dice or
logs themselves: the screen asks what the game awaits and calls :meth:`LocalGame.throw` or
:meth:`LocalGame.play` for the seat whose turn it is. Each call returns a :class:`Turn`
holding the engine's events, which the screen animates and narrates. Missed turns (Goose)
are applied automatically; their events come with the call that led to them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from client.setup import GameSetup, SessionSettings
from engine.awaiting import Awaiting, ChoosePlay, Finished, ThrowDice
from protocol.events import MatchEnded
from protocol.local import LocalMatch
from protocol.logfile import default_data_dir


class NotYourTurnError(Exception):
    """An action was asked of a kind, or for a seat, the game is not waiting for."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One step of the game: who acted, the states before and after, what happened.

    ``events`` are the engine's events interleaved with the protocol's (dice rolled, shares
    revealed), in order; missed Goose turns that followed are included.
    """

    seat: int
    before: Any
    after: Any
    events: tuple[Any, ...]


def _options(setup: GameSetup) -> dict[str, int | str]:
    if setup.game == "goose":
        return {"rules": setup.rules, "ante": setup.ante, "fee": setup.fee}
    return {"match_to": setup.match_to, "bearoff": setup.bearoff}


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
    """One local game on this terminal; every seat is a person here or the computer."""

    def __init__(self, setup: GameSetup, settings: SessionSettings) -> None:
        self.setup = setup
        self.settings = settings
        start = settings.clock()
        self.match = LocalMatch.create(
            setup.game,
            _options(setup),
            names=setup.names,
            random_source=settings.random_source,
            now=start,
            log_path=None if settings.log_path is None else free_log_path(settings.log_path),
            log_data_dir=settings.data_dir or default_data_dir(),
        )
        # LocalMatch names the file itself when no path was given (date, game, players).
        assert self.match.log_path is not None
        self.log_path: Path = self.match.log_path

    @classmethod
    def start(cls, setup: GameSetup, settings: SessionSettings) -> LocalGame:
        return cls(setup, settings)

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.names

    @property
    def state(self) -> Any:
        """The engine state (``GooseState`` or ``JacquetState``)."""
        return self.match.state

    @property
    def awaiting(self) -> Awaiting:
        """``ThrowDice``, ``ChoosePlay`` or ``Finished`` (never ``MissTurn``)."""
        return self.match.awaiting

    @property
    def ended(self) -> MatchEnded | None:
        """How the match ended (finished, resigned…), once it has."""
        return self.match.ended

    @property
    def finished(self) -> bool:
        return isinstance(self.awaiting, Finished) or self.ended is not None

    def is_computer(self, seat: int) -> bool:
        return seat in self.setup.computer_seats

    def is_local_human(self, seat: int) -> bool:
        """Whether a person at this terminal acts for *seat* (hot-seat: every human seat)."""
        return not self.is_computer(seat)

    def throw(self) -> Turn:
        """Throw the dice the game is waiting for; :class:`NotYourTurnError` if it is not."""
        awaiting = self.awaiting
        if not isinstance(awaiting, ThrowDice) or self.ended is not None:
            raise NotYourTurnError("the game is not waiting for a throw")
        return self._turn(
            awaiting.seat, lambda: self.match.throw(awaiting.seat, self.settings.clock())
        )

    def play(self, play: Any) -> Turn:
        """Jacquet: play one of the legal plays (an illegal one raises the protocol's error)."""
        awaiting = self.awaiting
        if not isinstance(awaiting, ChoosePlay) or self.ended is not None:
            raise NotYourTurnError("the game is not waiting for a play")
        return self._turn(
            awaiting.seat, lambda: self.match.play(awaiting.seat, play, self.settings.clock())
        )

    def close(self) -> None:
        """Close the log file (the log keeps every record accepted so far)."""
        self.match.close()

    def _turn(self, seat: int, act: Callable[[], list[Any]]) -> Turn:
        before = self.state
        events = tuple(act())
        if self.finished:
            self.close()
        return Turn(seat, before, self.state, events)
