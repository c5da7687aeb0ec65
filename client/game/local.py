"""A local game: every seat at this terminal, a person or the computer (hot-seat).

:class:`LocalGame` wraps the protocol's in-memory match (every seat a real session, a signed
log written record by record), so the screens never touch dice or logs themselves. An action
runs at once; its turn waits in the driver's queue for the screen (:meth:`next_turn`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from client.game.driver import Extras, Listener, SeatRole
from client.game.local_seats import (
    LocalSeats,
    LocalSeatsError,
    load_local_seats,
    local_seats_path,
    save_local_seats,
)
from client.game.queued import QueuedTurns
from client.game.score import RunningScore
from client.game.turn import NotYourTurnError, Turn, TurnEvent, TurnQueue
from client.game.turn_cutter import TurnCutter
from client.i18n import _, os_reason_of, say_error
from client.setup import (
    GameSetup,
    JacquetSetup,
    SessionSettings,
    SetupError,
    game_options,
    setup_for_match,
)
from engine.awaiting import ChoosePlay, Finished, ThrowDice
from engine.jacquet import Play
from protocol.local import LocalMatch
from protocol.logfile import LogContents, default_data_dir


def free_log_path(path: Path) -> Path:
    """*path*, or *path* with ``-2``, ``-3``… added when a log is already there (logs are
    never overwritten, and "play again" reuses the path given on the command line, networked
    rematches too)."""
    candidate, counter = path, 2
    while os.path.lexists(candidate):  # a link, even dangling, is taken: the log opens O_EXCL
        candidate = path.with_name(f"{path.stem}-{counter}{path.suffix}")
        counter += 1
    return candidate


class ResumeRefused(ValueError):
    """An unfinished local game that cannot be taken up again; a sentence says why."""


Resumed = tuple[LocalMatch, Path]
"""A local game's match and its seat file."""


def _new_match(setup: GameSetup, settings: SessionSettings) -> Resumed:
    """A new match of *setup*, its seats' secrets kept in a seat file so that it can be
    taken up again after the app quit."""
    data_dir = settings.data_dir or default_data_dir()
    match = LocalMatch.create(
        setup.game,
        game_options(setup),
        names=setup.names,
        random_source=settings.random_source,
        now=settings.clock(),
        resumable=True,
        log_path=None if settings.log_path is None else free_log_path(settings.log_path),
        log_data_dir=data_dir,
    )
    assert match.log_path is not None
    level = setup.level if isinstance(setup, JacquetSetup) else 1
    keys = tuple(identity.private_bytes() for identity in match.identities)
    seats = LocalSeats(match.log_path.absolute(), frozenset(setup.computer_seats), level, keys,
                       match.chain_seeds, match.renewal_secrets)  # fmt: skip
    seats_file = local_seats_path(match.setup.match_id, data_dir)
    try:
        save_local_seats(seats_file, seats)
    except OSError:
        match.close()
        match.log_path.unlink(missing_ok=True)
        raise
    return match, seats_file


