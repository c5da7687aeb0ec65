"""A move (one die, one checker) and a play (a whole turn's moves, in order).

>>> Move(21, OFF)
Move(from_point=21, to_point=25)
>>> Move(21, OFF).is_bear_off, Move(1, 7).distance
(True, 6)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeAlias

from engine.clause import N_, Clause
from engine.errors import IllegalMoveError

OFF: Final = 25
"""``to_point`` of a bear-off: one past point 24."""


@dataclass(frozen=True, slots=True)
class Move:
    """One checker moved by one die, on the mover's own track (``to_point = 25``: off)."""

    from_point: int
    to_point: int

    def __post_init__(self) -> None:
        say, source, target = Clause.of, self.from_point, self.to_point
        if not 1 <= source <= 24:
            raise IllegalMoveError(say(N_("a move starts on a point 1-24, not {point}"),
                                       point=source))  # fmt: skip
        if target == OFF:
            if source < 19:
                raise IllegalMoveError(say(N_("no die bears off from {point}; only from 19-24"),
                                           point=source))  # fmt: skip
        elif not 1 <= target - source <= 6 or target > 24:
            raise IllegalMoveError(say(N_("{source}/{target} is not one die's move (1 to 6 "
                                          "points forward)"),
                                       source=source, target=target))  # fmt: skip

    @property
    def is_bear_off(self) -> bool:
        return self.to_point == OFF

    @property
    def distance(self) -> int:
        """Points travelled; for a bear-off, the smallest die that bears it off."""
        return self.to_point - self.from_point


Play: TypeAlias = tuple[Move, ...]
"""A turn's moves in the order played; the empty play is a pass."""

MOVE_TABLE: Final[tuple[dict[int, Move], ...]] = tuple(
    {
        j: Move(k + 1, j + 1)
        for j in range(k + 1, 25)
        if (j == 24 and k >= 18) or (j < 24 and j - k <= 6)
    }
    for k in range(24)
)
"""``MOVE_TABLE[k][j]``: the move from index ``k`` to index ``j`` (24 = off), built once."""
