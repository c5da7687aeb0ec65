"""From a signed match log to its analysis: verify, replay, take each turn, judge it.

The engine's analysis (:mod:`engine.bot.analysis`) knows nothing of logs; this module is the
edge that reads one. It replays the log with the protocol's strict spectator session (the
checks ``tablier verify`` makes), takes every Jacquet roll from the engine events the
replay yields — the position before the throw, the dice, the play made — and hands them on.
A Goose log has no decisions: its summary is each player's turns lost to hazards, what he
paid into the pot and what he took from it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from client.game.budget import MAX_JUDGED_TURNS
from client.game.jacquet_turns import indexed_jacquet_turns
from client.i18n import _, path_shown, say, say_error
from engine.bot.analysis import MatchAnalysis, analyse_turn, summarise
from engine.bot.netsearch import NetLimits
from engine.goose import events as goose
from protocol.errors import CorruptLog, LogError, NotALog
from protocol.logfile import LogContents, parse_log, read_log_bytes
from protocol.session import MatchSession
from protocol.verify import replay
from relay.fault import Fault

Progress = Callable[[int, int], None]


class LogRefused(ValueError):
    """The log cannot be analysed (bad values from the file the person named: ``fault``,
    theirs to change); the message says why. ``not_a_log``: not a match log."""

    fault = Fault.INPUT

    def __init__(self, message: str, *, not_a_log: bool = False) -> None:
        super().__init__(message)
        self.not_a_log = not_a_log


@dataclass(frozen=True, slots=True)
class GooseLuck:
    """One Goose player's luck: ``turns`` thrown, ``missed`` turns (inn, well, prison),
    ``hazards`` landed on, tokens ``paid`` into the pot (ante and fees) and ``won`` from it."""

    seat: int
    turns: int
    missed: int
    hazards: int
    paid: int
    won: int


@dataclass(frozen=True, slots=True)
class Analysed:
    """What :func:`analyse_log` returns: a Jacquet ``analysis`` or a Goose ``goose`` summary
    (with the log's name, hash and players), and a ``warning`` about a truncated tail.

    ``ended``: whether the log holds the match's end (played out, a resignation or a claim):
    a log without one is of an unfinished match, or cut short by whoever hands it out — a
    player can keep his good stretch — and the report says so first. ``turns``: the Jacquet
    turns the log holds, of which the first ``len(analysis.turns)`` are judged (at most
    ``max_turns``)."""

    log_name: str
    log_sha256: str
    players: tuple[str, ...]
    analysis: MatchAnalysis | None
    goose: tuple[GooseLuck, ...] | None
    warning: str | None
    ended: bool = True
    turns: int = 0


def read(path: Path) -> tuple[bytes, LogContents]:
    """The log's bytes and contents, or :class:`LogRefused` (never an OS error's text)."""
    try:
        data = read_log_bytes(path)  # a regular file, at most MAX_LOG_BYTES, or NotALog
        return data, parse_log(data, name=path_shown(path))
    except NotALog as error:
        raise LogRefused(say_error(error), not_a_log=True) from None
    except LogError as error:
        raise LogRefused(
            _("{path}: {reason}").format(path=path_shown(path), reason=say_error(error))
        ) from None


def _replayed(contents: LogContents, path: Path) -> tuple[list[tuple[Any, Any]], bool]:
    """(state before, step) for every record, and whether the match ended in the log;
    :class:`LogRefused` at the first bad one."""
    session = MatchSession(contents.setup, seat=None, strict=True)
    steps = []
    before = session.state
    try:
        for step in replay(contents, session):
            steps.append((before, step))
            before = step.state
    except CorruptLog as error:  # its cause is the record's fault (the record is said here)
        why = say_error(error.cause) if error.cause else say(error.what)
        raise LogRefused(
            _(
                "{path} fails verification at record {record}: {error}; run tablier verify for "
                "the details"
            ).format(path=path_shown(path), record=error.record, error=why)
        ) from None
    return steps, session.ended is not None


def goose_luck(steps: Sequence[tuple[Any, Any]], seats: int) -> tuple[GooseLuck, ...]:
    """Each Goose player's turns, missed turns, hazards, tokens paid and won."""
    counts = {name: [0] * seats for name in ("turns", "missed", "hazards", "paid", "won")}
    # Tokens come from the engine's ledger (the ante is no event); turns from the events.
    hazards = (goose.Bridge, goose.Inn, goose.Well, goose.Labyrinth, goose.Prison, goose.Death)
    for _before, step in steps:
        for event in step.events:
            if isinstance(event, goose.Thrown):
                counts["turns"][event.seat] += 1
            elif isinstance(event, goose.MissedTurn):
                counts["missed"][event.seat] += 1
            elif isinstance(event, hazards):
                counts["hazards"][event.seat] += 1
    if steps:  # the ledger: every token each seat put in (ante included), and took out
        counts["paid"] = list(steps[-1][1].state.paid)
        counts["won"] = list(steps[-1][1].state.payouts)
    return tuple(
        GooseLuck(seat, *(counts[name][seat] for name in ("turns", "missed", "hazards", "paid",
                                                          "won")))
        for seat in range(seats)
    )  # fmt: skip


def analyse_log(
    path: Path,
    *,
    plies: int = 2,
    progress: Progress | None = None,
    max_turns: int = MAX_JUDGED_TURNS,
) -> Analysed:
    """Read the log at ``path``, verify it and analyse it (:func:`analyse_contents`)."""
    _data, contents = read(path)
    return analyse_contents(contents, path, plies=plies, progress=progress, max_turns=max_turns)


def analyse_contents(
    contents: LogContents,
    path: Path,
    *,
    plies: int = 2,
    progress: Progress | None = None,
    max_turns: int = MAX_JUDGED_TURNS,
) -> Analysed:
    """Verify the log read from ``path`` and analyse its first *max_turns* turns
    (``progress(done, total)`` after each). The report names the bytes analysed by their
    SHA-256 (as ``tablier verify`` does: the whole file, unless its tail is damaged).
    ``contents.place`` follows the record whose turn is being judged, so what the analysis
    cannot handle names it."""
    from engine.bot.analysis import ANALYSIS_LIMITS

    steps, ended = _replayed(contents, path)
    warning = None
    if contents.problem is not None:
        warning = _("the log's tail is damaged ({problem}); analysing what precedes it").format(
            problem=contents.problem
        )
    setup = contents.setup
    names = tuple(setup.names)
    digest = contents.sha256.hex()
    if setup.game == "goose":
        luck = goose_luck(steps, len(names))
        return Analysed(path.name, digest, names, None, luck, warning, ended)
    every_turn = indexed_jacquet_turns(steps)
    turns = every_turn[:max_turns]
    limits = NetLimits(plies, ANALYSIS_LIMITS.candidates, ANALYSIS_LIMITS.margin,
                       ANALYSIS_LIMITS.nodes)  # fmt: skip
    analysed = []
    for done, (index, turn) in enumerate(turns, start=1):
        contents.at(steps[index][1].index)
        analysed.append(analyse_turn(turn, limits))
        if progress is not None:
            progress(done, len(turns))
    final = steps[-1][1].state if steps else None
    score = tuple(final.score) if final is not None else (0, 0)
    analysis = MatchAnalysis(path.name, digest, (names[0], names[1]), plies, tuple(analysed),
                             summarise(analysed, (score[0], score[1])))  # fmt: skip
    return Analysed(path.name, digest, names, analysis, None, warning, ended, len(every_turn))
