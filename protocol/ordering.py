"""A seat's own records between being sent and their place in the relay's order.

Networked, the relay puts every message of a room in one order and delivers it to every
member, the sender included (its own messages in their numbered places). Every member's log
and result must follow that order, but a seat's own shares and plays change its game at once
(nothing can come between them and what they follow but a resignation or a claim), so
:class:`InFlight` keeps what that takes:

- which records this seat sent that have not come back (they are logged when they do, and
  the game records accepted after them wait behind them: the log is the relay's order);
- its resignations and claims, which take effect only when they come back;
- for each of its shares, plays and ``seen`` messages in effect but not back, the match's
  :class:`~protocol.progress.Progress` before it: a resignation or claim placed before them
  ends the match there, and they never happened.

Local seats (``echoed=False``) are delivered at once: nothing is ever in flight.
"""

from __future__ import annotations

from collections.abc import Callable

from protocol.progress import Progress


class InFlight:
    """One seat's records on their way (see the module's docstring); *write* logs one."""

    def __init__(self, write: Callable[[bytes], None]) -> None:
        self._write = write
        self.own: set[bytes] = set()  # every message this seat signed
        self._unechoed: dict[bytes, bool] = {}  # sent, not back yet -> is a chat line
        self.deferred: set[bytes] = set()  # resignation, claim: in effect once back
        self._speculative: list[tuple[bytes, Progress]] = []  # in effect, not back: before it
        self._held: list[bytes] = []  # game records accepted, not logged yet (canonical order)

    def sent(self, raw: bytes, *, chat: bool, deferred: bool) -> None:
        """This seat sent *raw*; *deferred*: it takes effect when it comes back."""
        self._unechoed[raw] = chat
        if deferred:
            self.deferred.add(raw)

    def on_its_way(self, raw: bytes) -> bool:
        """Whether *raw* is this seat's and has not come back yet."""
        return raw in self._unechoed

    def took_effect(self, raw: bytes, before: Progress) -> None:
        """A record of this seat changed the match (which stood at *before*)."""
        self._speculative.append((raw, before))

    def before_own(self) -> Progress | None:
        """Where the match stood before this seat's records in effect but not back."""
        return self._speculative[0][1] if self._speculative else None

    def undo(self) -> None:
        """A record placed before this seat's ones in effect ended the match: they (and the
        game records accepted behind them) never happened, and are never logged."""
        self._held.clear()
        for raw, _ in self._speculative:
            self._unechoed.pop(raw, None)
        self._speculative.clear()

    def record(self, raw: bytes, *, chat: bool = False) -> None:
        """Log an accepted record, or hold it until it and what comes before it came back."""
        if raw in self._unechoed:
            if not chat:
                self._held.append(raw)
        elif self._held and not chat:
            self._held.append(raw)
        else:
            self._write(raw)

    def came_back(self, raw: bytes) -> bool:
        """This seat's *raw* came back through the relay: its place is here. True when it is
        one that takes effect now (a resignation or a claim)."""
        if raw not in self._unechoed:
            return False
        if self._unechoed.pop(raw):
            self._write(raw)
        if self._speculative and self._speculative[0][0] == raw:
            self._speculative.pop(0)  # placed: nothing can undo it now
        while self._held and self._held[0] not in self._unechoed:
            self._write(self._held.pop(0))
        if raw in self.deferred:
            self.deferred.discard(raw)
            return True
        return False

    def unlogged(self) -> int:
        """How many accepted records wait for an echo to be logged."""
        return len(self._held) + sum(self._unechoed.values())

    def flush(self) -> None:
        """Log whatever still waits for an echo (the match is being left: lose nothing);
        what was to take effect when back never did."""
        held, self._held = self._held, []
        chats = [raw for raw, chat in self._unechoed.items() if chat]
        self._unechoed.clear()
        self._speculative.clear()
        self.deferred.clear()
        for raw in [*held, *chats]:
            self._write(raw)
