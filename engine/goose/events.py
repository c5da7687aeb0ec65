"""What happened during a Goose throw or missed turn, step by step, in order.

A client animates and narrates these one after the other: every square counted to
(:attr:`Moved.path`), every goose, bounce, hazard, payment, release and meeting. The hazard
events carry their square and French name as class constants::

    >>> Bridge.SQUARE, Bridge.NAME, Bridge(seat=0).to_square
    (6, 'le pont', 12)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from engine.goose import board

PaymentReason = Literal["bridge", "inn", "well", "labyrinth", "prison", "death", "met"]
"""Why a player paid the fee: the hazard he landed on, or ``met`` (Daumont meeting)."""

Trap = Literal["well", "prison"]
"""The two squares that hold a player until someone else's throw ends there."""

MissReason = Literal["inn", "well", "prison"]


@dataclass(frozen=True, slots=True)
class LotThrown:
    """During the lots (RULES 1.3) ``seat`` threw ``dice`` for ``point``; nobody moves."""

    seat: int
    dice: tuple[int, int]
    point: int


@dataclass(frozen=True, slots=True)
class LotTied:
    """The highest lot ``point`` was tied by ``seats``: they throw again among themselves."""

    seats: tuple[int, ...]
    point: int


@dataclass(frozen=True, slots=True)
class OrderDecided:
    """``seat`` won the lots and plays first; play then goes round the seats from him."""

    seat: int


@dataclass(frozen=True, slots=True)
class Thrown:
    """``seat`` threw ``dice`` (``point`` is their sum): the first event of every throw."""

    seat: int
    dice: tuple[int, int]
    point: int


@dataclass(frozen=True, slots=True)
class Moved:
    """One count of ``point`` pips from ``start`` to ``end``.

    ``path`` lists every square counted to, in order, ending with ``end``: after a bounce
    it climbs to 63 and comes back (57 + 9: 58 … 63, 62, 61, 60).
    """

    seat: int
    start: int
    end: int
    point: int
    path: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Bounced:
    """The count just made reached 63 with ``excess`` pips left, counted back to ``end``."""

    seat: int
    excess: int
    end: int


@dataclass(frozen=True, slots=True)
class GooseRepeat:
    """``seat`` ended on the goose at ``square``: he counts ``point`` again, forward or back."""

    seat: int
    square: int
    point: int
    forward: bool


@dataclass(frozen=True, slots=True)
class OpeningNine:
    """A nine thrown from square 0 goes straight to ``end`` (6+3 → 26, 5+4 → 53)."""

    seat: int
    dice: tuple[int, int]
    end: int


@dataclass(frozen=True, slots=True)
class Bridge:
    """Landed on the bridge: pays the fee and crosses to square 12."""

    SQUARE: ClassVar[int] = board.BRIDGE
    NAME: ClassVar[str] = board.SQUARE_NAMES[board.BRIDGE]
    seat: int
    to_square: int = board.BRIDGE_EXIT


@dataclass(frozen=True, slots=True)
class Inn:
    """Landed on the inn: pays the fee and misses his next turn."""

    SQUARE: ClassVar[int] = board.INN
    NAME: ClassVar[str] = board.SQUARE_NAMES[board.INN]
    seat: int


@dataclass(frozen=True, slots=True)
class Well:
    """Landed on the well: pays the fee, frees whoever was in it, and is held there."""

    SQUARE: ClassVar[int] = board.WELL
    NAME: ClassVar[str] = board.SQUARE_NAMES[board.WELL]
    seat: int


@dataclass(frozen=True, slots=True)
class Labyrinth:
    """Landed on the labyrinth: pays the fee and goes back to square 30."""

    SQUARE: ClassVar[int] = board.LABYRINTH
    NAME: ClassVar[str] = board.SQUARE_NAMES[board.LABYRINTH]
    seat: int
    to_square: int = board.LABYRINTH_EXIT


@dataclass(frozen=True, slots=True)
class Prison:
    """Landed in the prison: pays the fee, frees whoever was in it, and is held there."""

    SQUARE: ClassVar[int] = board.PRISON
    NAME: ClassVar[str] = board.SQUARE_NAMES[board.PRISON]
    seat: int


@dataclass(frozen=True, slots=True)
class Death:
    """Landed on death: pays the fee and goes back to square 0."""

    SQUARE: ClassVar[int] = board.DEATH
    NAME: ClassVar[str] = board.SQUARE_NAMES[board.DEATH]
    seat: int
    to_square: int = board.DEATH_EXIT


Hazard = Bridge | Inn | Well | Labyrinth | Prison | Death


@dataclass(frozen=True, slots=True)
class Paid:
    """``seat`` put ``amount`` tokens into the pot because of ``reason``."""

    seat: int
    amount: int
    reason: PaymentReason


@dataclass(frozen=True, slots=True)
class Released:
    """``seat`` was freed from ``trap`` by ``freed_by`` and placed on ``to_square``."""

    seat: int
    trap: Trap
    freed_by: int
    to_square: int


@dataclass(frozen=True, slots=True)
class Held:
    """``seat`` is held in ``trap`` (on ``square``) until another player's throw ends there."""

    seat: int
    trap: Trap
    square: int


@dataclass(frozen=True, slots=True)
class Met:
    """Daumont: ``seat`` ended on ``square`` where ``met_seat`` stood; ``met_seat`` pays
    the fee (a :class:`Paid` follows) and is placed on ``sent_to``, the arriver's start
    square. ``left_inn`` says he was waiting at the inn and no longer misses his turn."""

    seat: int
    met_seat: int
    square: int
    sent_to: int
    left_inn: bool


@dataclass(frozen=True, slots=True)
class MissedTurn:
    """``seat`` did not throw this turn: he is at the inn, or held in the well or prison."""

    seat: int
    reason: MissReason


@dataclass(frozen=True, slots=True)
class Won:
    """``seat`` reached 63 exactly and takes the ``pot``; the game is over."""

    seat: int
    pot: int


@dataclass(frozen=True, slots=True)
class Blocked:
    """Two players, one in the well and one in the prison: nobody can throw again.

    The pot is shared equally: each seat receives ``shares[seat]`` tokens and the
    indivisible remainder, ``unclaimed``, goes to nobody."""

    shares: tuple[int, ...]
    unclaimed: int


GooseEvent = (
    LotThrown
    | LotTied
    | OrderDecided
    | Thrown
    | Moved
    | Bounced
    | GooseRepeat
    | OpeningNine
    | Hazard
    | Paid
    | Released
    | Held
    | Met
    | MissedTurn
    | Won
    | Blocked
)
