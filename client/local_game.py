"""A local game as a screen sees it: whose turn, who the computer plays, dice, the log.

:class:`LocalGame` wraps the protocol's in-memory match so the screens never touch dice or
logs themselves: the screen asks what the game awaits, and calls :meth:`throw`,
:meth:`miss_turn` or :meth:`play` for the seat whose turn it is. Each call returns a
:class:`Turn` holding the engine's events, which the screen animates and narrates.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from client.setup import GameSetup, SessionSettings
from engine.awaiting import Awaiting, ChoosePlay, Finished, MissTurn, ThrowDice


class NotYourTurnError(Exception):
    """An action was asked for a seat, or of a kind, the game is not waiting for."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One step of the game: who acted, the state before and after, what happened."""

    seat: int
    before: Any
    after: Any
    events: tuple[Any, ...]


class LocalGame:
    """One local game on this terminal; every seat is either a person here or the computer."""

    def __init__(self, setup: GameSetup, settings: SessionSettings, rng: random.Random) -> None:
        self.setup = setup
        self.settings = settings
        self._rng = rng
        self._rules: Any
        if setup.game == "goose":
            from engine import goose

            self._rules = goose
            self.state = goose.new_game(
                goose.GooseOptions(
                    players=len(setup.names), rules=setup.rules, ante=setup.ante, fee=setup.fee
                )
            )
        else:
            from engine import jacquet

            self._rules = jacquet
            self.state = jacquet.new_match(
                jacquet.JacquetOptions(match_to=setup.match_to, bearoff=setup.bearoff)
            )
        self.log_path: Path | None = None

    @classmethod
    def start(cls, setup: GameSetup, settings: SessionSettings) -> LocalGame:
        return cls(setup, settings, settings.rng_factory())

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.names

    @property
    def awaiting(self) -> Awaiting:
        awaiting: Awaiting = self.state.awaiting
        return awaiting

    @property
    def finished(self) -> bool:
        return isinstance(self.awaiting, Finished)

    def is_computer(self, seat: int) -> bool:
        return seat in self.setup.computer_seats

    def throw(self) -> Turn:
        """Throw the dice the game is waiting for; raises :class:`NotYourTurnError` if none."""
        awaiting = self.awaiting
        if not isinstance(awaiting, ThrowDice):
            raise NotYourTurnError("the game is not waiting for a throw")
        dice = tuple(self._rng.randint(1, 6) for _ in range(awaiting.count))
        return self._advance(awaiting.seat, self._rules.throw(self.state, dice))

    def miss_turn(self) -> Turn:
        awaiting = self.awaiting
        if not isinstance(awaiting, MissTurn):
            raise NotYourTurnError("nobody is missing a turn now")
        return self._advance(awaiting.seat, self._rules.miss_turn(self.state))

    def play(self, play: Any) -> Turn:
        """Jacquet: play one of the legal plays (the engine refuses an illegal one)."""
        awaiting = self.awaiting
        if not isinstance(awaiting, ChoosePlay):
            raise NotYourTurnError("the game is not waiting for a play")
        return self._advance(awaiting.seat, self._rules.play(self.state, play))

    def _advance(self, seat: int, outcome: Any) -> Turn:
        turn = Turn(seat, self.state, outcome.state, tuple(outcome.events))
        self.state = outcome.state
        return turn
