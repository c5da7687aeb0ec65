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
from client.i18n import _
from client.lifecycle import closing

if TYPE_CHECKING:
    from client.game.link_status import LinkStatus


def _clock(seconds: float) -> str:
    seconds = max(0, int(seconds + 0.999))
    return f"{seconds // 60}:{seconds % 60:02d}"


def describe_link(status: LinkStatus) -> Text:
    """The relay connection in a few words, coloured by how well it goes."""
    if status.state == "connected":
        line = Text(_("● connected"), style="bold green")
        if status.detail:
            line.append(f" ({status.detail})", style="yellow")
        return line
    if status.state == "reconnecting":
        if status.retry_at is None:
            trying = _("◌ reconnecting (attempt {attempt})").format(attempt=status.attempt)
        else:
            trying = _("◌ reconnecting (attempt {attempt}, next try in {delay})").format(
                attempt=status.attempt, delay=_clock(status.retry_at - time.monotonic())
            )
        line = Text(trying, style="bold yellow")
        if status.detail:
            line.append(f": {status.detail}", style="yellow")
        return line
    if status.state == "failed":
        if status.joined:  # in the room, then out for good
            return Text(_("✖ left the room: {reason}").format(reason=status.detail),
                        style="bold red")  # fmt: skip
        return Text(_("✖ cannot join: {reason}").format(reason=status.detail), style="bold red")
    if status.state == "closed":
        return Text(_("○ left the room"), style="dim")
    return Text(_("◌ connecting…"), style="yellow")


def describe_peers(peers: Sequence[PeerLine]) -> Text:
    """Each other player: here, away (with the seat's grace left), gone."""
    line = Text()
    for peer in peers:
        line.append("  ")
        if peer.state in ("here", "unknown"):
            line.append(f"{peer.name} ✓", style="green" if peer.state == "here" else "dim")
        elif peer.state == "gone":
            line.append(_("{name}: seat given up").format(name=peer.name), style="bold red")
        else:
            held = _clock(peer.grace_left_ms / 1000)
            away = _("{name} away, seat held {time}").format(name=peer.name, time=held)
            line.append(away, style="bold yellow")
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
        fatal = [offence for offence in link.offences if offence.fatal]
        if fatal and link.status.state == "failed":  # left on it: the stop says why
            line = Text(_("✖ left the room"), style="bold red")
        else:
            line = describe_link(link.status)
        if not fatal and link.catching_up:  # nothing to wait for on a board not yet current…
            line.append("  " + _("catching up…"), style="bold yellow")
            claimable = link.claimable(now_ms)  # …but a claim is judged on signed times
            if claimable is not None:
                past = _("{name} is past the time limit: c claims the match")
                line.append("  " + past.format(name=self.names[claimable]), style="bold magenta")
            if link.watching:
                line.append("  " + _("watching"), style="italic")
            line.append_text(describe_peers(link.describe_peers()))
            return line
        # What may be claimed, or what stopped the match, before the peers: the line is cut
        # at the terminal's edge, and a long list of names must not push the time off it.
        if fatal:
            offence = fatal[-1]
            stopped = _("✖ match stopped: {who}: {reason}").format(who=offence.named,
                                                                  reason=offence.text)  # fmt: skip
            line.append("  " + stopped, style="bold red")
        else:
            claimable = link.claimable(now_ms)
            waiting = link.waiting_for(now_ms)
            if claimable is not None:
                past = _("{name} is past the time limit: c claims the match")
                line.append("  " + past.format(name=self.names[claimable]), style="bold magenta")
            elif waiting is not None:
                names, left_ms = waiting
                awaited = _("claim possible in {time} (waiting for {players})").format(
                    players=", ".join(names), time=_clock(left_ms / 1000)
                )
                line.append("  " + awaited, style="magenta")
        if link.watching:
            line.append("  " + _("watching"), style="italic")
        line.append_text(describe_peers(link.describe_peers()))
        return line
