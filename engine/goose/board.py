"""The board of the Jeu de l'oie (RULES 1.1): squares 0-63, the geese and the hazards.

Every player starts off the board on :data:`START` and wins on :data:`GOAL`.

>>> is_goose(14), is_goose(15)
(True, False)
>>> SQUARE_NAMES[BRIDGE], SQUARE_NAMES[GOAL]
('le pont', "le jardin de l'oie")
"""

from __future__ import annotations

from typing import Final

START: Final = 0
GOAL: Final = 63

GEESE: Final[tuple[int, ...]] = (5, 9, 14, 18, 23, 27, 32, 36, 41, 45, 50, 54, 59)
"""The two interleaved series 5 + 9k and 9 + 9k (RULES 1.1)."""

BRIDGE: Final = 6
INN: Final = 19
WELL: Final = 31
LABYRINTH: Final = 42
PRISON: Final = 52
DEATH: Final = 58

BRIDGE_EXIT: Final = 12
LABYRINTH_EXIT: Final = 30
DEATH_EXIT: Final = START

OPENING_NINES: Final[dict[tuple[int, int], int]] = {
    (6, 3): 26,
    (3, 6): 26,
    (5, 4): 53,
    (4, 5): 53,
}
"""A nine thrown from square 0 goes straight to the square showing its two dice (RULES 1.4.4)."""

SQUARE_NAMES: Final[dict[int, str]] = {
    BRIDGE: "le pont",
    INN: "l'hôtellerie",
    WELL: "le puits",
    LABYRINTH: "le labyrinthe",
    PRISON: "la prison",
    DEATH: "la mort",
    GOAL: "le jardin de l'oie",
}
"""The French name of every square that has one, as printed on the boards."""

_IS_GOOSE: Final[tuple[bool, ...]] = tuple(square in GEESE for square in range(GOAL + 1))


def is_goose(square: int) -> bool:
    """Whether a move ending on *square* is counted again (RULES 1.4.3)."""
    return _IS_GOOSE[square]
