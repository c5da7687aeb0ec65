"""Whose fault an error at Tablier's edges is: the one word that tells who must act.

The protocol says it by class, as h11 does (:class:`protocol.errors.LocalProtocolError`:
this program asked for the impossible; :class:`~protocol.errors.RemoteProtocolError`: a peer
sent what the rules forbid). The errors met where Tablier touches the world — the relay's
refusals (:class:`relay.client.RelayError`), a link given up
(:class:`client.net.link.LinkFailed`), a peer's meeting message refused
(:class:`client.net.meeting.Refused`), a certificate, a Redis, a log file that cannot be used —
may be any one's, so each carries a ``fault``: one of these. It lives here, the lowest
package both the relay and the client may import (tests/test_layering.py).

>>> Fault.INPUT.value, Fault("relay") is Fault.RELAY
('input', True)
"""

from __future__ import annotations

from enum import StrEnum


class Fault(StrEnum):
    """Who is at fault, so who must act (the error's text says what happened)."""

    OURS = "ours"
    """This program: it asked for what it may not, or failed by itself (a bug to report;
    what :class:`~protocol.errors.LocalProtocolError` says)."""

    PEER = "peer"
    """Another player's program sent what this one refuses (what
    :class:`~protocol.errors.RemoteProtocolError` says)."""

    RELAY = "relay"
    """The relay, or what it stands on (its Redis, its deployment): it misbehaved, or cannot
    serve; its operator may act."""

    INPUT = "input"
    """What the person gave — an invite, a name, a file, a setting — cannot be used as it
    is: changing it is the cure (a mistyped invite, a full room, a damaged log)."""
