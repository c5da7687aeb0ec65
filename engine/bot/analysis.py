"""Analysis of Jacquet play on the equity network: what each play lost, and each roll's luck.

Pure like the rest of the engine: it takes the turns of a match (the position, the dice, the
play made), never a log — extracting them from a signed log is the client's job, through
the protocol's replay. For every turn it reports, in micro-points (a single game is
:data:`ONE`), the way GNU Backgammon does:

* the **best play** and the **equity lost** by the play made: the best play's equity minus
  the made play's, both judged by level 4's ranking (:func:`engine.bot.netsearch.rank`, at
  ``plies``; the made play is always judged at the same ply as the best), never negative;
* a **mark** by that loss (:data:`MARK_THRESHOLDS`: doubtful, bad, very bad);
* the roll's **luck**: what the best play with the dice thrown is worth, minus the average
  over the 36 throws of what the best play with each would be worth (one ply, from the
  position before the throw). Luck is measured on every roll, forced or not.

A turn with a single legal play (a pass included) is not a *decision*: it has no loss.
:func:`summarise` totals each player's decisions, loss and luck, and gives a rating band by
the mean loss per decision (:data:`RATINGS`). Equity is money equity: the match score does not
weigh the points (a limitation stated in docs/analysis.md).

>>> from engine.jacquet import Position, parse_play
>>> turn = analyse_turn(Turn(1, 0, Position.initial(), (6, 5), parse_play("1/7 7/12")))
>>> turn.forced, turn.loss, turn.mark  # the opening 6-5 has one play: 1/7 7/12 = 1/6 6/12
(True, 0, '')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from engine.bot.board import Side, successors
from engine.bot.equity import ONE
from engine.bot.net import outcome_equity
from engine.bot.netsearch import Candidate, NetLimits, one_ply, rank
from engine.bot.rolls import ROLLS
from engine.jacquet import (
    BearOff,
    Play,
    Position,
    apply_play,
    format_play,
    legal_play_results,
)

MARK_THRESHOLDS: Final = (("very bad", 160_000), ("bad", 80_000), ("doubtful", 40_000))
"""A play losing at least this much (micro-points) gets the mark: GNU Backgammon's defaults
(0.04, 0.08 and 0.16 points)."""
MARKS: Final = ("", "doubtful", "bad", "very bad")

RATINGS: Final = (
    ("Supernatural", 2_000),
    ("World class", 5_000),
    ("Expert", 8_000),
    ("Advanced", 12_000),
    ("Intermediate", 18_000),
    ("Casual player", 26_000),
    ("Beginner", 35_000),
    ("Awful!", None),
)
"""Rating bands by mean loss per decision (micro-points), best first: a player is in the
first band whose bound his mean is below — GNU Backgammon's bands."""