class LocalGame(QueuedTurns):
    """One local game on this terminal (a :class:`~client.game.driver.GameDriver`)."""

    animated = True
    home_seat = None

    def __init__(
        self,
        setup: GameSetup,
        settings: SessionSettings,
        resumed: Resumed | None = None,
        *,
        score: RunningScore | None = None,
    ) -> None:
        """A new game of *setup*, or, *resumed*, one taken up again (:meth:`resume`);
        *score*: the session's so far, when this game is played again after others."""
        self.setup = setup
        self.settings = settings
        self.extras = Extras(resigning=self, score=score)
        if resumed is None:
            self.match, self.seats_file = _new_match(setup, settings)
        else:
            self.match, self.seats_file = resumed
        # LocalMatch names the file itself when no path was given (date, game, players).
        assert self.match.log_path is not None
        self.log_path: Path = self.match.log_path
        self._turns = TurnQueue(self.match.state)

    def retell(self, turns: Sequence[Turn]) -> None:
        """Taken up again: the screen is handed the game's *turns* so far first, as a
        networked rejoin's is (its side log tells the match, then play goes on)."""
        if turns:
            self._turns = TurnQueue(turns[0].before)
            for turn in turns:
                self._turns.put(turn)

    @classmethod
    def resume(cls, seats_file: Path, settings: SessionSettings) -> LocalGame:
        """The unfinished game whose seat file is *seats_file*, replayed from its log to
        where it stopped (every record checked again); :class:`ResumeRefused` says why not.
        Call it off the UI thread: a long log takes a moment."""
        from protocol.errors import NotALog, ProtocolError
        from protocol.identity import Identity
        from protocol.logfile import LogInUse, read_log

        try:
            seats = load_local_seats(seats_file)
            contents = read_log(seats.log_path)
            options = dict(contents.setup.proposal.options)
            setup = setup_for_match(
                contents.setup.game,
                contents.setup.names,
                options,
                computer_seats=seats.computer_seats,
                level=seats.level,
            )
            identities = [Identity(key) for key in seats.identities]
            match = LocalMatch.resume(
                contents,
                identities=identities,
                chain_seeds=seats.chain_seeds,
                renewal_secrets=seats.renewal_secrets,
                log_path=seats.log_path,
                now=settings.clock(),
            )
        except (LocalSeatsError, NotALog) as problem:
            raise ResumeRefused(_("This game cannot be taken up again: {problem}.").format(
                problem=say_error(problem))) from None  # fmt: skip
        except LogInUse:
            raise ResumeRefused(_("This game is being played in another terminal: a game is "
                                  "played from one terminal at a time.")) from None  # fmt: skip
        except ProtocolError as problem:  # the log was changed, or is another game's
            refusal = _("Its log fails verification, so the game cannot be taken up again: "
                        "{problem}.").format(problem=say_error(problem))  # fmt: skip
            raise ResumeRefused(refusal) from None
        except SetupError as problem:
            raise ResumeRefused(_("This game cannot be taken up again: {problem}.").format(
                problem=problem)) from None  # fmt: skip
        except OSError as problem:  # the log cannot be written to any more
            refusal = _("This game cannot be taken up again: its log cannot be written "
                        "({reason}).").format(reason=os_reason_of(problem))  # fmt: skip
            raise ResumeRefused(refusal) from None
        if match.ended is not None:  # it ended just as the app stopped
            match.close()
            seats_file.unlink(missing_ok=True)
            raise ResumeRefused(_("This game is over: Recorded match (F4) plays it back."))
        game = cls(setup, settings, (match, seats_file))
        game.retell(_turns_of(contents))
        return game

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.names

    def seat_role(self, seat: int) -> SeatRole:
        return "computer" if seat in self.setup.computer_seats else "person"

    @property
    def resigner(self) -> int | None:
        """The person to move (every seat is at this terminal: the one whose turn it is
        gives up, as at a real table); None on a computer's turn or once it is over."""
        awaiting = self.match.awaiting
        if self.match.ended is not None or isinstance(awaiting, Finished):
            return None
        seat = int(awaiting.seat)
        return seat if self.seat_role(seat) == "person" else None

    def resign(self) -> None:
        """The person to move gives up the match (it ends for every seat)."""
        seat = self.resigner
        if seat is None:
            raise NotYourTurnError(_("nobody here may resign now"))
        self._act(seat, lambda now: self.match.resign(seat, now))

    def throw(self) -> None:
        """Throw the dice the match waits for (whoever's turn it is: every seat is here)."""
        awaiting = self.match.awaiting
        if not isinstance(awaiting, ThrowDice) or self.match.ended is not None:
            raise NotYourTurnError(_("the game is not waiting for a throw"))
        self._act(awaiting.seat, lambda now: self.match.throw(awaiting.seat, now))

    def play(self, play: Play) -> None:
        """Jacquet: play one of the legal plays (an illegal one raises the protocol's error)."""
        awaiting = self.match.awaiting
        if not isinstance(awaiting, ChoosePlay) or self.match.ended is not None:
            raise NotYourTurnError(_("the game is not waiting for a play"))
        self._act(awaiting.seat, lambda now: self.match.play(awaiting.seat, play, now))

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return lambda: None  # nothing changes here but by the turns

    def close(self) -> None:
        """Close the log file (the log keeps every record accepted so far). A game left
        before its first throw leaves nothing; a finished one, no seat file."""
        self.match.close()
        if not self.match.sessions[0].records:
            self.log_path.unlink(missing_ok=True)
        if self.match.ended is not None or not self.match.sessions[0].records:
            self.seats_file.unlink(missing_ok=True)

    def _act(self, seat: int, act: Callable[[int], list[TurnEvent]]) -> None:
        before = self.match.state
        events = tuple(act(self.settings.clock()))
        if self.match.ended is not None:
            self.close()
        self._turns.put(Turn(seat, before, self.match.state, events))


def _turns_of(contents: LogContents) -> list[Turn]:
    """The turns of a log's records, as the screen shows them (read by a spectator's session:
    the records were checked as the game was taken up)."""
    from protocol.session import MatchSession

    session = MatchSession(contents.setup, seat=None, strict=True)  # a log's reader: no clock
    cutter = TurnCutter(session.state)
    for record in contents.records:
        cutter.take(session.receive_bytes(record, 0))
        cutter.cut(session.state)
    return list(cutter.turns)
