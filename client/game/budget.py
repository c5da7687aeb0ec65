"""How much computing one look at a log may cost, whoever wrote the log.

A log holds as many turns as its writer likes (up to the size a log may have), and judging a
Jacquet turn at two plies takes about 0.45 s on a small machine (one ply: 0.07 s): a huge
log would keep ``tablier analyze``, or a replay's coach, busy for hours. So each judges at
most :data:`MAX_JUDGED_TURNS` turns, and says so when a log holds more. And what runs in a
worker thread stops between two records, or two turns, once the worker is cancelled
(:func:`client.lifecycle.stop_if_cancelled` raises :class:`Cancelled`).
"""

from __future__ import annotations

from typing import Final

MAX_JUDGED_TURNS: Final = 2000
"""The most turns one analysis judges — ``tablier analyze`` (its ``--max-turns`` default) and a
replay's coach alike — and each says so when a log holds more. A log holds as many turns as
its writer likes; at two plies a turn takes about 0.45 s (one ply: 0.07 s), so 2000 turns
are a quarter of an hour at most (two minutes for the coach), not hours."""


class Cancelled(Exception):
    """The thread worker doing this was cancelled (the app quits, its screen went, a newer
    pass replaced it): what it was doing is dropped. Not a fault of anything it read, so the
    handlers that turn a file's faults into words let it through."""
