"""The engine's errors. All subclass :class:`ValueError`, like python-chess's.

An error a player may meet (a refused play, a mistyped move) carries its ``reason`` as a
:class:`~engine.clause.Clause`, for the client to say in the player's language; its message
(``str()``) is that clause's English, what the JSON interfaces and the logs carry.

>>> from engine.clause import N_, Clause
>>> error = IllegalMoveError(Clause.of(N_("you have no checker on {point}"), point=5))
>>> str(error), isinstance(error.reason, Clause)
('you have no checker on 5', True)
"""

from __future__ import annotations

from engine.clause import Clause


class EngineError(ValueError):
    """Base class: the engine was asked for something the rules or formats do not allow."""

    def __init__(self, reason: str | Clause) -> None:
        super().__init__(str(reason))
        self.reason = reason
        """Why, as it was given: a clause when a player may meet it, else English."""


class IllegalMoveError(EngineError):
    """A throw, play or turn that the rules forbid in the current state."""


class InvalidPositionError(EngineError):
    """A position or state that cannot exist (16 checkers, a square of 64, ...)."""


class NotationError(EngineError):
    """Text that is not valid notation (``1/7 7/12``, ``21/off``, ``-``)."""


class InvalidOptionsError(EngineError):
    """Game options outside what the rules allow (1 player, a fee of -3, ...)."""
