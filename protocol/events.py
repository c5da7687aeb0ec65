"""What a session reports, besides the engine's own events (which it passes through as is).

>>> MatchEnded("resigned", winner=0, seat=1)
MatchEnded(reason='resigned', winner=0, seat=1, error=None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeAlias

from protocol.errors import ProtocolError

if TYPE_CHECKING:
    from protocol.games import EngineEvent


@dataclass(frozen=True, slots=True)
class ShareRevealed:
    """``seat`` revealed its dice share for throw ``throw_index`` (one of the seats' shares)."""

    throw_index: int
    seat: int


@dataclass(frozen=True, slots=True)
class DiceRolled:
    """Every share of throw ``throw_index`` is in: ``seat`` (the thrower) rolled ``dice``."""

    throw_index: int
    seat: int
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayMade:
    """Jacquet: ``seat``'s play ``notation`` was checked and applied (engine events follow)."""

    seat: int
    notation: str


@dataclass(frozen=True, slots=True)
class ChatReceived:
    """A signed chat line from ``seat`` (``name``), sent at ``time`` (ms, sender's clock)."""

    seat: int
    name: str
    text: str
    time: int


EndReason = Literal["finished", "resigned", "abandoned", "stopped"]


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """The match is over.

    ``finished``: the engine says so (``winner`` is its winner, None for a blocked Goose);
    ``resigned``: ``seat`` resigned; ``abandoned``: ``seat`` was claimed abandoned
    (``error`` is the :class:`~protocol.errors.TimedOut`); ``stopped``: ``error`` is the
    :class:`~protocol.errors.RemoteProtocolError` that stopped it (``seat`` its culprit).
    """

    reason: EndReason
    winner: int | None = None
    seat: int | None = None
    error: ProtocolError | None = None


@dataclass(frozen=True, slots=True)
class Ignored:
    """A message that changed nothing: an exact duplicate, or game traffic after the end."""

    reason: str


ProtocolEvent = ShareRevealed | DiceRolled | PlayMade | ChatReceived | MatchEnded | Ignored
Event: TypeAlias = "ProtocolEvent | EngineEvent"
"""Session calls return protocol events interleaved with the engine's events."""
