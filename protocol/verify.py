"""Replay and verify match logs with the very session code that plays live.

A log is replayed by a spectator session in strict mode: every record must be well formed,
signed by its seat's key, in its canonical place, every dice share must follow from its
seat's chain, every Jacquet play must be legal and reach the state hash it claims, every
record's history and time must follow from the records before it. :func:`replay` checks
every signature as it goes; :func:`verify_contents` one per seat (each seat's last game
record vouches for its others), those no later signature vouches for, and every signature
only when something fails.

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

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from engine.clause import ENGLISH, N_, Clause, Words, plural
from protocol.errors import CorruptLog
from protocol.events import Event, MatchEnded
from protocol.games import EngineState, Game, game_named, said_options
from protocol.logfile import LogContents, parse_log, read_log
from protocol.messages import Chat, Claim, GameMessage, decode_message
from protocol.session import MatchSession


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """Record ``index`` of a log, decoded, with the events it caused and the state after it."""

    index: int
    record: bytes
    message: GameMessage
    events: tuple[Event, ...]
    state: EngineState


def replay(contents: LogContents, session: MatchSession | None = None) -> Iterator[ReplayStep]:
    """Yield a :class:`ReplayStep` per record; raise :class:`CorruptLog` at the first bad one.

    The ``cause`` of that error is the record's :class:`ProtocolError` (a bad signature, a
    forged share, an illegal play, ...); any other error a record raises, whatever its type
    (a value the engine cannot hold), is that record's too, with no cause
    (:meth:`LogContents.damaged`). A truncated or garbled tail (``contents.problem``) is *not*
    raised here: the good records are all yielded, and the caller decides. ``contents.place``
    follows the record being handled, the one just yielded included (after the last one:
    none, the log as a whole, said as its header).
    """
    if session is None:
        session = MatchSession(contents.setup, seat=None, strict=True)
    for index, record in enumerate(contents.records):
        contents.at(index)
        try:
            events = session.receive_bytes(record, session.progress.floor)
        except Exception as error:  # whatever its type: this record is what cannot be replayed
            raise contents.damaged(error) from None
        message = session.last_message
        assert message is not None
        yield ReplayStep(index, record, message, tuple(events), session.state)
    contents.place.record = None  # past the records: what fails now is the log's as a whole


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """What ``tablier verify`` prints: the summary of a log, what it proves, or its first
    problem, for its reader to say in his language (:meth:`summary`).

    ``ok``: every record checks out. ``proven``: and the result rests on what the seats it
    goes against signed (a match that ended in play, or a resignation); an abandonment is one
    player's claim, which one log cannot prove — it can only fail to contradict it.
    ``outcome`` and ``grounds``: the result and what proves it; ``result`` and ``proof``
    are their English. ``problem``: the first bad record and what is wrong with it;
    ``error``, its English; ``failure``, the error itself (its ``cause``: the protocol's
    error the record raised, or none for a value this program cannot handle).
    """

    ok: bool
    game: str
    options: tuple[tuple[str, int | str], ...]
    players: tuple[str, ...]
    outcome: Clause
    grounds: Clause
    turns: int
    throws: int
    records: int
    problem: str | Clause | None = None
    bad_record: int | None = None
    proven: bool = True
    sha256: str = ""
    failure: CorruptLog | None = None

    @property
    def result(self) -> str:
        return str(self.outcome)

    @property
    def proof(self) -> str:
        return str(self.grounds)

    @property
    def error(self) -> str | None:
        return None if self.problem is None else str(self.problem)

    def summary(self, words: Words = ENGLISH) -> str:
        """The report as ``tablier verify`` prints it, in the language of *words*."""
        options = said_options(self.options, words) or words.gettext(N_("defaults"))
        say = Clause.of
        # A turn is a throw or a missed one (README, *Match logs*): both counts said.
        missed = self.turns - self.throws
        turns = say(N_("{turns} ({thrown}, {missed}; {records})"), turns=self.turns,
                    thrown=say(plural("{count} thrown", "{count} thrown"), self.throws,
                               count=self.throws),
                    missed=say(plural("{count} missed", "{count} missed"), missed, count=missed),
                    records=say(plural("{count} signed record", "{count} signed records"),
                                self.records, count=self.records))  # fmt: skip
        rows = [
            (N_("game:"), f"{game_named(self.game).proper_name} ({options})"),
            (N_("players:"), ", ".join(self.players)),
            (N_("result:"), self.outcome.say(words)),
            (N_("proof:"), self.grounds.say(words)),
            (N_("turns:"), turns.say(words)),
            (N_("sha256:"), self.sha256),
        ]
        said = [(words.gettext(label), value) for label, value in rows]
        width = max(len(label) for label, _value in said) + 1  # the values in one column
        lines = [f"{label:<{width}}{value}" for label, value in said]
        if self.problem is not None:
            lines.append(say(N_("INVALID: {error}"), error=self.problem).say(words))
        return "\n".join(lines)


def verify_log(path: Path) -> VerifyReport:
    """Verify the log at *path*; raises :class:`~protocol.errors.NotALog` if it is none."""
    return verify_contents(read_log(path))


def _go_on() -> None:
    """Between two records: nothing (a caller that may be stopped raises here instead)."""


def verify_bytes(data: bytes) -> VerifyReport:
    """:func:`verify_log` for a log held in memory."""
    return verify_contents(parse_log(data))


def verify_contents(contents: LogContents, *, between: Callable[[], None] = _go_on) -> VerifyReport:
    """Verify a log: every record as a strict spectator checks it, about one signature per
    seat (:func:`vouched`).

    Should anything fail, the log is checked again signature by signature, so the report
    names the first bad record and the right culprit. *between* is called after each record:
    whatever it raises (a program quitting, say) stops the verification and goes out as is.
    """
    session, error = _check(contents, between, every_signature=False)
    if error is not None or not vouched(session):
        session, error = _check(contents, between, every_signature=True)
    if error is None:
        error = contents.problem
    setup = contents.setup
    proven, proof = (prove(session) if error is None
                     else (False, Clause.of(N_("none: the log is not valid"))))  # fmt: skip
    return VerifyReport(
        ok=error is None,
        game=setup.game,
        options=setup.proposal.options,
        players=setup.names,
        outcome=result_clause(setup.proposal.rules, session.ended, setup.names, session.state),
        grounds=proof,
        turns=session.turns,
        throws=session.throw_index,
        records=len(session.records),
        problem=None if error is None else error.message,
        bad_record=None if error is None else error.record,
        proven=proven,
        sha256=contents.sha256.hex(),
        failure=error,
    )


def _check(
    contents: LogContents, between: Callable[[], None], *, every_signature: bool
) -> tuple[MatchSession, CorruptLog | None]:
    session = MatchSession(contents.setup, seat=None, strict=True, check_signatures=every_signature)
    try:
        for _ in replay(contents, session):
            between()
    except CorruptLog as bad:
        return session, bad
    return session, None


def vouched(session: MatchSession) -> bool:
    """Whether a valid signature of its signer vouches for every game record *session* took
    with its signatures unchecked.

    A signed game record commits to the history it names (docs/fair-dice.md, *Which signatures
    a log needs*), so one valid signature vouches for every record of that history, its
    signer's own ones included: a seat's last record usually covers all its others, and a
    valid log takes one Ed25519 check per seat. Not always: a resignation counts where it
    comes but may name an earlier place, and covers nothing of its signer's after that
    place. So the records are walked from the last, and each one that no later checked
    record of its signer covers has its own signature checked.

    >>> from protocol.selfplay import selfplay
    >>> from protocol.logfile import parse_log
    >>> match = selfplay("goose", {}, seed="vouched", start_time=0)
    >>> contents = parse_log(match.log_bytes())
    >>> checked = []
    >>> session = MatchSession(contents.setup, seat=None, strict=True, check_signatures=False,
    ...                        verify=lambda *signed: checked.append(signed) or True)
    >>> for _ in replay(contents, session):
    ...     pass
    >>> vouched(session), len(checked), len(contents.records)
    (True, 2, 34)
    """
    place = {digest: k for k, digest in enumerate(session.progress.digests)}
    covered: dict[int, int] = {}  # per seat: how many game records its checked ones cover
    game = [m for m in map(decode_message, session.records) if not isinstance(m, Chat)]
    for position in range(len(game) - 1, -1, -1):
        message = game[position]
        if position < covered.get(message.seat, 0):
            continue
        if not session.signature_holds(message) or message.history not in place:
            return False
        covered[message.seat] = max(covered.get(message.seat, 0), place[message.history])
    return True


def prove(session: MatchSession) -> tuple[bool, Clause]:
    """What a valid log's records prove about its result: (proven, in words)."""
    say = Clause.of
    names, ended, records = session.setup.names, session.ended, session.records
    if ended is None:
        last = (say(N_("after record {record}"), record=len(records) - 1) if records
                else say(N_("before its first record")))  # fmt: skip
        return True, say(N_("no result: the log ends {last}, before the match did"), last=last)
    if ended.reason == "finished":
        return True, say(N_("ended in play: every move is signed by its player, every die "
                            "comes from every player's committed chain"))  # fmt: skip
    if ended.reason == "resigned" and ended.seat is not None:
        return True, say(N_("{who} resigned, and signed the resignation"), who=names[ended.seat])
    index, claim = next(
        (k, message)
        for k in range(len(records) - 1, -1, -1)
        if isinstance(message := decode_message(records[k]), Claim)
    )
    heard = [k for k in range(index) if decode_message(records[k]).seat == claim.accused]
    since = say(N_("the start"))
    if heard:
        since = say(N_("record {record}, dated {date}"), record=heard[-1],
                    date=when(decode_message(records[heard[-1]]).time))  # fmt: skip
    return False, say(
        N_("{claimant}'s word alone: {claimant} signed, at record {record}, dated {date}, that "
           "{accused} stopped answering after {since}, and nothing {accused} signed after that "
           "is in this log — a log of {accused}'s, or any other player's, can refute it "
           "(tablier verify THIS_LOG THEIR_LOG)"),
        claimant=names[claim.seat], record=index, date=when(claim.time),
        accused=names[claim.accused], since=since,
    )  # fmt: skip


