"""Whether a relay process can serve rooms through Redis, sans I/O.

:class:`Health` takes in what happened on the way to Redis (a command failed, Redis was
reached, a write was taken again, a round trip, a look at the link at a given time) and
answers what follows: every member here must go (:class:`Lose`), a line for the log
(:class:`Say`: only when what it says changed), or a ping for a quiet link (:data:`PING`).
It keeps why the process cannot serve (``down``: Redis cannot be reached, or holds another
version's functions; ``refused``: Redis refuses writes) for ``/healthz`` and the metrics.
:mod:`relay.redis_backplane` carries the decisions out; nothing here reads a clock or
touches a socket: times come in as arguments.

>>> health = Health("redis://:secret@redis:6379")
>>> health.unavailable
'not connected to Redis yet'
>>> health.up("ab12cd34").event, health.unavailable
('backplane_up', None)
>>> health.failed(Refusal("OOM command not allowed"))
Say(event='backplane_refused', details={'reason': "Redis at redis://:***@redis:6379 refuses \
the relay's writes (OOM command not allowed)"})
>>> health.failed(Refusal("OOM again")) is None  # said once, until writes are taken again
True
>>> health.beat(now=10.0, busy=True, heard=7.5).reason  # answers due, none for 2.5 s
'Redis at redis://:***@redis:6379 cannot be reached (TimeoutError: Redis did not answer in 2 s)'
>>> health.failed(Unreachable(ConnectionError("reset"))) is None  # down already
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal
from urllib.parse import urlsplit, urlunsplit

from relay.redis_library import NAME, VERSION_ERROR

TIMEOUT = 2.0  # seconds for any one Redis command
RETRY_EVERY = 0.5  # seconds between attempts to reach Redis again
WATCH_EVERY = 0.25  # seconds between looks at whether Redis stopped answering
SAID_AT_MOST = 200  # characters of what Redis or an error said, in a reason


@dataclass(slots=True)
class BackplaneStats:
    round_trips: int = 0
    round_trip_seconds: float = 0.0
    reconnects: int = 0
    errors: int = 0


# --- what comes in ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Unreachable:
    """Redis could not be reached, or stopped answering: ``error`` says how."""

    error: BaseException


@dataclass(frozen=True, slots=True)
class Refusal:
    """Redis answered a command with an error reply, which ``said``."""

    said: str


@dataclass(frozen=True, slots=True)
class Conflict:
    """Redis holds another version's functions, as ``said`` (reaching it again stopped)."""

    said: str


Failure = Unreachable | Refusal


# --- what follows ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Lose:
    """Redis cannot serve this process: every member here goes, and the watch tries to
    reach it again."""

    reason: str


@dataclass(frozen=True, slots=True)
class Say:
    """A line for the relay's log: ``event``, with its ``details``."""

    event: str
    details: dict[str, str | int]


PING: Final = "ping"


