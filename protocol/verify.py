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
>>> report.ok, report.records, report.throws, report.result, report.proven
(True, 2, 1, 'unfinished', True)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from protocol.errors import CorruptLog, ProtocolError
from protocol.events import MatchEnded
from protocol.logfile import LogContents, parse_log, read_log
from protocol.messages import Claim, GameMessage, decode_message
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
    """What ``tablier verify`` prints: the summary of a log, what it proves, or its first
    problem.

    ``ok``: every record checks out. ``proven``: and the result rests on what the seats it
    goes against signed (a match that ended in play, or a resignation); an abandonment is one
    player's claim, which one log cannot prove — it can only fail to contradict it.
    """

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
    proven: bool = True
    proof: str = ""
    sha256: str = ""

    def summary(self) -> str:
        options = ", ".join(f"{name}={value}" for name, value in self.options) or "defaults"
        lines = [
            f"game:    {self.game} ({options})",
            f"players: {', '.join(self.players)}",
            f"result:  {self.result}",
            f"proof:   {self.proof}",
            f"turns:   {self.turns} ({self.throws} throws, {self.records} signed records)",
            f"sha256:  {self.sha256}",
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
    proven, proof = prove(session) if error is None else (False, "none: the log is not valid")
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
        proven=proven,
        proof=proof,
        sha256=contents.sha256.hex(),
    )


def prove(session: MatchSession) -> tuple[bool, str]:
    """What a valid log's records prove about its result: (proven, in words)."""
    names, ended, records = session.setup.names, session.ended, session.records
    if ended is None:
        last = f"after record {len(records) - 1}" if records else "before its first record"
        return True, f"no result: the log ends {last}, before the match did"
    if ended.reason == "finished":
        return True, (
            "ended in play: every move is signed by its player, every die comes from "
            "every player's committed chain"
        )
    if ended.reason == "resigned" and ended.seat is not None:
        return True, f"{names[ended.seat]} resigned, and signed the resignation"
    index, claim = next(
        (k, message)
        for k in range(len(records) - 1, -1, -1)
        if isinstance(message := decode_message(records[k]), Claim)
    )
    accused, claimant = names[claim.accused], names[claim.seat]
    heard = [
        k for k in range(index) if decode_message(records[k]).seat == claim.accused
    ]
    since = (
        f"record {heard[-1]}, dated {when(decode_message(records[heard[-1]]).time)}"
        if heard
        else "the start"
    )
    return False, (
        f"{claimant}'s word alone: {claimant} signed, at record {index}, dated "
        f"{when(claim.time)}, that {accused} stopped answering after {since}, and nothing "
        f"{accused} signed after that is in this log — a log of {accused}'s, or any other "
        f"player's, can refute it (tablier verify THIS_LOG THEIR_LOG)"
    )


def when(ms: int) -> str:
    """A record's time as a person reads it, the same everywhere (UTC).

    >>> when(1_764_500_000_000)
    '2025-11-30 10:53:20 UTC'
    """
    try:
        return f"{datetime.fromtimestamp(ms // 1000, tz=UTC):%Y-%m-%d %H:%M:%S} UTC"
    except (OverflowError, ValueError, OSError):  # beyond what a calendar holds
        return f"{ms} ms after 1970"


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
