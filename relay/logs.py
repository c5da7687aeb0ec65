r"""One log line per connection event or refusal, as plain text or as a JSON object.

Values can come from the network (a room id a client asked for, an address from
``X-Forwarded-For``), so nothing reaches the line as it came. In plain text (``key=value``
pairs, as logfmt has them) every character that is not printable ASCII is written as a
backslash escape, so a value can neither end the line nor reach the operator's terminal, and
a value holding a space, a quote or ``=`` is quoted, so it cannot make up fields of its own;
JSON escapes control and non-ASCII characters itself::

    >>> render(Log(7, "refused", {"code": "unknown_room", "room": "a\nb\x1b[2J"}), False)
    'refused conn=7 code=unknown_room room=a\\nb\\x1b[2J'
    >>> render(Log(None, "refused", {"room": 'x ip="1.2.3.4"'}), False)
    'refused room="x ip=\\"1.2.3.4\\""'
"""

from __future__ import annotations

import ipaddress
import json
import logging
import time
from collections import Counter

from relay.outputs import Log

logger = logging.getLogger("tablier.relay")

# How much of the log one address can fill: at most LINES_PER_ADDRESS lines naming it (its
# connections opened and closed, its refusals) in each WINDOW seconds, then one line saying
# how many more there were, by code. An address's lines can grow the log by at most
# LINES_PER_ADDRESS + 1 lines a minute, however fast it connects or is refused.
WINDOW = 60.0
LINES_PER_ADDRESS = 30
# Addresses followed at once in a window; lines from any further one share one budget (so a
# crowd of addresses cannot make the pacer itself grow without bound either). An IPv6 address
# is followed by its /64 (IPV6_PREFIX), the block one machine or one customer is given: a
# host holding a /64 has 2^64 addresses, and would otherwise fill the table alone.
ADDRESSES = 10_000
IPV6_PREFIX = 64
OTHERS = "other addresses"
# The shared budget's summary (one line a window) names the first OTHERS_NAMED addresses
# that shared it, beside the count of every code held back: past the table, honest refusals
# are still counted and the first addresses named, in a line of bounded length.
OTHERS_NAMED = 16

_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"'}
_QUOTED_IF = frozenset(' "=')


def escaped(text: str) -> str:
    """``text`` as one plain-text value: printable ASCII, quoted if it holds a separator."""
    if text.isprintable() and text.isascii() and not any(c in _ESCAPES for c in text):
        plain = text  # the common case: an id, a code, an address
    else:
        plain = "".join(_escape(c) for c in text)
    return f'"{plain}"' if _QUOTED_IF.intersection(text) or not text else plain


def _escape(char: str) -> str:
    if char in _ESCAPES:
        return _ESCAPES[char]
    if char.isprintable() and char.isascii():
        return char
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def render(entry: Log, as_json: bool) -> str:
    if as_json:
        record: dict[str, object] = {"ts": round(time.time(), 3), "event": entry.event}
        if entry.conn is not None:
            record["conn"] = entry.conn
        record.update(entry.details)
        return json.dumps(record, separators=(",", ":"))  # ensure_ascii: no raw control bytes
    parts = [entry.event]
    if entry.conn is not None:
        parts.append(f"conn={entry.conn}")
    parts += [f"{key}={_plain(value)}" for key, value in entry.details.items()]
    return " ".join(parts)


def _plain(value: str | int) -> str:
    return escaped(value) if isinstance(value, str) else str(value)


def configure(as_json: bool) -> None:
    """For the ``tablier relay`` command; an embedding app configures logging itself."""
    handler = logging.StreamHandler()
    handler.setFormatter(
        logging.Formatter("%(message)s" if as_json else "%(asctime)s relay %(message)s")
    )
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    # asyncio's warnings name no client and are not paced: "socket.send() raised exception."
    # once per frame written to a socket that already failed (hundreds for one replay), in
    # the middle of a JSON log. The relay no longer writes to a closing transport
    # (relay.server), and what asyncio has left to warn of (slow callbacks, a write to a dead
    # socket) says nothing an operator can act on: only its errors (a task that died) reach
    # the log, and as the relay's own lines.
    asyncio_logger = logging.getLogger("asyncio")
    asyncio_logger.setLevel(logging.ERROR)
    asyncio_logger.addHandler(handler)
    asyncio_logger.propagate = False