def when(ms: int) -> Clause:
    """A record's time as a person reads it, the same moment everywhere (UTC), written as
    its reader's language writes dates.

    >>> str(when(1_764_500_000_000)), str(when(2**62))
    ('2025-11-30 10:53:20 UTC', '4611686018427387904 ms after 1970')
    """
    try:
        moment = datetime.fromtimestamp(ms // 1000, tz=UTC)
    except (OverflowError, ValueError, OSError):  # beyond what a calendar holds
        return Clause.of(N_("{ms:d} ms after 1970"), ms=ms)
    return Clause.of(N_("{year:04d}-{month:02d}-{day:02d} {hour:02d}:{minute:02d}:{second:02d} "
                        "UTC"), year=moment.year, month=moment.month, day=moment.day,
                     hour=moment.hour, minute=moment.minute, second=moment.second)  # fmt: skip


def result_clause(
    game: Game, ended: MatchEnded | None, names: tuple[str, ...], state: EngineState
) -> Clause:
    """The outcome of a match of *game*, for its reader to say in his language."""
    say = Clause.of
    if ended is None:
        return say(N_("unfinished"))
    if ended.reason == "stopped":
        return say(N_("stopped: {error}"), error="" if ended.error is None else ended.error.message)
    if ended.reason == "resigned" and ended.seat is not None:
        return say(N_("{who} resigned"), who=names[ended.seat])
    if ended.reason == "abandoned" and ended.seat is not None:
        return say(N_("{who} abandoned the match (claimed after the time limit)"),
                   who=names[ended.seat])  # fmt: skip
    if ended.winner is not None:
        return game.result(state, ended.winner, names)
    return say(N_("blocked: nobody can move, the pot is shared"))
