"""What a networked game says of its connection to the relay, for the screens to show.

It lives with the drivers, not with the link that fills it in: a screen drives a game
through :class:`~client.game.driver.GameDriver` and knows nothing of websockets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

LinkState = Literal["connecting", "connected", "reconnecting", "failed", "closed"]


@dataclass(frozen=True, slots=True)
class LinkStatus:
    """What the connection indicator shows. ``retry_at`` is a ``time.monotonic()`` value."""

    state: LinkState
    attempt: int = 0
    retry_at: float | None = None
    detail: str = ""
    joined: bool = False  # failed after the room was joined (not a refusal at the door)
