"""The rematch after a networked match, sans-I/O: who asked, the host's proposal, its end.

Once a match is over, each player may ask for another (:class:`~client.net.wire.Rematch`);
when every player of the match has, and none has left the room, the host proposes it and
the players join it as they joined the first. A proposal nobody completes is not waited on
for ever: the host withdraws it (:class:`~client.net.wire.RematchWithdrawn`), by hand or
:data:`REMATCH_TIMEOUT_MS` after proposing, and everyone is back between two matches —
free to chat, to ask again (a player who left and came back included), or to leave.

:class:`RematchVote` holds one ended match's asks and says where they stand in words.

>>> vote = RematchVote(("Ada", "Bob"))
>>> vote.ask(1)
>>> vote.note(my_seat=0, away=[], joined=None)
'Bob would like a rematch: press a to play again.'
>>> vote.ask(0)
>>> vote.all_asked, vote.note(my_seat=0, away=[], joined=None)
(True, 'Waiting for Ada to start the rematch…')
>>> vote.proposed(now=1_000)
>>> vote.expired(1_000 + REMATCH_TIMEOUT_MS), vote.expired(999 + REMATCH_TIMEOUT_MS)
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence

from client.i18n import _, ngettext

# The host joins his proposal first, and a rematch seats everyone as before: his seat is 0.
HOST_SEAT = 0
REMATCH_TIMEOUT_MS = 120_000
"""How long a proposed rematch waits for its players to join before the host withdraws it."""


class RematchVote:
    """The asks for a rematch of one ended match, and the host's proposal of it."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)
        self.askers: set[int] = set()  # match seats
        self.proposed_at: int | None = None  # ms: the host proposed it (None: not yet)
        self.withdrawn = False  # the host withdrew a proposal (asked again since: False)

    @property
    def all_asked(self) -> bool:
        return len(self.askers) == len(self.names)

    def ask(self, seat: int) -> None:
        if 0 <= seat < len(self.names):
            self.askers.add(seat)
            self.withdrawn = False

    def proposed(self, now: int) -> None:
        self.proposed_at = now

    def withdraw(self) -> None:
        """The proposal is off: everyone asks again for the next one."""
        self.askers.clear()
        self.proposed_at = None
        self.withdrawn = True

    def expired(self, now: int) -> bool:
        """The host's proposal has waited long enough for its players."""
        return self.proposed_at is not None and now - self.proposed_at >= REMATCH_TIMEOUT_MS

    def missing(self, away: Sequence[int]) -> str | None:
        """Why there can be no rematch now (*away*: match seats not in the room)."""
        if HOST_SEAT in away:
            host = self.names[HOST_SEAT]
            return _("{host}, the host, has left the room: there is no rematch without the host")\
                .format(host=host)
        if away:
            gone = ", ".join(self.names[seat] for seat in away)
            return ngettext(  # French: "Bob a quitté", "Bob, Cy ont quitté"
                "{players} left the room: a rematch needs every player of the match",
                "{players} left the room: a rematch needs every player of the match", len(away),
            ).format(players=gone)
        return None

    def note(
        self, *, my_seat: int | None, away: Sequence[int], joined: int | None, offered: bool = False
    ) -> str | None:
        """Where the rematch stands, for the end screen (None: nothing to say). *joined*: how
        many players joined the host's proposal (None: not proposed); *offered*: this player
        has not joined it (he did not ask for it): it waits for him to accept it."""
        names, host = self.names, self.names[HOST_SEAT]
        missing = self.missing(away)
        if missing is not None and joined is None:
            return f"{missing[0].upper()}{missing[1:]}."
        if joined is not None:
            text = ngettext(  # the count is of those who joined: "1 joueur sur 3 l'a rejointe"
                "{host} proposed the rematch: {joined} of {players} players joined…",
                "{host} proposed the rematch: {joined} of {players} players joined…", joined,
            ).format(host=host, joined=joined, players=len(names))
            if missing is not None:
                text += f" {missing[0].upper()}{missing[1:]}."
            if offered:
                text += " " + _("Press a to play it.")
            if my_seat == HOST_SEAT:
                text += " " + _("Press w to withdraw it.")
            return text
        if self.withdrawn:
            return _("{host} withdrew the rematch: press a to ask for one again.").format(host=host)
        others = [seat for seat in range(len(names)) if seat not in self.askers]
        if my_seat is not None and my_seat in self.askers:
            if not others:
                return _("Waiting for {host} to start the rematch…").format(host=host)
            return ngettext(  # French: "que Bob veuille", "que Bob, Cy veuillent"
                "Waiting for {players} to want a rematch too…",
                "Waiting for {players} to want a rematch too…", len(others),
            ).format(players=", ".join(names[seat] for seat in others))
        if self.askers:
            askers = ", ".join(names[seat] for seat in sorted(self.askers))
            return ngettext(
                "{players} would like a rematch: press a to play again.",
                "{players} would like a rematch: press a to play again.", len(self.askers),
            ).format(players=askers)
        return None
