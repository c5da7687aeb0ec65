"""The connection line every networked screen shows: the relay, each peer, any offence.

It redraws itself twice a second from the game (so countdowns move without anyone having to
tell it), and says in words what is going on: connected; reconnecting (attempt n, next try
in s); a peer away, with how long the relay still holds their seat; a peer awaited past the
time limit, whose abandonment this seat may now claim (``c``); an offence that stopped the
match, naming who.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from client.lifecycle import closing

if TYPE_CHECKING:
    from client.net.game import NetworkGame
    from client.net.link import LinkStatus
    from client.net.match import NetMatch

SEAT_GRACE_S = 300  # the relay's default hold on a disconnected player's seat


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


def describe_peers(match: NetMatch, now_ms: int) -> Text:
    """Each other player: here, away (with the seat's grace left), gone."""
    line = Text()
    names = match.names
    for seat, name in enumerate(names):
        if seat == match.seat:
            continue
        member = match.member_for_seat(seat)
        line.append("  ")
        if member is None or member.connected:
            line.append(f"{name} ✓", style="green" if member else "dim")
        elif member.expired:
            line.append(f"{name}: seat given up", style="bold red")
        else:
            left = SEAT_GRACE_S - (now_ms - member.since) / 1000
            line.append(f"{name} away, seat held {_clock(left)}", style="bold yellow")
    return line


class ConnectionBar(Static):
    """One line under the board: the link, the peers, what may be claimed, what went wrong."""

    def __init__(self, game: NetworkGame, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self.game = game

    def on_mount(self) -> None:
        if closing(self):
            return
        self.refresh_status()
        self.set_interval(0.5, self.refresh_status)

    def refresh_status(self) -> None:
        self.update(self.describe(int(time.time() * 1000)))

    def describe(self, now_ms: int) -> Text:
        game, match = self.game, self.game.match
        line = describe_link(game.status)
        line.append_text(describe_peers(match, now_ms))
        if game.watching:
            line.append("  watching", style="italic")
        fatal = [offence for offence in match.offences if offence.fatal]
        if fatal:
            offence = fatal[-1]
            line.append(f"  ✖ match stopped: {offence.who}: {offence.text}", style="bold red")
            return line
        session = match.session
        if session is None or session.ended is not None or game.watching:
            return line
        awaited = [seat for seat in session.awaited_seats() if seat != match.seat]
        if not awaited:
            return line
        names = ", ".join(match.names[seat] for seat in awaited)
        claimable = game.claimable(now_ms)
        if claimable is not None:
            line.append(
                f"  {match.names[claimable]} is past the time limit: c claims the match",
                style="bold magenta",
            )
        elif any(not (m := match.member_for_seat(s)) or not m.connected for s in awaited):
            left = (session.deadline() - now_ms) / 1000
            line.append(f"  waiting for {names}: claim possible in {_clock(left)}", style="magenta")
        return line
