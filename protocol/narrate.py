"""Plain-words narration of what happened: the sentences the client's side log shows.

:func:`narrate` turns one event into a clause; :func:`narrate_turns` groups a stream of events
into one sentence per throw (or missed turn), the way ``tablier log export --format text``
writes a Goose match.

>>> from engine.goose import Thrown, OpeningNine
>>> names = ("Alice", "Bob")
>>> narrate_turns([Thrown(0, (6, 3), 9), OpeningNine(0, (6, 3), 26)], names)
['Alice throws 6+3 from the start: straight to the dice on 26.']
>>> from engine.jacquet import GameWon
>>> narrate(GameWon(1, 2, 2, (0, 2)), names)
'Bob wins the game double: 2 points (score 0-2)'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine import goose, jacquet
from engine.goose import SQUARE_NAMES
from engine.jacquet.notation import format_move
from protocol.events import ChatReceived, MatchEnded

_MULTIPLIERS = {1: "simple", 2: "double", 3: "triple", 4: "quadruple"}
_TRAP_NAMES = {"well": SQUARE_NAMES[31], "prison": SQUARE_NAMES[52], "inn": SQUARE_NAMES[19]}
_SIDES = ("white", "black")


def _square(square: int) -> str:
    return "the start" if square == 0 else str(square)


def _goose(event: Any, names: Sequence[str]) -> str | None:
    seat = getattr(event, "seat", None)
    who = names[seat] if isinstance(seat, int) else ""
    match event:
        case goose.LotThrown(dice=(a, b), point=point):
            return f"{who} throws {a}+{b} for the lots: {point}"
        case goose.LotTied(seats=seats, point=point):
            tied_names = [names[seat] for seat in seats]
            tied = ", ".join(tied_names[:-1]) + " and " + tied_names[-1]
            return f"{tied} tie on {point} and throw again"
        case goose.OrderDecided():
            return f"{who} plays first"
        case goose.Thrown(dice=(a, b)):
            return f"{who} throws {a}+{b}"
        case goose.OpeningNine(end=end):
            return f"from the start: straight to the dice on {end}"
        case goose.Moved(start=start, end=end):
            return f"from {_square(start)} to {end}"
        case goose.Bounced(excess=excess, end=end):
            return f"reaches 63 and counts {excess} back to {end}"
        case goose.GooseRepeat(square=square, point=point, forward=forward):
            direction = "on" if forward else "back"
            return f"a goose on {square}: {point} more {direction}"
        case goose.Bridge() | goose.Labyrinth() | goose.Death():
            return f"{event.NAME} ({event.SQUARE}): to {_square(event.to_square)}"
        case goose.Inn():
            return f"{event.NAME} ({event.SQUARE}): misses the next turn"
        case goose.Well() | goose.Prison():
            return f"{event.NAME} ({event.SQUARE}): held until another player lands there"
        case goose.Paid(amount=amount, reason=reason):
            return f"{who} pays {amount} into the pot" if reason == "met" else f"pays {amount}"
        case goose.Released(trap=trap, freed_by=freed_by, to_square=to):
            return (f"{who} is freed from {_TRAP_NAMES[trap]} by {names[freed_by]} "
                    f"and placed on {_square(to)}")  # fmt: skip
        case goose.Met(met_seat=met, square=square, sent_to=sent_to):
            return f"meets {names[met]} on {square}, who goes to {_square(sent_to)}"
        case goose.MissedTurn(reason=reason):
            return f"{who} misses a turn ({_TRAP_NAMES[reason]})"
        case goose.Won(pot=pot):
            return f"{who} reaches {SQUARE_NAMES[63]} and wins the pot of {pot}"
        case goose.Blocked(shares=shares, unclaimed=unclaimed):
            rest = f", {unclaimed} unclaimed" if unclaimed else ""
            return f"nobody can ever throw again: the pot is shared, {shares[0]} each{rest}"
    return None


def _jacquet(event: Any, names: Sequence[str]) -> str | None:
    match event:
        case jacquet.OpeningThrown(game=game, white_die=w, black_die=b, starter=starter):
            start = (f"{names[starter]} starts" if starter is not None
                     else "a tie, they throw again")  # fmt: skip
            return f"Game {game}: {names[0]} throws {w}, {names[1]} throws {b}: {start}"
        case jacquet.Rolled(seat=seat, dice=(a, b)):
            return f"{names[seat]} rolls {a}-{b}"
        case jacquet.Moved(seat=seat, move=move):
            return f"{names[seat]} plays {format_move(move)}"
        case jacquet.Passed(seat=seat, dice=(a, b)):
            return f"{names[seat]} cannot play {a}-{b}: the dice are lost"
        case jacquet.PostillonBlocked(seat=seat, winner=winner, points=points, score=score):
            return (f"{names[seat]}'s postillon is blocked: {names[winner]} wins {points} "
                    f"points (score {score[0]}-{score[1]})")  # fmt: skip
        case jacquet.GameWon(winner=winner, multiplier=multiplier, points=points, score=score):
            return (f"{names[winner]} wins the game {_MULTIPLIERS[multiplier]}: {points} "
                    f"point{'s' if points > 1 else ''} (score {score[0]}-{score[1]})")  # fmt: skip
        case jacquet.MatchWon(winner=winner, score=score):
            return f"{names[winner]} wins the match {score[winner]}-{score[1 - winner]}"
    return None


def _protocol(event: Any, names: Sequence[str]) -> str | None:
    match event:
        case ChatReceived(name=name, text=text):
            return f"{name} says: {text}"
        case MatchEnded(reason="resigned", seat=seat) if seat is not None:
            return f"{names[seat]} resigns"
        case MatchEnded(reason="abandoned", seat=seat) if seat is not None:
            return f"{names[seat]} abandoned the match (silent past the time limit)"
        case MatchEnded(reason="stopped", error=error):
            return f"the match is stopped: {error}"
    return None


_NARRATORS: tuple[Callable[[Any, Sequence[str]], str | None], ...] = (_goose, _jacquet, _protocol)


def narrate(event: Any, names: Sequence[str]) -> str | None:
    """A clause saying what *event* means, or None for events with nothing to say."""
    for narrator in _NARRATORS:
        text = narrator(event, names)
        if text is not None:
            return text
    return None


_STARTS_A_LINE = (
    goose.LotThrown, goose.LotTied, goose.OrderDecided, goose.Thrown, goose.MissedTurn,
    goose.Blocked, ChatReceived, MatchEnded,
)  # fmt: skip


def narrate_turns(events: Iterable[Any], names: Sequence[str]) -> list[str]:
    """One sentence per Goose throw (or lot, missed turn, chat line, end of match).

    A count that bounces or repeats on a goose reads as one clause: "from 61 to 63 and 8
    back to 55", "a goose on 14: on to 18".
    """
    lines: list[list[str]] = []
    pending = list(events)
    index = 0
    while index < len(pending):
        event = pending[index]
        index += 1
        text: str | None
        if isinstance(event, goose.Moved | goose.GooseRepeat):
            text, index = _count(event, pending, index)
        else:
            text = narrate(event, names)
        if text is None:
            continue
        if isinstance(event, _STARTS_A_LINE) or not lines:
            lines.append([text])
        else:
            lines[-1].append(text)
    return [_sentence(parts) for parts in lines]


def _count(event: Any, events: list[Any], index: int) -> tuple[str, int]:
    """Narrate a count (or a goose and its repeated count), absorbing its bounce."""
    prefix = ""
    if isinstance(event, goose.GooseRepeat):
        prefix = f"a goose on {event.square}: "
        if index >= len(events) or not isinstance(events[index], goose.Moved):
            return prefix + f"{event.point} more", index
        direction = "on" if event.forward else "back"
        event, index = events[index], index + 1
        head = f"{direction} to"
    else:
        head = f"from {_square(event.start)} to"
    if index < len(events) and isinstance(events[index], goose.Bounced):
        bounce = events[index]
        return prefix + f"{head} 63 and {bounce.excess} back to {bounce.end}", index + 1
    return prefix + f"{head} {event.end}", index


def _sentence(parts: list[str]) -> str:
    head, *rest = parts
    if rest and rest[0].startswith("from "):
        head, rest = f"{head} {rest[0]}", rest[1:]
    return "; ".join([head, *rest]) + "."
