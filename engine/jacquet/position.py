"""The Jacquet position: whose turn it is and where each side's 15 checkers stand.

Each side's checkers are kept on **its own track** (RULES 2.1): point 1 is its talon,
19-24 its last quarter, and borne-off checkers are counted apart. A board is packed into
one integer, four bits per point — nibble ``k`` (``k`` = 0..23) holds the count on point
``k + 1`` and nibble 24 the borne-off count — so a move is one addition, a position is
cheap to hash and compare, and the legal-play generator can deduplicate by position.

>>> start = Position.initial()
>>> start.points(WHITE)[:2], start.borne_off(BLACK)
((15, 0), 0)
>>> to_physical(BLACK, 13)  # black's 13 is the point white calls 1: white's talon
1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.canonical import Canonical
from engine.errors import InvalidPositionError

WHITE: Final = 0
BLACK: Final = 1
SIDE_NAMES: Final = ("white", "black")

CHECKERS: Final = 15
POINTS: Final = 24
OFF_INDEX: Final = 24
"""The nibble holding the borne-off count; a bear-off is a move to point 25."""

UNIT: Final = tuple(1 << (4 * k) for k in range(25))
"""``UNIT[k]``: one checker on nibble ``k`` of a packed board."""

BELOW_HOME_MASK: Final = (1 << (4 * 18)) - 1
"""Nibbles of points 1-18: a board without them has every checker home (or off)."""

BOARD_MASK: Final = (1 << (4 * POINTS)) - 1
"""Nibbles of points 1-24 (not the borne-off count)."""

HOME_SHIFT: Final = 4 * 18
"""``board >> HOME_SHIFT`` is zero exactly when nothing is in 19-24 and nothing is off."""


def to_physical(side: int, point: int) -> int:
    """The point *point* of *side*'s track, numbered on white's track (RULES 2.1)."""
    return point if side == WHITE else (point - 1 + 12) % 24 + 1


def pack(points: tuple[int, ...], borne_off: int) -> int:
    """Pack 24 counts (point 1 first) and a borne-off count into one board integer."""
    board = borne_off << (4 * OFF_INDEX)
    for k, count in enumerate(points):
        board |= count << (4 * k)
    return board


def unpack(board: int) -> tuple[int, ...]:
    """The 24 counts of a packed board, point 1 first."""
    return tuple((board >> (4 * k)) & 15 for k in range(POINTS))


POINT_BITS: Final = sum(1 << (4 * k) for k in range(POINTS))
"""The lowest bit of each point's nibble: the shape of a *point set* (bit ``4k``: point
``k + 1``), which lines up with a packed board so that one shift moves every point."""


def point_set(board: int) -> int:
    """The occupied points of a packed board, as a point set."""
    counts = board & BOARD_MASK
    return (counts | counts >> 1 | counts >> 2 | counts >> 3) & POINT_BITS


def occupied(board: int) -> list[int]:
    """Indices (point - 1) of a packed board's occupied points, lowest first."""
    points = point_set(board)
    found = []
    while points:
        lowest = points & -points
        found.append((lowest.bit_length() - 1) >> 2)
        points ^= lowest
    return found


def closed_mask(opponent_board: int) -> int:
    """The points the opponent holds, on the mover's track, as a point set.

    The opponent's point ``i + 1`` is the mover's ``(i + 12) % 24 + 1``: turning the board
    half way round is a shift by twelve nibbles one way or the other.
    """
    held = point_set(opponent_board)
    return ((held << 48) | (held >> 48)) & POINT_BITS


def under_postillon_rule(board: int) -> bool:
    """True while nothing is in 19-24 and nothing is borne off (RULES 2.4)."""
    return not board >> HOME_SHIFT