ANALYSIS_LIMITS: Final = NetLimits(plies=2, candidates=5, margin=ONE * 16 // 100, nodes=60_000)
"""The analysis looks wider than the computer player (it has no clock): gnubg's filter."""

TOP: Final = 3
"""Candidates kept per turn (the best ones; the made play is added when it is not among them)."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One roll of a match: ``seat`` (to move in ``position``) threw ``dice`` and made
    ``play`` (``()`` for a pass); ``game`` counts the match's games from 1."""

    game: int
    seat: int
    position: Position
    dice: tuple[int, int]
    play: Play
    bearoff: BearOff = "backgammon"


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """A legal play (in notation), its outcome probabilities for the player making it
    (millionths over :data:`engine.bot.net.OUTCOMES`), their equity and the ply that judged
    it."""

    play: str
    probabilities: tuple[int, ...]
    equity: int
    ply: int


@dataclass(frozen=True, slots=True)
class TurnAnalysis:
    """What :func:`analyse_turn` found: ``candidates`` are the best plays, best first (the
    made play among them); ``loss`` is ``best.equity - played.equity``; ``luck`` is the
    roll's, both in micro-points."""

    game: int
    seat: int
    position: Position
    dice: tuple[int, int]
    played: str
    best: str
    loss: int
    mark: str
    forced: bool
    luck: int
    candidates: tuple[RankedPlay, ...]

    @property
    def played_play(self) -> RankedPlay:
        return next(c for c in self.candidates if c.play == self.played)


def mark(loss: int) -> str:
    """The mark of a play that lost ``loss`` micro-points (``""``: none).

    >>> mark(39_999), mark(40_000), mark(100_000), mark(400_000)
    ('', 'doubtful', 'bad', 'very bad')
    """
    for name, threshold in MARK_THRESHOLDS:
        if loss >= threshold:
            return name
    return ""


def rating(mean_loss: int) -> str:
    """The rating band of a mean loss per decision (micro-points).

    >>> rating(0), rating(7_999), rating(35_000)
    ('Supernatural', 'Expert', 'Awful!')
    """
    for name, bound in RATINGS:
        if bound is None or mean_loss < bound:
            return name
    raise AssertionError("the last band has no bound")


def _side(position: Position, seat: int) -> Side:
    return (0, *position.points(seat), position.borne_off(seat))


def _children(
    position: Position, dice: tuple[int, int], bearoff: BearOff
) -> tuple[list[Play], list[Position], list[Side]]:
    results = legal_play_results(position, dice, bearoff)
    seat = position.turn
    return (
        [play for play, _ in results],
        [after for _, after in results],
        [_side(after, seat) for _, after in results],
    )


def best_equity(position: Position, dice: tuple[int, int], bearoff: BearOff) -> int:
    """The one-ply equity, for the side to move, of his best play with ``dice``."""
    mover, other = _side(position, position.turn), _side(position, 1 - position.turn)
    return max(
        outcome_equity(one_ply(other, child)) for child in successors(mover, other, dice, bearoff)
    )


def roll_luck(position: Position, dice: tuple[int, int], bearoff: BearOff = "backgammon") -> int:
    """How much better (micro-points) ``dice`` are for the side to move than the average
    throw: each throw's best one-ply equity, the one thrown minus the 36 throws' mean."""
    values = {roll: best_equity(position, roll, bearoff) for roll, _weight in ROLLS}
    mean = sum(weight * values[roll] for roll, weight in ROLLS) // 36
    return values[(max(dice), min(dice))] - mean


def rank_plays(
    position: Position,
    dice: tuple[int, int],
    bearoff: BearOff = "backgammon",
    *,
    include: Sequence[Play] = (),
    limits: NetLimits = ANALYSIS_LIMITS,
) -> list[RankedPlay]:
    """Every legal play with its value, best first: the hint a screen shows (its top three).

    ``include`` names plays to judge at the deepest ply whatever the move filter says.
    """
    plays, afters, children = _children(position, dice, bearoff)
    wanted = {apply_play(position, play) for play in include}
    extra = [i for i, after in enumerate(afters) if after in wanted]
    other = _side(position, 1 - position.turn)
    ranked: list[Candidate] = rank(other, children, limits=limits, include=extra)
    return [RankedPlay(format_play(plays[c.index]), c.probabilities, c.equity, c.ply)
            for c in ranked]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Judgement:
    """A play judged against the best: ``ranked`` every legal play, best first (the made play
    at the same ply as the best), ``played`` the made one, its ``loss`` and ``mark``."""

    ranked: tuple[RankedPlay, ...]
    played: RankedPlay
    loss: int
    mark: str

    @property
    def best(self) -> RankedPlay:
        return self.ranked[0]


def judge(
    position: Position,
    dice: tuple[int, int],
    play: Play,
    bearoff: BearOff = "backgammon",
    limits: NetLimits = ANALYSIS_LIMITS,
) -> Judgement:
    """How much ``play`` (one of the legal plays) loses against the best: a tutor's warning,
    one turn of an analysis."""
    ranked = rank_plays(position, dice, bearoff, include=(play,), limits=limits)
    played_after = apply_play(position, play)
    results = legal_play_results(position, dice, bearoff)
    name = next((format_play(p) for p, after in results if after == played_after), None)
    if name is None:
        raise ValueError(f"{format_play(play)} is not a legal play with {dice[0]}-{dice[1]}")
    played = next(r for r in ranked if r.play == name)
    if played.ply != ranked[0].ply:  # the node budget ran out first: compare at one ply
        ranked = rank_plays(position, dice, bearoff, limits=replace(limits, plies=1))
        played = next(r for r in ranked if r.play == name)
    loss = max(0, ranked[0].equity - played.equity)
    return Judgement(tuple(ranked), played, loss, mark(loss))


def analyse_turn(turn: Turn, limits: NetLimits = ANALYSIS_LIMITS) -> TurnAnalysis:
    """The analysis of one roll: best play, loss, mark and luck."""
    verdict = judge(turn.position, turn.dice, turn.play, turn.bearoff, limits)
    top = verdict.ranked[:TOP]
    kept = top if verdict.played in top else (*top, verdict.played)
    return TurnAnalysis(
        game=turn.game,
        seat=turn.seat,
        position=turn.position,
        dice=turn.dice,
        played=verdict.played.play,
        best=verdict.best.play,
        loss=verdict.loss,
        mark=verdict.mark,
        forced=len(verdict.ranked) == 1,
        luck=roll_luck(turn.position, turn.dice, turn.bearoff),
        candidates=tuple(kept),
    )


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's totals: ``decisions`` (turns with a choice), ``total_loss`` and
    ``mean_loss`` per decision, the ``rating`` band, how many plays got each mark,
    ``rolls`` and their total ``luck``, the ``points`` he scored in the match and the
    ``luck_adjusted`` result: his lead in points minus his lead in luck (micro-points)."""

    seat: int
    decisions: int
    total_loss: int
    mean_loss: int
    rating: str
    doubtful: int
    bad: int
    very_bad: int
    rolls: int
    luck: int
    points: int
    luck_adjusted: int


def summarise(turns: Sequence[TurnAnalysis], points: tuple[int, int]) -> tuple[PlayerSummary, ...]:
    """Both players' :class:`PlayerSummary` (white first), given the match's ``points``."""
    luck = [sum(t.luck for t in turns if t.seat == seat) for seat in (0, 1)]
    summaries = []
    for seat in (0, 1):
        decided = [t for t in turns if t.seat == seat and not t.forced]
        total = sum(t.loss for t in decided)
        mean = total // len(decided) if decided else 0
        summaries.append(
            PlayerSummary(
                seat=seat,
                decisions=len(decided),
                total_loss=total,
                mean_loss=mean,
                rating=rating(mean) if decided else "",
                doubtful=sum(t.mark == "doubtful" for t in decided),
                bad=sum(t.mark == "bad" for t in decided),
                very_bad=sum(t.mark == "very bad" for t in decided),
                rolls=sum(t.seat == seat for t in turns),
                luck=luck[seat],
                points=points[seat],
                luck_adjusted=(points[seat] - points[1 - seat]) * ONE
                - (luck[seat] - luck[1 - seat]),
            )
        )
    return tuple(summaries)


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """A whole match's analysis: which log (``log_name``, its SHA-256 ``log_sha256``), the
    players' names, the plies the plays were judged at, every turn and both summaries."""

    log_name: str
    log_sha256: str
    players: tuple[str, str]
    plies: int
    turns: tuple[TurnAnalysis, ...]
    summary: tuple[PlayerSummary, ...]
