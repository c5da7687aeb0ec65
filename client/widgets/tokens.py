"""How each Goose seat is drawn: a letter unique among the seats and a colour.

Letters stay distinct for all fifteen seats, so the board reads without colour too.
"""

from __future__ import annotations

from dataclasses import dataclass
from string import ascii_uppercase

# Fifteen colours far apart in hue and lightness; text on them is black or white.
_PALETTE: tuple[tuple[str, str], ...] = (
    ("#e6194b", "white"),
    ("#3cb44b", "black"),
    ("#ffe119", "black"),
    ("#4363d8", "white"),
    ("#f58231", "black"),
    ("#911eb4", "white"),
    ("#42d4f4", "black"),
    ("#f032e6", "black"),
    ("#bfef45", "black"),
    ("#fabed4", "black"),
    ("#469990", "white"),
    ("#dcbeff", "black"),
    ("#9a6324", "white"),
    ("#fffac8", "black"),
    ("#800000", "white"),
)


@dataclass(frozen=True, slots=True)
class Token:
    letter: str
    background: str
    foreground: str

    @property
    def style(self) -> str:
        return f"bold {self.foreground} on {self.background}"


def seat_tokens(names: tuple[str, ...]) -> tuple[Token, ...]:
    """One token per seat: the name's initial, or when an earlier seat has it the name's next
    free letter (Alain after Anne is L), or else the first free letter of the alphabet."""
    taken: set[str] = set()
    letters: list[str] = []
    for name in names:
        own = [char for char in name.upper() if char.isalpha()]
        letter = next(char for char in [*own, *ascii_uppercase] if char not in taken)
        taken.add(letter)
        letters.append(letter)
    return tuple(
        Token(letter, *_PALETTE[seat % len(_PALETTE)]) for seat, letter in enumerate(letters)
    )