@dataclass(frozen=True, slots=True, repr=False)
class Position:
    """Whose turn it is and both packed boards (``boards[WHITE]``, ``boards[BLACK]``).

    Build one with :meth:`initial`, :meth:`from_points` (validated) or from JSON
    (:func:`engine.jacquet.json_format.position_from_json`); read it with
    :meth:`points`, :meth:`count`, :meth:`borne_off`. The bare constructor does not
    validate: the legal-play generator builds positions that are valid by construction.

    >>> Position.from_points(BLACK, {1: 14, 12: 1}, {1: 15})
    Position(turn=black, white={1: 14, 12: 1}, black={1: 15})
    """

    turn: int
    boards: tuple[int, int]

    @classmethod
    def initial(cls, turn: int = WHITE) -> Position:
        """All 15 checkers of each side on its talon."""
        start = CHECKERS * UNIT[0]
        return cls(turn, (start, start))

    @classmethod
    def from_points(cls, turn: int, white: dict[int, int], black: dict[int, int]) -> Position:
        """A validated position from ``{point: count}`` maps on each side's own track.

        >>> Position.from_points(BLACK, {1: 14, 12: 1}, {1: 15}).count(WHITE, 12)
        1
        >>> Position.from_points(WHITE, {1: 16}, {1: 15})
        Traceback (most recent call last):
        ...
        engine.errors.InvalidPositionError: white has 16 checkers; a side has 15
        """
        if turn not in (WHITE, BLACK):
            raise InvalidPositionError(f"turn must be white (0) or black (1), not {turn!r}")
        boards = []
        for side, counts in ((WHITE, white), (BLACK, black)):
            points = [0] * POINTS
            for point, count in counts.items():
                if not 1 <= point <= POINTS:
                    raise InvalidPositionError(
                        f"{SIDE_NAMES[side]} has checkers on point {point}; points run 1-24"
                    )
                if count < 0:
                    raise InvalidPositionError(
                        f"{SIDE_NAMES[side]} has {count} checkers on point {point}"
                    )
                points[point - 1] = count
            total = sum(points)
            if total > CHECKERS:
                raise InvalidPositionError(
                    f"{SIDE_NAMES[side]} has {total} checkers; a side has {CHECKERS}"
                )
            boards.append(pack(tuple(points), CHECKERS - total))
        position = cls(turn, (boards[0], boards[1]))
        position.validate()
        return position

    def validate(self) -> None:
        """Raise :class:`InvalidPositionError` unless the position can arise in play."""
        white, black = (unpack(board) for board in self.boards)
        for k in range(POINTS):
            if white[k] and black[(k + 12) % 24]:
                raise InvalidPositionError(
                    f"white's {k + 1} and black's {(k + 12) % 24 + 1} are the same point; "
                    "checkers of both sides cannot share it"
                )
        for side in (WHITE, BLACK):
            board = self.boards[side]
            if under_postillon_rule(board) and board & 15 < CHECKERS - 1:
                raise InvalidPositionError(
                    f"{SIDE_NAMES[side]} has {CHECKERS - (board & 15)} checkers off the talon "
                    "but none in 19-24 and none borne off; the postillon rule lets only one "
                    "leave"
                )
        if self.borne_off(WHITE) == CHECKERS and self.borne_off(BLACK) == CHECKERS:
            raise InvalidPositionError("both sides have borne off all 15 checkers")

    def points(self, side: int) -> tuple[int, ...]:
        """*side*'s 24 counts on its own track, point 1 first."""
        return unpack(self.boards[side])

    def count(self, side: int, point: int) -> int:
        """How many of *side*'s checkers stand on *point* (1-24) of its own track."""
        return (self.boards[side] >> (4 * (point - 1))) & 15

    def borne_off(self, side: int) -> int:
        """How many of *side*'s checkers are off the board."""
        return self.boards[side] >> (4 * OFF_INDEX)

    def rearmost(self, side: int) -> int | None:
        """*side*'s lowest occupied point on its own track (``None`` when all are off)."""
        points = occupied(self.boards[side])
        return points[0] + 1 if points else None

    def is_closed(self, side: int, point: int) -> bool:
        """True when the opponent holds *point* of *side*'s track (RULES 2.3)."""
        return bool(closed_mask(self.boards[1 - side]) >> (4 * (point - 1)) & 1)

    def __repr__(self) -> str:
        sides = [
            {point: n for point, n in enumerate(self.points(side), start=1) if n}
            for side in (WHITE, BLACK)
        ]
        return f"Position(turn={SIDE_NAMES[self.turn]}, white={sides[0]}, black={sides[1]})"

    def canonical(self) -> Canonical:
        """``("jacquet-position", turn, white's 24 counts, white off, black's ..., off)``."""
        return (
            "jacquet-position",
            self.turn,
            self.points(WHITE),
            self.borne_off(WHITE),
            self.points(BLACK),
            self.borne_off(BLACK),
        )
