"""What happened, in words: the clauses the client's side log and ``log export`` tell.

The protocol speaks no language of its own: :func:`narrate` turns one event into a
:class:`Clause` — an English sentence pattern and the values it is filled with — and the
reader renders it in his language (:meth:`Clause.say` with the client's catalogue; the
patterns are in it, ``babel.cfg`` reads this module). Their plain English (:meth:`Clause.say`
with no catalogue, ``str()``) is what language-neutral outputs carry: the JSON export.
:func:`narrate_turns` groups a stream of events into one :class:`Sentence` per throw (or
missed turn), the way ``tablier log export --format text`` writes a Goose match.

>>> from engine.goose import Thrown, OpeningNine
>>> names = ("Alice", "Bob")
>>> [str(line) for line in narrate_turns([Thrown(0, (6, 3), 9), OpeningNine(0, (6, 3), 26)], names)]
['Alice throws 6+3 from the start: straight to the dice on 26.']
>>> from engine.jacquet import GameWon
>>> str(narrate(GameWon(1, 2, 2, (0, 2)), names))
'Bob wins the game double: 2 points (score 0-2)'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import goose, jacquet
from engine.clause import ENGLISH, N_, Clause, Words, plural
from engine.goose import SQUARE_NAMES
from engine.jacquet.notation import format_move
from protocol.events import ChatReceived, MatchEnded

# Jacquet's multipliers and the Goose's hazards keep their French names in every language.
_MULTIPLIERS = {1: "simple", 2: "double", 3: "triple", 4: "quadruple"}
_TRAP_NAMES = {"well": SQUARE_NAMES[31], "prison": SQUARE_NAMES[52], "inn": SQUARE_NAMES[19]}


@dataclass(frozen=True, slots=True)
class Sentence:
    """Clauses told as one sentence: the first *joined* ones read as one ("Alice throws 3+2"
    "from 29 to 34"), the rest follow after semicolons; a full stop ends it."""

    clauses: tuple[Clause, ...]
    joined: int = 1

    def say(self, words: Words = ENGLISH) -> str:
        said = [clause.say(words) for clause in self.clauses]
        head = " ".join(said[: self.joined])
        for then in said[self.joined :]:
            head = words.gettext(N_("{clause}; {then}")).format(clause=head, then=then)
        return words.gettext(N_("{sentence}.")).format(sentence=head)

    def __str__(self) -> str:
        return self.say()


def _goose(event: Any, names: Sequence[str]) -> Clause | None:
    seat = getattr(event, "seat", None)
    who = names[seat] if isinstance(seat, int) else ""
    say = Clause.of
    match event:
        case goose.LotThrown(dice=(a, b), point=point):
            return say(N_("{who} throws {a}+{b} for the lots: {point}"), who=who, a=a, b=b,
                       point=point)  # fmt: skip
        case goose.LotTied(seats=seats, point=point):
            tied = [names[seat] for seat in seats]
            return say(N_("{players} and {last} tie on {point} and throw again"),
                       players=", ".join(tied[:-1]), last=tied[-1], point=point)  # fmt: skip
        case goose.OrderDecided():
            return say(N_("{who} plays first"), who=who)
        case goose.Thrown(dice=(a, b)):
            return say(N_("{who} throws {a}+{b}"), who=who, a=a, b=b)
        case goose.OpeningNine(end=end):
            return say(N_("from the start: straight to the dice on {end}"), end=end)
        case goose.Moved(start=0, end=end):
            return say(N_("from the start to {end}"), end=end)
        case goose.Moved(start=start, end=end):
            return say(N_("from {start} to {end}"), start=start, end=end)
        case goose.Bounced(excess=excess, end=end):
            return say(N_("reaches 63 and counts {excess} back to {end}"), excess=excess, end=end)
        case goose.GooseRepeat(square=square, point=point, forward=True):
            return say(N_("a goose on {square}: {point} more on"), square=square, point=point)
        case goose.GooseRepeat(square=square, point=point):
            return say(N_("a goose on {square}: {point} more back"), square=square, point=point)
        case goose.Death():
            return say(N_("{hazard} ({square}): back to the start"), hazard=event.NAME,
                       square=event.SQUARE)  # fmt: skip
        case goose.Bridge() | goose.Labyrinth():
            return say(N_("{hazard} ({square}): to {to}"), hazard=event.NAME,
                       square=event.SQUARE, to=event.to_square)  # fmt: skip
        case goose.Inn():
            return say(N_("{hazard} ({square}): misses the next turn"), hazard=event.NAME,
                       square=event.SQUARE)  # fmt: skip
        case goose.Well() | goose.Prison():
            return say(N_("{hazard} ({square}): held until another player lands there"),
                       hazard=event.NAME, square=event.SQUARE)  # fmt: skip
        case goose.Paid(amount=amount, reason="met"):
            return say(N_("{who} pays {amount} into the pot"), who=who, amount=amount)
        case goose.Paid(amount=amount):
            return say(N_("pays {amount}"), amount=amount)
        case goose.Released(trap=trap, freed_by=freed_by, to_square=0):
            return say(N_("{who} is freed from {trap} by {freer} and placed on the start"),
                       who=who, trap=_TRAP_NAMES[trap], freer=names[freed_by])  # fmt: skip
        case goose.Released(trap=trap, freed_by=freed_by, to_square=to):
            return say(N_("{who} is freed from {trap} by {freer} and placed on {to}"),
                       who=who, trap=_TRAP_NAMES[trap], freer=names[freed_by], to=to)  # fmt: skip
        case goose.Met(met_seat=met, square=square, sent_to=0):
            return say(N_("meets {other} on {square}, who goes to the start"),
                       other=names[met], square=square)  # fmt: skip
        case goose.Met(met_seat=met, square=square, sent_to=sent_to):
            return say(N_("meets {other} on {square}, who goes to {to}"), other=names[met],
                       square=square, to=sent_to)  # fmt: skip
        case goose.MissedTurn(reason=reason):
            return say(N_("{who} misses a turn ({hazard})"), who=who, hazard=_TRAP_NAMES[reason])
        case goose.Won(pot=pot):
            return say(N_("{who} reaches {goal} and wins the pot of {pot}"), who=who,
                       goal=SQUARE_NAMES[63], pot=pot)  # fmt: skip
        case goose.Blocked(shares=shares, unclaimed=0):
            return say(N_("nobody can ever throw again: the pot is shared, {share} each"),
                       share=shares[0])  # fmt: skip
        case goose.Blocked(shares=shares, unclaimed=unclaimed):
            return say(N_("nobody can ever throw again: the pot is shared, {share} each, "
                          "{unclaimed} unclaimed"), share=shares[0], unclaimed=unclaimed)
    return None


def _jacquet(event: Any, names: Sequence[str]) -> Clause | None:
    say = Clause.of
    match event:
        case jacquet.OpeningThrown(game=game, white_die=w, black_die=b, starter=None):
            return say(N_("Game {game}: {white} throws {w}, {black} throws {b}: a tie, they "
                          "throw again"), game=game, white=names[0], w=w, black=names[1], b=b)
        case jacquet.OpeningThrown(game=game, white_die=w, black_die=b, starter=int(starter)):
            return say(N_("Game {game}: {white} throws {w}, {black} throws {b}: {starter} "
                          "starts"), game=game, white=names[0], w=w, black=names[1], b=b,
                       starter=names[starter])  # fmt: skip
        case jacquet.Rolled(seat=seat, dice=(a, b)):
            return say(N_("{who} rolls {a}-{b}"), who=names[seat], a=a, b=b)
        case jacquet.Moved(seat=seat, move=move):
            return say(N_("{who} plays {play}"), who=names[seat], play=format_move(move))
        case jacquet.Passed(seat=seat, dice=(a, b)):
            return say(N_("{who} cannot play {a}-{b}: the dice are lost"), who=names[seat], a=a,
                       b=b)  # fmt: skip
        case jacquet.PostillonBlocked(seat=seat, winner=winner, points=points, score=score):
            return say(plural("{who}'s postillon is blocked: {winner} wins {points} point "
                              "(score {white}-{black})",
                              "{who}'s postillon is blocked: {winner} wins {points} points "
                              "(score {white}-{black})"), points, who=names[seat],
                       winner=names[winner], points=points, white=score[0], black=score[1])
        case jacquet.GameWon(winner=winner, multiplier=multiplier, points=points, score=score):
            return say(plural("{winner} wins the game {kind}: {points} point "
                              "(score {white}-{black})",
                              "{winner} wins the game {kind}: {points} points "
                              "(score {white}-{black})"), points, winner=names[winner],
                       kind=_MULTIPLIERS[multiplier], points=points, white=score[0],
                       black=score[1])  # fmt: skip
        case jacquet.MatchWon(winner=winner, score=score):
            return say(N_("{winner} wins the match {won}-{lost}"), winner=names[winner],
                       won=score[winner], lost=score[1 - winner])  # fmt: skip
    return None


def _protocol(event: Any, names: Sequence[str]) -> Clause | None:
    say = Clause.of
    match event:
        case ChatReceived(name=name, text=text):
            return say(N_("{name} says: {text}"), name=name, text=text)
        case MatchEnded(reason="resigned", seat=seat) if seat is not None:
            return say(N_("{who} resigns"), who=names[seat])
        case MatchEnded(reason="abandoned", seat=seat) if seat is not None:
            return say(N_("{who} abandoned the match (silent past the time limit)"),
                       who=names[seat])  # fmt: skip
        case MatchEnded(reason="stopped", error=error):
            return say(N_("the match is stopped: {error}"), error=str(error))
    return None


_NARRATORS: tuple[Callable[[Any, Sequence[str]], Clause | None], ...] = (
    _goose, _jacquet, _protocol,
)  # fmt: skip


def narrate(event: Any, names: Sequence[str]) -> Clause | None:
    """A clause saying what *event* means, or None for events with nothing to say."""
    for narrator in _NARRATORS:
        clause = narrator(event, names)
        if clause is not None:
            return clause
    return None


_STARTS_A_LINE = (
    goose.LotThrown, goose.LotTied, goose.OrderDecided, goose.Thrown, goose.MissedTurn,
    goose.Blocked, ChatReceived, MatchEnded,
)  # fmt: skip


def narrate_turns(events: Iterable[Any], names: Sequence[str]) -> list[Sentence]:
    """One sentence per Goose throw (or lot, missed turn, chat line, end of match).

    A count that bounces or repeats on a goose reads as one clause: "from 61 to 63 and 8
    back to 55", "a goose on 14: on to 18"; a throw's first count reads with the throw
    ("Alice throws 3+2 from 29 to 34").
    """
    lines: list[list[tuple[Any, Clause]]] = []
    pending = list(events)
    index = 0
    while index < len(pending):
        event = pending[index]
        index += 1
        clause: Clause | None
        if isinstance(event, goose.Moved | goose.GooseRepeat):
            clause, index = _count(event, pending, index, names)
        else:
            clause = narrate(event, names)
        if clause is None:
            continue
        if isinstance(event, _STARTS_A_LINE) or not lines:
            lines.append([(event, clause)])
        else:
            lines[-1].append((event, clause))
    return [_sentence(told) for told in lines]


def _count(
    event: Any, events: list[Any], index: int, names: Sequence[str]
) -> tuple[Clause | None, int]:
    """Narrate a count (or a goose and its repeated count), absorbing its bounce."""
    say = Clause.of
    bounce = events[index + 1] if index + 1 < len(events) else None
    if isinstance(event, goose.GooseRepeat):
        moved = events[index] if index < len(events) else None
        if not isinstance(moved, goose.Moved):
            return say(N_("a goose on {square}: {point} more"), square=event.square,
                       point=event.point), index  # fmt: skip
        if isinstance(bounce, goose.Bounced):
            return say(N_("a goose on {square}: on to 63 and {excess} back to {end}"),
                       square=event.square, excess=bounce.excess, end=bounce.end), index + 2
        if event.forward:
            return say(N_("a goose on {square}: on to {end}"), square=event.square,
                       end=moved.end), index + 1  # fmt: skip
        return say(N_("a goose on {square}: back to {end}"), square=event.square,
                   end=moved.end), index + 1  # fmt: skip
    bounce = events[index] if index < len(events) else None
    if not isinstance(bounce, goose.Bounced):
        return narrate(event, names), index
    if event.start == 0:
        return say(N_("from the start to 63 and {excess} back to {end}"),
                   excess=bounce.excess, end=bounce.end), index + 1  # fmt: skip
    return say(N_("from {start} to 63 and {excess} back to {end}"), start=event.start,
               excess=bounce.excess, end=bounce.end), index + 1  # fmt: skip


def _sentence(told: list[tuple[Any, Clause]]) -> Sentence:
    """A throw and its first count (or its opening nine) read as one clause."""
    counted = len(told) > 1 and isinstance(told[1][0], goose.Moved | goose.OpeningNine)
    return Sentence(tuple(clause for _event, clause in told), joined=2 if counted else 1)