def paced_as(ip: str) -> str:
    """The name an address's lines are paced under: an IPv6 address's /64, any other as
    it is (an IPv4 address, a proxy's word that is no address at all).

    >>> paced_as("2001:db8:7:8:a:b:c:d"), paced_as("192.0.2.1"), paced_as("local")
    ('2001:db8:7:8::/64', '192.0.2.1', 'local')
    >>> paced_as("::ffff:192.0.2.1")  # an IPv4 client of a dual-stack socket is itself
    '::ffff:192.0.2.1'
    """
    if ":" not in ip:
        return ip
    try:
        address = ipaddress.IPv6Address(ip)
    except ValueError:
        return ip
    if address.ipv4_mapped is not None:
        return ip
    return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False))


class LogPacer:
    """Which lines reach the log: those that name no address, and up to
    :data:`LINES_PER_ADDRESS` naming one address (an IPv6 /64: :func:`paced_as`) in each
    :data:`WINDOW`; when the window ends, one ``suppressed`` line per address that had more,
    naming it and counting them by code (or event). Time is passed in, as to the core.

    >>> pacer = LogPacer(window=60.0, lines=2)
    >>> flood = [Log(n, "refused", {"code": "text_frame", "ip": "192.0.2.1"}) for n in range(5)]
    >>> [len(pacer.pace(entry, now=1.0)) for entry in flood]
    [1, 1, 0, 0, 0]
    >>> pacer.pace(Log(None, "room_expired", {"room": "Vm8DKOOO"}), now=2.0)[0].event
    'room_expired'
    >>> [render(entry, False) for entry in pacer.due(now=61.0)]
    ['suppressed ip=192.0.2.1 lines=3 codes=text_frame:3']
    """

    __slots__ = (
        "_addresses",
        "_lines",
        "_named",
        "_shown",
        "_started",
        "_suppressed",
        "_window",
    )

    def __init__(
        self, window: float = WINDOW, lines: int = LINES_PER_ADDRESS, addresses: int = ADDRESSES
    ) -> None:
        self._window = window
        self._lines = lines
        self._addresses = addresses
        self._started: float | None = None
        self._shown: Counter[str] = Counter()  # lines written this window, by address
        self._suppressed: dict[str, Counter[str]] = {}  # lines held back, by address and code
        self._named: list[str] = []  # the first OTHERS_NAMED addresses paced as OTHERS

    def pace(self, entry: Log, now: float) -> list[Log]:
        """What to write for ``entry``: the summaries of a window that ended, then the entry
        unless its address has had its lines for this window."""
        out = self.due(now)
        address = entry.details.get("ip")
        if not isinstance(address, str):
            return [*out, entry]
        ip = paced_as(address)
        if ip not in self._shown and len(self._shown) >= self._addresses:
            if len(self._named) < OTHERS_NAMED and ip not in self._named:
                self._named.append(ip)
            ip = OTHERS
        if self._shown[ip] < self._lines:
            self._shown[ip] += 1
            return [*out, entry]
        kind = entry.details.get("code", entry.event)
        self._suppressed.setdefault(ip, Counter())[str(kind)] += 1
        return out

    def due(self, now: float) -> list[Log]:
        """The summaries of the window, if it has ended (the shell asks every tick)."""
        if self._started is None:
            self._started = now
        if now - self._started < self._window:
            return []
        self._started = now
        return self.summaries()

    def summaries(self) -> list[Log]:
        """A ``suppressed`` line for each address that had lines held back, and a new window
        (the shell asks at shutdown too, so that no count is lost)."""
        out = []
        for ip, codes in self._suppressed.items():
            counts = ",".join(f"{code}:{count}" for code, count in sorted(codes.items()))
            details: dict[str, str | int] = {"ip": ip, "lines": codes.total(), "codes": counts}
            if ip == OTHERS:
                details["among"] = ",".join(self._named)
            out.append(Log(None, "suppressed", details))
        self._shown.clear()
        self._suppressed.clear()
        self._named.clear()
        return out
