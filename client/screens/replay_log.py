"""A match log made ready to replay: every state it passes through, told in words.

The log is read and replayed by the protocol's own verifier (a strict spectator session: the
same checks as live play), so a replay shows exactly the positions the engine reached. A log
that fails verification is refused with the reason; a truncated one keeps its good records
and carries a warning.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from client.screens.jacquet_view import narrate as narrate_jacquet
from protocol.errors import CorruptLog, NotALog
from protocol.events import DiceRolled
from protocol.logfile import LogContents, read_log
from protocol.narrate import narrate_turns
from protocol.session import MatchSession
from protocol.verify import replay


class ReplayRefused(Exception):
    """The log cannot be replayed; the message says why, in words a person understands."""


class NotALogFile(ReplayRefused):
    """The file is not a Tablier match log at all (or cannot be read)."""


@dataclass(frozen=True, slots=True)
class ReplayFrame:
    """One step of the replay: the state after it, what happened, and the throws so far."""

    state: Any
    events: tuple[Any, ...]
    story: str
    turn: int


@dataclass(frozen=True, slots=True)
class MatchReplay:
    """A whole log, ready to step through; ``frames[0]`` is the match before anything."""

    game: str
    names: tuple[str, ...]
    frames: tuple[ReplayFrame, ...]
    warning: str | None

    @property
    def turns(self) -> int:
        """Throws in the log (the opening and the lots count as throws too)."""
        return self.frames[-1].turn

    def frame_of_turn(self, turn: int) -> int:
        """Index of the frame where throw number *turn* is made (0: the start)."""
        if not 0 <= turn <= self.turns:
            raise ValueError(f"there is no turn {turn}: this log has turns 0 to {self.turns}")
        return next(index for index, frame in enumerate(self.frames) if frame.turn == turn)


def load_replay(path: Path) -> MatchReplay:
    """Read and verify the log at *path*; :class:`ReplayRefused` says why it cannot be used."""
    try:
        contents = read_log(path)
    except NotALog as error:
        raise NotALogFile(str(error)) from None
    return replay_contents(contents)


def replay_contents(contents: LogContents) -> MatchReplay:
    setup = contents.setup
    names = setup.names
    session = MatchSession(setup, seat=None, strict=True)
    frames = [ReplayFrame(session.state, (), _opening(setup.game, names), 0)]
    turn = 0
    try:
        for step in replay(contents, session):
            turn += sum(isinstance(event, DiceRolled) for event in step.events)
            story = " ".join(_narrate(setup.game, step.events, names))
            if step.state == frames[-1].state and not story:
                continue  # a dice share on its way: nothing to see yet
            frames.append(ReplayFrame(step.state, step.events, story, turn))
    except CorruptLog as error:  # its message names the record and what is wrong with it
        raise ReplayRefused(f"this log fails verification: {error}") from None
    warning = None
    if contents.problem is not None:
        # The problem's own message already names the record and the byte.
        warning = f"The log is damaged: {contents.problem}; replaying up to its last good record."
    return MatchReplay(setup.game, names, tuple(frames), warning)


def _opening(game: str, names: Sequence[str]) -> str:
    title = "Jacquet" if game == "jacquet" else "Jeu de l'oie"
    return f"{title}: {', '.join(names)}."


def _narrate(game: str, events: Iterable[Any], names: Sequence[str]) -> list[str]:
    if game == "jacquet":
        return narrate_jacquet(events, names)
    return narrate_turns(events, names)
