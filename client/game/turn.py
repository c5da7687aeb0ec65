"""One step of a game as a screen receives it, whichever driver produced it.

A :class:`Turn` is what one action led to — a throw once its dice are known, a play, a
resignation — with the states before and after and every event in order, the engines'
interleaved with the protocol's (dice rolled, shares revealed, the match's end). Missed Goose
turns that followed come with it. :class:`TurnQueue` hands turns to a screen one at a time,
in the order they happened, and keeps what the screen has been shown: a driver's ``state``
is the state after the last turn handed out, never further, so the screen never sees the
game jump ahead of what it has drawn.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass
from typing import TypeAlias

from engine.goose import GooseEvent, GooseState
from engine.jacquet import JacquetEvent, JacquetState
from protocol.events import MatchEnded, ProtocolEvent

GameState: TypeAlias = GooseState | JacquetState
TurnEvent: TypeAlias = GooseEvent | JacquetEvent | ProtocolEvent


class NotYourTurnError(ValueError):
    """An action was asked that the game is not waiting for (of that kind, or from here);
    the message says why in words."""


@dataclass(frozen=True, slots=True)
class Turn:
    """Who acted, the states before and after, and what happened in between."""

    seat: int
    before: GameState
    after: GameState
    events: tuple[TurnEvent, ...]

    @property
    def ended(self) -> MatchEnded | None:
        """The match's end, when this turn ended it."""
        return next((e for e in reversed(self.events) if isinstance(e, MatchEnded)), None)


class TurnQueue:
    """Turns waiting for the screen, and what the screen was last handed."""

    def __init__(self, state: GameState) -> None:
        self.shown: GameState = state
        self.ended: MatchEnded | None = None
        self._waiting: deque[Turn] = deque()
        self._ready = asyncio.Event()

    def put(self, turn: Turn) -> None:
        self._waiting.append(turn)
        self._ready.set()

    def take_now(self, turn: Turn) -> None:
        """Count *turn* as shown without queueing it (what happened before the screen)."""
        self.shown = turn.after
        self.ended = turn.ended or self.ended

    @property
    def pending(self) -> int:
        return len(self._waiting)

    async def next(self) -> Turn:
        """The next turn, once there is one; from then on it counts as shown."""
        while not self._waiting:
            self._ready.clear()
            await self._ready.wait()
        turn = self._waiting.popleft()
        self.take_now(turn)
        return turn
