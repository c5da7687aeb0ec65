"""What each address and each seat may still spend, sans-I/O: the relay's counts and rates.

:class:`relay.core.RelayCore` decides who may join, what is forwarded and what is refused;
this is the ledger it asks first: how many connections an address holds (upgraded or still
in their HTTP upgrade), how many rooms it created, its joins, its failed joins, its bytes,
and each seat's sends. Nothing here refuses anyone: each answer is a yes or a no, and the
core says the refusal. The time is passed in, as everywhere in the core.

>>> from relay.config import RelayConfig
>>> budgets = Budgets(RelayConfig(max_connections_per_ip=1))
>>> budgets.admit("203.0.113.7", per_address=True) is None
True
>>> budgets.admit("203.0.113.7", per_address=True)  # the one over: let in, to be told why
>>> budgets.admit("203.0.113.7", per_address=True)
'address'
"""

from __future__ import annotations

from collections import Counter

from relay.config import RelayConfig
from relay.limits import REPLAYED_FRAMES_PER_JOIN, TokenBucket


class Budgets:
    """The counts and token buckets of one relay process, by address and by seat."""

    def __init__(self, config: RelayConfig) -> None:
        self.config = config
        self._per_ip: Counter[str] = Counter()  # open websockets, by address
        self._upgrading_per_ip: Counter[str] = Counter()  # connections not upgraded yet
        self._upgrading = 0  # all of them, from every address
        self._rooms_per_ip: Counter[str] = Counter()  # live rooms, by the creator's address
        self._failures: dict[str, TokenBucket] = {}
        self._joins: dict[str, TokenBucket] = {}  # by address (--joins-per-minute)
        # By address (--max-bytes-per-ip): with a backplane, what one address's messages
        # make Redis publish to a relay process is bounded by it, so a stall of that process
        # fills Redis's output buffer for it (32 MB, then cut) only after a stated time.
        self._sending: dict[str, TokenBucket] = {}
        # Each seat's send bucket, (room id, seat index): a player's sends are paced by his
        # seat, not his connection, so that reclaiming the seat from a new connection (a
        # fresh, full bucket) does not reset them; each reclaim costs a token of it too.
        # Dropped once full (a full bucket is a fresh one): at most one per seat held here.
        self._seat_buckets: dict[tuple[str, int], TokenBucket] = {}

    # --- connections ------------------------------------------------------------------------

    def admit(self, ip: str, *, per_address: bool) -> str | None:
        """A TCP connection arrived from ``ip``: None lets it go on to its upgrade (counted
        until :meth:`upgraded_or_gone`), else which bound it met (``half_open``: all the
        upgrades under way; ``address``: its address's). See :meth:`RelayCore.admit
        <relay.core.RelayCore.admit>`."""
        config = self.config
        if self._upgrading >= config.max_half_open:
            return "half_open"
        if per_address:
            if self._upgrading_per_ip[ip] + self._per_ip[ip] > config.max_connections_per_ip:
                return "address"
            self._upgrading_per_ip[ip] += 1
        self._upgrading += 1
        return None

    def upgraded_or_gone(self, ip: str, *, per_address: bool) -> None:
        """An admitted connection finished its upgrade or closed before it."""
        self._upgrading -= 1
        if per_address:
            self._upgrading_per_ip[ip] -= 1
            if self._upgrading_per_ip[ip] <= 0:
                del self._upgrading_per_ip[ip]

    def opened(self, ip: str, now: float) -> TokenBucket | None:
        """A websocket from ``ip`` is open: counted; its address's byte bucket (None: no
        bound). :meth:`over` then says whether it is the one over the address's count."""
        sending = self._sending.get(ip)
        if sending is None and self.config.max_bytes_per_ip:
            most = self.config.max_bytes_per_ip
            sending = self._sending[ip] = TokenBucket(most, most, now)
        self._per_ip[ip] += 1
        return sending

    def over(self, ip: str) -> bool:
        """``ip`` holds more websockets than ``--max-connections-per-ip``."""
        return self._per_ip[ip] > self.config.max_connections_per_ip

    def closed(self, ip: str) -> None:
        self._per_ip[ip] -= 1
        if self._per_ip[ip] <= 0:
            del self._per_ip[ip]

    # --- rooms --------------------------------------------------------------------------------

    def may_create(self, ip: str) -> bool:
        """``ip`` holds fewer rooms than ``--max-rooms-per-ip`` (rooms held in memory)."""
        return self._rooms_per_ip[ip] < self.config.max_rooms_per_ip

    def created(self, ip: str) -> None:
        self._rooms_per_ip[ip] += 1

    def expired(self, creator: str) -> None:
        """A room ``creator`` made is gone."""
        self._rooms_per_ip[creator] -= 1
        if self._rooms_per_ip[creator] <= 0:
            del self._rooms_per_ip[creator]

    # --- joins --------------------------------------------------------------------------------

    def join(self, ip: str, now: float) -> bool:
        """Spend one of ``ip``'s joins (``--joins-per-minute``): False, none left."""
        return self._joins_of(ip, now).take(now)

    def charge_replay(self, ip: str, frames: int, now: float) -> None:
        """A replay costs its address's joins after the fact (relay.limits
        .REPLAYED_FRAMES_PER_JOIN): its next joins wait until the tokens are back."""
        if frames:
            self._joins_of(ip, now).charge(now, frames / REPLAYED_FRAMES_PER_JOIN)

    def _joins_of(self, ip: str, now: float) -> TokenBucket:
        rate = self.config.joins_per_minute
        return self._joins.setdefault(ip, TokenBucket(rate / 60.0, rate, now))

    def throttled(self, ip: str, now: float) -> bool:
        """``ip`` failed too many joins lately (``--join-failures-per-minute``)."""
        failures = self._failures.get(ip)
        return failures is not None and not failures.ready(now)

    def failed(self, ip: str, now: float) -> None:
        """Count a failed join, so guessing room ids or tokens stays hopeless."""
        rate = self.config.join_failures_per_minute
        self._failures.setdefault(ip, TokenBucket(rate / 60.0, rate, now)).take(now)

    # --- seats --------------------------------------------------------------------------------

    def may_reclaim(self, room_id: str, seat: int, now: float) -> bool:
        """The seat's send bucket holds a token for a reclaim (:meth:`sit` spends it)."""
        bucket = self._seat_buckets.get((room_id, seat))
        return bucket is None or bucket.ready(now)

    def sit(self, room_id: str, seat: int, bucket: TokenBucket, now: float) -> TokenBucket:
        """A player took seat ``seat`` with his connection's ``bucket``: the bucket his sends
        are paced by from now on, the seat's (``bucket`` if the seat has none yet); a seat
        reclaimed costs a token of it, so that a loop of reclaims and sends keeps to the
        seat's rate."""
        key = (room_id, seat)
        held = self._seat_buckets.get(key)
        if held is None:
            self._seat_buckets[key] = bucket
            return bucket
        if held is not bucket:
            held.take(now)  # the reclaim, counted (none left: his first send is refused)
        return held

    # --- time -----------------------------------------------------------------------------------

    def forget_quiet(self, now: float) -> None:
        """Let go of the buckets that refilled (a full bucket is a fresh one); an address's
        byte bucket stays while it has a connection."""
        for buckets in (self._failures, self._joins, self._sending):
            for ip, bucket in list(buckets.items()):
                if bucket.full(now) and (buckets is not self._sending or ip not in self._per_ip):
                    del buckets[ip]
        for key, seat_bucket in list(self._seat_buckets.items()):
            if seat_bucket.full(now):
                del self._seat_buckets[key]
