"""A match's events cut into turns, sans-I/O: session events in, turns out (a networked
match's live, a local game's taken up again from its log).

A session reports events as records arrive, a turn's in several pieces (each seat's share,
then the dice and the engine's moves). :class:`TurnCutter` holds them until a turn can be
shown — its dice are known, a play is made, or the match ends — and hands it over whole,
with the states before and after. Chat lines and ignored duplicates are not a turn's: chat
goes to :attr:`TurnCutter.chats`, duplicates nowhere.
"""

from __future__ import annotations

from collections import deque

from client.game.turn import GameState, Turn
from protocol.events import ChatReceived, DiceRolled, Event, Ignored, MatchEnded, PlayMade


class TurnCutter:
    """One match's events, cut into :class:`~client.game.turn.Turn` values."""

    def __init__(self, state: GameState) -> None:
        self.turns: deque[Turn] = deque()
        self.chats: deque[ChatReceived] = deque()
        self._events: list[Event] = []
        self._shown = state  # the state the last turn ended on

    def take(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, ChatReceived):
                self.chats.append(event)
            elif not isinstance(event, Ignored):
                self._events.append(event)

    def has_end(self) -> bool:
        return any(isinstance(event, MatchEnded) for event in self._events)

    def cut(self, state: GameState) -> None:
        """Hand over a turn if the events so far make one (*state*: where they led)."""
        anchors = [e for e in self._events if isinstance(e, DiceRolled | PlayMade | MatchEnded)]
        if not anchors:
            return
        seat = next((e.seat for e in anchors if isinstance(e, DiceRolled | PlayMade)), None)
        if seat is None:
            seat = anchors[0].seat if isinstance(anchors[0].seat, int) else 0
        events, self._events = tuple(self._events), []
        before, self._shown = self._shown, state
        self.turns.append(Turn(seat, before, state, events))
