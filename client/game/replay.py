"""A recorded match as a game screen plays it: every state the log passes through, stepped.

:func:`load_replay` reads the log and replays it through the protocol's own verifier (a
strict spectator session: the same checks as live play), so a replay shows exactly the
positions the engine reached; a log that fails verification is refused with the reason
(:class:`ReplayRefused`), a truncated one keeps its good records and carries a warning.
:class:`ReplayGame` is the driver: stepping (``step``, ``jump``) hands the screen the turn
from the frame shown to the one asked for, backwards as well as forwards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from client.game.budget import Cancelled
from client.game.driver import Extras, Listener, ScreenAwaiting, SeatRole
from client.game.story import tell
from client.game.turn import GameState, NotYourTurnError, Turn, TurnEvent, TurnQueue
from client.i18n import _, say_error
from client.setup import GameSetup, setup_for_match
from engine.awaiting import Finished
from engine.jacquet import Play
from protocol.errors import LogError, NotALog
from protocol.events import DiceRolled, MatchEnded
from protocol.logfile import LogContents, read_log
from protocol.session import MatchSession
from protocol.verify import replay as verified_steps


class ReplayRefused(ValueError):
    """The log cannot be replayed; the message says why, in words a person understands."""


class NotALogFile(ReplayRefused):
    """The file is not a Tablier match log at all (or cannot be read)."""


@dataclass(frozen=True, slots=True)
class ReplayFrame:
    """One step of the replay: the state after it, what happened, and the throws so far."""

    state: GameState
    events: tuple[TurnEvent, ...]
    story: str
    throws: int
    seat: int


@dataclass(frozen=True, slots=True)
class MatchReplay:
    """A whole log, ready to step through; ``frames[0]`` is the match before anything."""

    game: str
    names: tuple[str, ...]
    options: dict[str, int | str]
    frames: tuple[ReplayFrame, ...]
    warning: str | None
    ended: MatchEnded | None

    @property
    def throws(self) -> int:
        """Throws in the log (the opening and the lots count as throws too). A replay counts
        throws, not turns: a turn, as ``tablier verify`` counts them, is a throw or a missed
        turn, and a missed turn has no frame of its own to step to."""
        return self.frames[-1].throws

    def frame_of_throw(self, throw: int) -> int:
        """Index of the frame where throw number *throw* is made (0: the start)."""
        if not 0 <= throw <= self.throws:
            raise ValueError(
                _("there is no throw {throw}: this log has throws 0 to {last}").format(
                    throw=throw, last=self.throws
                )
            )
        return next(index for index, frame in enumerate(self.frames) if frame.throws == throw)


def load_replay(path: Path, *, between: Callable[[], None] = lambda: None) -> MatchReplay:
    """Read and verify the log at *path*; :class:`ReplayRefused` says why it cannot be used,
    whatever the file holds (it raises nothing else: the lobby opens any file with it, but
    what *between*, called after each record, raises: :class:`~client.game.budget.Cancelled`)."""
    try:
        contents = read_log(path)
    except NotALog as error:
        raise NotALogFile(say_error(error)) from None
    except LogError as error:  # its header
        raise ReplayRefused(_fails(error)) from None
    try:
        return replay_contents(contents, between=between)
    except Cancelled:
        raise
    except Exception as error:  # whatever its type: said of the record it came from
        raise ReplayRefused(_fails(contents.damaged(error))) from None


def _fails(error: LogError) -> str:
    return _("this log fails verification: {error}").format(error=say_error(error))


def replay_contents(
    contents: LogContents, *, between: Callable[[], None] = lambda: None
) -> MatchReplay:
    """Every frame of the log's match; the :class:`~protocol.errors.CorruptLog` of its
    first bad record (or whatever a record raised: ``contents.place`` names it). *between*
    is called after each record (it may raise to stop)."""
    setup = contents.setup
    names = setup.names
    session = MatchSession(setup, seat=None, strict=True)
    opening = _("{game}: {players}.").format(
        game=setup.proposal.rules.proper_name, players=", ".join(names)
    )
    frames = [ReplayFrame(session.state, (), opening, 0, 0)]
    throws = 0
    for step in verified_steps(contents, session):
        between()
        rolled = [event for event in step.events if isinstance(event, DiceRolled)]
        throws += len(rolled)
        story = " ".join(tell(setup.game, step.events, names))
        if step.state == frames[-1].state and not story:
            continue  # a dice share on its way: nothing to see yet
        seat = rolled[0].seat if rolled else _mover(step.events, frames[-1].seat)
        frames.append(ReplayFrame(step.state, tuple(step.events), story, throws, seat))
    warning = None
    if contents.problem is not None:
        # The problem's own message already names the record and the byte.
        warning = _("The log is damaged: {problem}; replaying up to its last good record.").format(
            problem=say_error(contents.problem)
        )
    options = dict(setup.proposal.options)
    return MatchReplay(setup.game, names, options, tuple(frames), warning, session.ended)


def _mover(events: Sequence[TurnEvent], otherwise: int) -> int:
    seats = [seat for event in events if isinstance(seat := getattr(event, "seat", None), int)]
    return seats[0] if seats else otherwise


class ReplayGame:
    """A :class:`~client.game.driver.GameDriver` over a :class:`MatchReplay` (its own
    :class:`~client.game.driver.ReplayControl`); nobody acts in it."""

    animated = False
    home_seat = None

    def __init__(self, replay: MatchReplay) -> None:
        self.replay = replay
        self.setup: GameSetup = setup_for_match(replay.game, replay.names, replay.options)
        self.index = 0
        self._turns = TurnQueue(replay.frames[0].state)
        self.extras = Extras(replay=self)

    # -- as a game driver -------------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.names

    @property
    def state(self) -> GameState:
        return self._turns.shown

    @property
    def awaiting(self) -> ScreenAwaiting:
        return Finished()  # nothing is asked of anyone: the log is what was played

    @property
    def ended(self) -> MatchEnded | None:
        return self.replay.ended if self.index == self.last_index else None

    @property
    def finished(self) -> bool:
        return False  # a replay is closed by the person, not ended by its last frame

    @property
    def log_path(self) -> Path | None:
        return None

    @property
    def pending_turns(self) -> int:
        return self._turns.pending

    def seat_role(self, seat: int) -> SeatRole:
        return "elsewhere"

    def throw(self) -> None:
        raise NotYourTurnError(_("a replay is watched, not played"))

    def play(self, play: Play) -> None:
        raise NotYourTurnError(_("a replay is watched, not played"))

    async def next_turn(self) -> Turn:
        return await self._turns.next()

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return lambda: None

    def close(self) -> None:
        """Nothing is open: the log was read whole."""

    # -- as replay controls -----------------------------------------------------------------

    @property
    def last_index(self) -> int:
        return len(self.replay.frames) - 1

    @property
    def throws_made(self) -> int:
        return self.replay.frames[self.index].throws

    @property
    def throws(self) -> int:
        return self.replay.throws

    @property
    def stories(self) -> Sequence[str]:
        return [frame.story for frame in self.replay.frames]

    @property
    def warning(self) -> str | None:
        return self.replay.warning

    @property
    def frames(self) -> Sequence[ReplayFrame]:
        return self.replay.frames

    def frame_of_throw(self, throw: int) -> int:
        return self.replay.frame_of_throw(throw)

    def step(self, delta: int) -> None:
        self.jump(self.index + delta)

    def jump(self, index: int) -> None:
        """Show frame *index* (clamped to the log): its turn goes to the screen."""
        frames = self.replay.frames
        target = max(0, min(index, self.last_index))
        shown = frames[self.index].state
        self.index = target
        frame = frames[target]
        self._turns.put(Turn(frame.seat, shown, frame.state, frame.events))
