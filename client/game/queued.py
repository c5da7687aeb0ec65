"""What a game driver that shows its turns through a :class:`~client.game.turn.TurnQueue`
answers about them: local and networked games alike (a replay steps on its own)."""

from __future__ import annotations

from client.game.driver import ScreenAwaiting
from client.game.turn import GameState, Turn, TurnQueue
from engine.awaiting import ChoosePlay, Finished, ThrowDice
from protocol.events import MatchEnded


class QueuedTurns:
    """The screen sees the state of the last turn it took from ``_turns``, not the match's
    newest: turns it has not shown yet wait in the queue."""

    _turns: TurnQueue

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

    async def next_turn(self) -> Turn:
        return await self._turns.next()
