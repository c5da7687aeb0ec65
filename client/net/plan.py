"""What ``tablier host``, ``join`` and ``watch`` (or the lobby) ask of a room: plain data.

No Textual here and nothing that connects: the commands build a plan from their options,
the room screen carries it out.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from client.net.invite import Invite

DEFAULT_CONNECT_TIMEOUT = 15.0
"""Seconds a join or a watch tries to reach the relay before it gives up."""
STDOUT = Path("-")
"""``--invite-file -``: the invites go to standard output."""


@dataclass(frozen=True, slots=True)
class HostPlan:
    """What ``tablier host`` (or the lobby) asks for."""

    game: str
    options: dict[str, int | str]
    seats: int
    name: str
    relay_url: str | None = None  # None: an embedded relay on ``listen``
    listen: tuple[str, int] = ("127.0.0.1", 0)
    computer: bool = False
    level: int = 1
    invite_file: Path | None = None


@dataclass(frozen=True, slots=True)
class JoinPlan:
    """What ``tablier join`` / ``tablier watch`` (or the lobby's form) asks for."""

    invite: Invite
    name: str
    computer: bool = False
    level: int = 1
    connect_timeout: float | None = DEFAULT_CONNECT_TIMEOUT
