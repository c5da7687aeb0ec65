"""The connection line every networked screen shows: the relay, each peer, any offence.

It redraws itself twice a second from the game (so countdowns move without anyone having to
tell it), and says in words what is going on: connected; reconnecting (attempt n, next try
in s); a peer away, with how long the relay still holds their seat; a peer awaited past the
time limit, whose abandonment this seat may now claim (``c``); an offence that stopped the
match, naming who.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from client.game.driver import MatchLink, PeerLine
from client.lifecycle import closing

if TYPE_CHECKING:
    from client.net.link import LinkStatus


def _clock(seconds: float) -> str:
    seconds = max(0, int(seconds + 0.999))
    return f"{seconds // 60}:{seconds % 60:02d}"


def describe_link(status: LinkStatus) -> Text:
    """The relay connection in a few words, coloured by how well it goes."""
    if status.state == "connected":
        line = Text("● connected", style="bold green")
        if status.detail:
            line.append(f" ({status.detail})", style="yellow")
        return line
    if status.state == "reconnecting":
        line = Text(f"◌ reconnecting (attempt {status.attempt}", style="bold yellow")
        if status.retry_at is not None:
            line.append(f", next try in {_clock(status.retry_at - time.monotonic())}")
        line.append(")")
        if status.detail:
            line.append(f": {status.detail}", style="yellow")
        return line
    if status.state == "failed":
        return Text(f"✖ cannot join: {status.detail}", style="bold red")
    if status.state == "closed":
        return Text("○ left the room", style="dim")
    return Text("◌ connecting…", style="yellow")


def describe_peers(peers: Sequence[PeerLine]) -> Text:
    """Each other player: here, away (with the seat's grace left), gone."""
    line = Text()
    for peer in peers:
        line.append("  ")
        if peer.state in ("here", "unknown"):
            line.append(f"{peer.name} ✓", style="green" if peer.state == "here" else "dim")
        elif peer.state == "gone":
            line.append(f"{peer.name}: seat given up", style="bold red")
        else:
            held = _clock(peer.grace_left_ms / 1000)
            line.append(f"{peer.name} away, seat held {held}", style="bold yellow")
    return line


class ConnectionBar(Static):
    """One line under the board: the link, the peers, what may be claimed, what went wrong.
    It redraws itself every half second (its countdowns move) and when the screen says."""

    def __init__(
        self,
        link: MatchLink,
        names: Sequence[str],
        clock: Callable[[], int],
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id, markup=False)
        self.link = link
        self.names = names
        self.clock = clock

    def on_mount(self) -> None:
        if closing(self):
            return
        self.refresh_status()
        self.set_interval(0.5, self.refresh_status)

    def refresh_status(self) -> None:
        self.update(self.describe(self.clock()))

    def describe(self, now_ms: int) -> Text:
        link = self.link
        line = describe_link(link.status)
        line.append_text(describe_peers(link.describe_peers()))
        if link.watching:
            line.append("  watching", style="italic")
        fatal = [offence for offence in link.offences if offence.fatal]
        if fatal:
            offence = fatal[-1]
            line.append(f"  ✖ match stopped: {offence.who}: {offence.text}", style="bold red")
            return line
        claimable = link.claimable(now_ms)
        waiting = link.waiting_for(now_ms)
        if claimable is not None:
            past = f"  {self.names[claimable]} is past the time limit: c claims the match"
            line.append(past, style="bold magenta")
        elif waiting is not None:
            names, left_ms = waiting
            line.append(
                f"  waiting for {', '.join(names)}: claim possible in {_clock(left_ms / 1000)}",
                style="magenta",
            )
        return line
