"""The engine's errors. All subclass :class:`ValueError`, like python-chess's."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class: the engine was asked for something the rules or formats do not allow."""


class IllegalMoveError(EngineError):
    """A throw, play or turn that the rules forbid in the current state."""


class InvalidPositionError(EngineError):
    """A position or state that cannot exist (16 checkers, a square of 64, ...)."""


class NotationError(EngineError):
    """Text that is not valid notation (``1/7 7/12``, ``21/off``, ``-``)."""


class InvalidOptionsError(EngineError):
    """Game options outside what the rules allow (1 player, a fee of -3, ...)."""
