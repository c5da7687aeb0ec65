"""Token buckets: the relay's rate limits, with time passed in so they are testable."""

from __future__ import annotations


class TokenBucket:
    """Allows ``burst`` events at once, then ``rate`` per second on average."""

    __slots__ = ("_burst", "_rate", "_stamp", "_tokens")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self._rate = rate
        self._burst = burst
        self._tokens = burst
        self._stamp = now

    def take(self, now: float) -> bool:
        """Spend one token if there is one; False means over the limit."""
        # Called for every frame the relay receives: _refill's arithmetic, inlined.
        tokens = self._tokens + max(0.0, now - self._stamp) * self._rate
        if tokens > self._burst:
            tokens = self._burst
        self._stamp = now
        if tokens < 1.0:
            self._tokens = tokens
            return False
        self._tokens = tokens - 1.0
        return True

    def spend(self, now: float, amount: float) -> bool:
        """Spend ``amount`` tokens if there are as many; False means over the limit."""
        self._refill(now)
        if self._tokens < amount:
            return False
        self._tokens -= amount
        return True

    def charge(self, now: float, amount: float) -> None:
        """Spend ``amount`` tokens at once, into debt if need be: work whose cost is known
        only once it is done (a replay's frames) is paid for by the events that follow."""
        self._refill(now)
        self._tokens -= amount

    def ready(self, now: float) -> bool:
        """True if :meth:`take` would succeed, without spending anything."""
        self._refill(now)
        return self._tokens >= 1.0

    def full(self, now: float) -> bool:
        """True once the bucket has refilled completely: its owner has been quiet."""
        self._refill(now)
        return self._tokens >= self._burst

    def _refill(self, now: float) -> None:
        elapsed = max(0.0, now - self._stamp)
        self._tokens = min(self._burst, self._tokens + elapsed * self._rate)
        self._stamp = now


# How much of a websocket upgrade request (request line and headers together) the relay reads
# before it gives up on the connection. A real client's request is some 250 bytes
# (websockets': Host, Upgrade, Connection, Sec-WebSocket-Key/Version, User-Agent), and a proxy
# in front adds a few lines (X-Forwarded-For, X-Real-IP, Forwarded): 4 KiB is ten times that.
# websockets' own limits (128 headers of 8 KiB lines, ~1 MiB) let one half-open connection
# hold a megabyte; with this bound it holds about 10 KiB in all (docs/relay-protocol.md).
UPGRADE_REQUEST_BYTES = 4 * 1024

# What the relay holds of the frames that arrive behind the upgrade request, before the
# connection is open in the core (an honest client waits for the 101 and sends none): their
# bytes plus EARLY_FRAME_COST for each (a parsed frame's own weight), at most one full frame's
# worth (--max-frame). Past it, the frames are dropped and, once open, the connection is
# refused as rate_limited: it sent more than a burst allows before it could send anything.
EARLY_FRAME_COST = 64

# A join costs its address one of --joins-per-minute, and a join that replays the room's
# backlog (a resume, a spectator arriving) one more for every REPLAYED_FRAMES_PER_JOIN frames
# it replays: a replay of 1,000 frames measured 19 times a plain join's work, so one join's
# worth of tokens buys the relay at most some twice a plain join's work (1 + 64 x 19 / 1000).
REPLAYED_FRAMES_PER_JOIN = 64

# A room announces a spectator its backlog cannot serve (a ``watching`` event, after which a
# player sends him the match so far) at most once in WATCHING_EVERY seconds: spectators who
# arrive meanwhile are announced together when it has passed (each one then sees the match
# that follows). A spectator token reconnecting in a loop, from any number of addresses, so
# adds at most one event a room's backlog in this many seconds, never wipes it.
WATCHING_EVERY = 5.0

# How much of one socket read the relay hands websockets' parser at a time. websockets parses
# a whole read (up to 256 KiB) and writes a pong for every ping in it before the relay sees a
# frame: 40,000 tiny frames, some 0.4 s of work, before the rate limit could refuse any. Fed
# in slices, a read stops at the first slice after its connection is refused, and nothing it
# sends is parsed again (its refusal and close still go out; its close is not awaited past
# --shutdown-timeout): at most --burst frames and one slice's worth (READ_SLICE / 6 bytes, a
# client's smallest frame: 682) are parsed past the rate.
READ_SLICE = 4096

# How long a wss:// client has for its TLS handshake, counted among its address's connections
# and the half-open ones from TCP accept on (relay.connection.TLSGate): a real client's takes
# a round trip or two. Then --handshake-timeout runs again for its HTTP upgrade.
TLS_HANDSHAKE_SECONDS = 5.0