class Health:
    """One relay process's link to Redis, as a machine of states: down (not reached yet,
    lost, or holding another version's functions), up, and up but refusing writes."""

    __slots__ = ("_was_up", "closing", "down", "redis", "refused", "stats")

    def __init__(self, url: str) -> None:
        self.redis = safe_url(url)  # what the log and /healthz show of where Redis is
        self.down: str | None = "not connected to Redis yet"
        self.refused: str | None = None  # why Redis refuses our writes, while it does
        self.stats = BackplaneStats()
        self.closing = False  # the process stops: nothing is lost any more
        self._was_up = False

    @property
    def unavailable(self) -> str | None:
        """Why this process cannot serve rooms now (None: it can)."""
        return self.down if self.down is not None else self.refused

    def failed(self, failure: Failure) -> Lose | Say | None:
        """A command failed. Redis refusing one (an error reply) means it refuses writes
        (out of memory, a read-only replica…) until one is taken again, or, if the refusal
        says another version serves it, that this process must go down; not reaching Redis
        at all means every member here must go."""
        self.stats.errors += 1
        if isinstance(failure, Unreachable):
            return self.lose(self.unreachable(failure.error))
        if failure.said.startswith(VERSION_ERROR):
            other = failure.said.removeprefix(VERSION_ERROR).strip()
            return self.lose(f"Redis serves the relay version {other!r}, not {NAME}")
        if self.refused is None:
            self.refused = self.refusing(failure.said)
            return Say("backplane_refused", {"reason": self.refused})
        return None

    def lose(self, reason: str) -> Lose | None:
        """Redis cannot serve this process (said once: until it is reached again)."""
        if self.down is None and not self.closing:
            self.down = reason
            return Lose(reason)
        return None

    def not_reached(self, failure: Failure | Conflict) -> Say | None:
        """Reaching Redis again failed: /healthz says why now (from the first try on, not
        only once Redis had been reached), and the log says it when the reason changes."""
        if isinstance(failure, Conflict):
            return self._still_down(failure.said, "backplane_refused")
        self.stats.errors += 1
        if isinstance(failure, Refusal):
            return self._still_down(self.refusing(failure.said), "backplane_refused")
        return self._still_down(self.unreachable(failure.error), "backplane_down")

    def up(self, process: str) -> Say:
        """Redis is reached (again): the process serves."""
        if self._was_up:
            self.stats.reconnects += 1
        self.down, self._was_up = None, True
        return Say("backplane_up", {"redis": self.redis, "process": process})

    def writable(self) -> Say:
        """Redis, which refused a write, took one again."""
        self.refused = None
        return Say("backplane_writable", {"redis": self.redis})

    def round_trip(self, seconds: float) -> None:
        self.stats.round_trips += 1
        self.stats.round_trip_seconds += seconds

    def beat(self, now: float, busy: bool, heard: float) -> Lose | Literal["ping"] | None:
        """A look at the link at ``now``, which last heard from Redis at ``heard`` and has
        answers due if ``busy``: a Redis that stopped answering (answers due, none for
        :data:`TIMEOUT`) is lost; a quiet link is pinged, so that a silent Redis is noticed
        as soon."""
        if busy and now - heard > TIMEOUT:
            lost = self.failed(Unreachable(TimeoutError(f"Redis did not answer in {TIMEOUT:g} s")))
            return lost if isinstance(lost, Lose) else None
        if not busy and now - heard > TIMEOUT / 2:
            return PING
        return None

    def unreachable(self, error: BaseException) -> str:
        # The exception's words say which: refused, timed out, a certificate not trusted…
        text = str(error)[:SAID_AT_MOST]
        detail = f"{type(error).__name__}: {text}" if text else type(error).__name__
        return f"Redis at {self.redis} cannot be reached ({detail})"

    def refusing(self, said: str) -> str:
        return f"Redis at {self.redis} refuses the relay's writes ({said[:SAID_AT_MOST]})"

    def _still_down(self, reason: str, event: str) -> Say | None:
        if self.down != reason:
            self.down = reason
            return Say(event, {"reason": reason})
        return None


def safe_url(url: str) -> str:
    """The URL to show in logs and /healthz: never its password (nor its query, which may
    hold one, and the paths of TLS keys).

    >>> safe_url("rediss://relay:hunter2@redis.example:6380/1?ssl_keyfile=/k.pem")
    'rediss://relay:***@redis.example:6380/1'
    """
    parts = urlsplit(url)._replace(query="", fragment="")
    if parts.password is None:
        return urlunsplit(parts)
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = f"{parts.username}:***@" if parts.username else ":***@"
    return urlunsplit(parts._replace(netloc=user + netloc))


def unreadable(what: str, error: Exception) -> OSError:
    """Redis said something this relay cannot read: taken as a lost link (never a crash)."""
    return OSError(f"Redis {what} that cannot be read ({error})")
