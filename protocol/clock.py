"""The match clock's rules: how far the players' clocks may disagree, and how long a seat may
take (docs/fair-dice.md, *The time limit*).

Times are the senders' own clocks, in integer milliseconds since the Unix epoch. Nothing
here reads a clock: a session is handed ``now`` by its caller.

>>> ahead_by(10_000, now=4_000)
6000
>>> ahead_by(3_000, now=4_000) is None
True
"""

from __future__ import annotations

from typing import Final

from engine.clause import N_, Clause

CLOCK_TOLERANCE_MS: Final = 5_000
"""How far honest clocks may disagree. A message dated further ahead of the receiver's clock
is refused; a game record dated further back than what it follows is refused."""

MIN_TIME_LIMIT_MS: Final = 30_000
"""The shortest time limit a match may have: six times the clock tolerance, so that what a
claimant's clock can gain over the others' is a small part of any limit."""

MAX_TIME_LIMIT_MS: Final = 24 * 60 * 60 * 1000
"""The longest (a day): a limit is there to be reached."""


def late_after(time_limit_ms: int) -> int:
    """How late a seat's turn must reach it for its client to say when it saw it (a
    ``seen``): a tenth of the limit, or the tolerance if that is longer.

    >>> late_after(300_000), late_after(30_000)
    (30000, 5000)
    """
    return max(CLOCK_TOLERANCE_MS, time_limit_ms // 10)


def ahead_by(time: int, *, now: int) -> int | None:
    """How many ms *time* is ahead of *now* beyond the tolerance (None: within it)."""
    ahead = time - now
    return ahead if ahead > CLOCK_TOLERANCE_MS else None


def behind_by(time: int, *, floor: int) -> int | None:
    """How many ms *time* is before *floor* beyond the tolerance (None: within it)."""
    behind = floor - time
    return behind if behind > CLOCK_TOLERANCE_MS else None


def seconds(ms: int) -> str:
    """*ms* as a person reads it, in English (the protocol's errors): ``"6 s"``,
    ``"4 min 10 s"``, ``"3 h 2 min"``.

    >>> seconds(6_000), seconds(250_000), seconds(4611686018341287000)
    ('6 s', '4 min 10 s', 'more than a day')
    """
    return str(duration(ms))


def duration(ms: int) -> Clause:
    """*ms* for its reader to say in his language (``babel.cfg`` reads this module).

    >>> str(duration(7_200_000)), str(duration(120_000)), str(duration(1))
    ('2 h 0 min', '2 min', '1 s')
    """
    say = Clause.of
    total = (ms + 999) // 1000
    if total >= 86_400:
        return say(N_("more than a day"))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return say(N_("{hours} h {minutes} min"), hours=hours, minutes=minutes)
    if minutes:
        if secs:
            return say(N_("{minutes} min {seconds} s"), minutes=minutes, seconds=secs)
        return say(N_("{minutes} min"), minutes=minutes)
    return say(N_("{seconds} s"), seconds=secs)
