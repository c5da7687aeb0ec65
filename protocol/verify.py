"""Replay and verify match logs with the very session code that plays live.

A log is replayed by a spectator session in strict mode: every record must be well formed,
signed by its seat's key, in its canonical place, every dice share must follow from its
seat's chain, every Jacquet play must be legal and reach the state hash it claims.

>>> from protocol.local import LocalMatch
>>> from protocol.identity import seeded_source
>>> from protocol.logfile import parse_log
>>> match = LocalMatch.create("goose", {}, names=("Ann", "Bob"), now=0,
...                           random_source=seeded_source("verify-doc"))
>>> _ = match.throw(match.awaiting.seat, now=1)
>>> steps = list(replay(parse_log(match.log_bytes())))
>>> [type(step.message).__name__ for step in steps]
['Share', 'Share']
>>> report = verify_bytes(match.log_bytes())
>>> report.ok, report.records, report.throws, report.result
(True, 2, 1, 'unfinished')
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from protocol.errors import CorruptLog, ProtocolError
from protocol.events import MatchEnded
from protocol.logfile import LogContents, parse_log, read_log
from protocol.messages import GameMessage
from protocol.session import MatchSession


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """Record ``index`` of a log, decoded, with the events it caused and the state after it."""

    index: int
    record: bytes
    message: GameMessage
    events: tuple[Any, ...]
    state: Any


def replay(contents: LogContents, session: MatchSession | None = None) -> Iterator[ReplayStep]:
    """Yield a :class:`ReplayStep` per record; raise :class:`CorruptLog` at the first bad one.

    The ``cause`` of that error is the record's :class:`ProtocolError` (a bad signature, a
    forged share, an illegal play, ...). A truncated or garbled tail (``contents.problem``)
    is *not* raised here: the good records are all yielded, and the caller decides.
    """
    if session is None:
        session = MatchSession(contents.setup, seat=None, strict=True)
    for index, record in enumerate(contents.records):
        try:
            events = session.receive_bytes(record, session.progress.floor)
        except ProtocolError as error:
            raise CorruptLog(
                str(error), record=index, offset=contents.offsets[index], cause=error
            ) from None
        message = session.last_message
        assert message is not None
        yield ReplayStep(index, record, message, tuple(events), session.state)


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """What ``tablier verify`` prints: the summary of a valid log, or its first problem."""

    ok: bool
    game: str
    options: tuple[tuple[str, int | str], ...]
    players: tuple[str, ...]
    result: str
    turns: int
    throws: int
    records: int
    error: str | None = None
    bad_record: int | None = None

    def summary(self) -> str:
        options = ", ".join(f"{name}={value}" for name, value in self.options) or "defaults"
        lines = [
            f"game:    {self.game} ({options})",
            f"players: {', '.join(self.players)}",
            f"result:  {self.result}",
            f"turns:   {self.turns} ({self.throws} throws, {self.records} signed records)",
        ]
        if self.error is not None:
            lines.append(f"INVALID: {self.error}")
        return "\n".join(lines)


def verify_log(path: Path) -> VerifyReport:
    """Verify the log at *path*; raises :class:`~protocol.errors.NotALog` if it is none."""
    return verify_contents(read_log(path))


def verify_bytes(data: bytes) -> VerifyReport:
    """:func:`verify_log` for a log held in memory."""
    return verify_contents(parse_log(data))


def verify_contents(contents: LogContents) -> VerifyReport:
    setup = contents.setup
    session = MatchSession(setup, seat=None, strict=True)
    error: CorruptLog | None = None
    try:
        for _ in replay(contents, session):
            pass
    except CorruptLog as bad:
        error = bad
    if error is None:
        error = contents.problem
    return VerifyReport(
        ok=error is None,
        game=setup.game,
        options=setup.proposal.options,
        players=setup.names,
        result=describe_result(session.ended, setup.names, session.state),
        turns=session.turns,
        throws=session.throw_index,
        records=len(session.records),
        error=None if error is None else str(error),
        bad_record=None if error is None else error.record,
    )


def describe_result(ended: MatchEnded | None, names: tuple[str, ...], state: Any) -> str:
    """The outcome of a match in a few plain words."""
    if ended is None:
        return "unfinished"
    if ended.reason == "stopped":
        return f"stopped: {ended.error}"
    if ended.reason == "resigned" and ended.seat is not None:
        return f"{names[ended.seat]} resigned"
    if ended.reason == "abandoned" and ended.seat is not None:
        return f"{names[ended.seat]} abandoned the match (claimed after the time limit)"
    score = getattr(state, "score", None)
    if score is not None and ended.winner is not None:
        mine, theirs = score[ended.winner], score[1 - ended.winner]
        return f"{names[ended.winner]} wins the match {mine}-{theirs}"
    if ended.winner is not None:
        return f"{names[ended.winner]} wins the pot of {state.pot}"
    return "blocked: nobody can move, the pot is shared"
