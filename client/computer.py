"""The computer's seats: what it decides, decided off the screen's thread.

A screen runs a computer seat inside a Textual worker (group ``"turn"``) and awaits these
coroutines there. Goose seats only throw, so they just wait the pause people need to follow
the game; a Jacquet seat asks the engine's bot (:func:`engine.bot.choose_play`), whose search
runs in a thread so the screen keeps drawing and answering keys while it thinks.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from client.i18n import _
from engine.jacquet import JacquetState, Play


@dataclass(frozen=True, slots=True)
class ComputerPlayer:
    """One computer seat: its Jacquet ``level`` (1-4) and how long it pauses before acting.

    ``seed`` only breaks exact ties between equally good plays, so a game is reproducible.
    """

    level: int = 1
    pause: float = 0.0
    seed: int = 0

    async def wait_to_act(self) -> None:
        """Pause before acting so people can see what the computer is about to do."""
        if self.pause > 0:
            await asyncio.sleep(self.pause)

    async def choose_play(self, state: JacquetState) -> Play:
        """The bot's play for the throw ``state`` waits on, computed in a thread."""
        if state.dice is None:
            raise ValueError(_("the computer has no throw to play"))
        return await asyncio.to_thread(_choose_play, state, self.level, self.seed)


def _choose_play(state: JacquetState, level: int, seed: int) -> Play:
    from engine.bot import choose_play

    assert state.dice is not None
    return choose_play(
        state.position, state.dice, level=level, seed=seed, bearoff=state.options.bearoff
    )
