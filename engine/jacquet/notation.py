"""Text notation for plays and dice (RULES 2.8): parse and format, round-trip.

>>> play = parse_play("1/7 7/12")
>>> format_play(play)
'1/7 7/12'
>>> format_play(parse_play("21/off 24/off")), format_play(parse_play("-"))
('21/off 24/off', '-')
>>> parse_dice("6-5"), format_dice((6, 5))
((6, 5), '6-5')

A person may type a checker's whole way over several dice; :func:`parse_spans` reads that
(the syntax alone: whether the dice allow it is for whoever enters it):

>>> parse_spans("1/12 21/off"), format_spans(((1, 12), (21, OFF)))
(((1, 12), (21, 25)), '1/12 21/off')
"""

from __future__ import annotations

from engine.clause import N_, Clause
from engine.errors import IllegalMoveError, NotationError
from engine.jacquet.move import OFF, Move, Play

PASS = "-"
Span = tuple[int, int]
"""A checker's way from one point to another (``OFF`` for off), over one die or several."""


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


def format_span(span: Span) -> str:
    """``"1/12"``, or ``"21/off"`` for a bear-off."""
    source, target = span
    return f"{source}/{'off' if target == OFF else target}"


def parse_span(text: str) -> Span:
    """``"from/to"`` (``to`` may be ``off``), points 1-24; :class:`NotationError` if not."""
    source, slash, target = text.partition("/")
    if not slash or not _is_number(source) or not (_is_number(target) or target == "off"):
        raise NotationError(Clause.of(N_("{text} is not a move; write from/to, e.g. 1/7 or "
                                         "21/off"), text=repr(text)))  # fmt: skip
    span = (int(source), OFF if target == "off" else int(target))
    if not 1 <= span[0] < OFF:
        raise NotationError(Clause.of(N_("{text}: a move starts on a point 1-24, not {point}"),
                                      text=repr(text), point=span[0]))  # fmt: skip
    if not 1 <= span[1] <= OFF:
        raise NotationError(Clause.of(N_("{text}: a move ends on a point 1-24 or off, not "
                                         "{point}"), text=repr(text), point=span[1]))  # fmt: skip
    return span


def format_spans(spans: tuple[Span, ...]) -> str:
    """Spans separated by spaces; ``"-"`` for a pass."""
    return " ".join(format_span(span) for span in spans) if spans else PASS


def parse_spans(text: str) -> tuple[Span, ...]:
    """Parse ``"1/12 21/off"`` or ``"-"`` (a pass)."""
    words = text.split()
    if words == [PASS]:
        return ()
    if not words:
        raise NotationError(Clause.of(N_("empty play; write moves like 1/7 7/12, or - to pass")))
    return tuple(parse_span(word) for word in words)


def format_move(move: Move) -> str:
    """``"1/7"``, or ``"21/off"`` for a bear-off."""
    return format_span((move.from_point, move.to_point))


def parse_move(text: str) -> Move:
    """The move ``"from/to"`` (``to`` may be ``off``); :class:`NotationError` if malformed."""
    return _one_die(parse_span(text), text)


def _one_die(span: Span, text: str) -> Move:
    try:
        return Move(*span)
    except IllegalMoveError as error:
        raise NotationError(Clause.of(N_("{text}: {reason}"), text=repr(text),
                                      reason=error.reason)) from None  # fmt: skip


def format_play(play: Play) -> str:
    """Moves separated by spaces, in the order played; ``"-"`` for a pass."""
    return " ".join(format_move(move) for move in play) if play else PASS


def parse_play(text: str) -> Play:
    """Parse ``"1/7 7/12"``, ``"21/off"`` or ``"-"`` (a pass)."""
    spans = parse_spans(text)
    if not spans:
        return ()
    return tuple(_one_die(span, word) for span, word in zip(spans, text.split(), strict=True))


def format_dice(dice: tuple[int, int]) -> str:
    """``"6-5"``."""
    return f"{dice[0]}-{dice[1]}"


def parse_dice(text: str) -> tuple[int, int]:
    """Parse ``"6-5"``: two dice of 1-6."""
    first, dash, second = text.strip().partition("-")
    if not dash or not _is_number(first) or not _is_number(second):
        raise NotationError(f"{text!r} is not a throw; write two dice like 6-5")
    dice = (int(first), int(second))
    for die in dice:
        if not 1 <= die <= 6:
            raise NotationError(f"a die shows 1 to 6, not {die}")
    return dice
