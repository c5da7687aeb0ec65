"""The four invariants every attack of this harness is held to, and their stated bounds.

1. **Named errors only.** Whatever a peer or the relay sends, nothing escapes a session but a
   :class:`~protocol.errors.RemoteProtocolError` (the protocol's named errors), and nothing
   at all escapes the client's :class:`~client.net.match.NetMatch` (a peer's fault becomes
   an offence on screen, never a dead task).
2. **Blame the real sender.** Every honest client either goes on, or stops with a fault that
   names the attacker (the seat that signed, or the relay seat that sent it): an error, an
   offence or a stop never names an honest seat (a record refused as out of place names
   nobody: the receiver may lack what it follows).
3. **A claim is always there.** Once the attacker stalls, a claim against him is available
   at the latest :data:`CLAIM_SLACK_MS` after the time limit past the last moment this
   honest client accepted a record (its own clock), and every honest peer accepts it.
4. **Paced work.** What an honest client queues to send because of the attacker's traffic
   stays within :data:`WORK_MULTIPLE` times what the attacker sent (frames and bytes), plus,
   at the room's level, one catch-up of the whole match and its setup per time limit
   begun (:data:`CATCH_UPS_ALLOWED`): the work an honest reconnection, or a join the host
   seats, legitimately asks for.

A broken invariant raises :class:`Broken`, whose message starts with the invariant's number,
so a shrunk Hypothesis example says which promise it broke.
"""

from __future__ import annotations

from typing import Final

from protocol.clock import CLOCK_TOLERANCE_MS

CLAIM_SLACK_MS: Final = CLOCK_TOLERANCE_MS
"""The tolerance of invariant 3: a peer may date his records this far ahead of our clock
(protocol.clock.CLOCK_TOLERANCE_MS), so his deadline may be this much later than ours."""

WORK_MULTIPLE: Final = 2
"""Invariant 4: frames (and bytes) an honest client queues per frame (per byte) the attacker
sent to it. A share from the attacker makes each honest seat reveal its own (one frame of
about the same size), and at most one ``seen`` besides."""

CATCH_UPS_ALLOWED: Final = 1
"""Invariant 4, at the room's level: whole-match transcripts (with the match's setup) an
attacker may obtain beyond the multiple, per time limit begun since the match was proposed
(a peer that really lost everything asks for one; the host sends the setup once, whoever
joined)."""


class Broken(AssertionError):
    """An invariant does not hold; the message names it (``I1``…``I4``) and says how."""


def broken(number: int, what: str) -> Broken:
    return Broken(f"I{number} broken: {what}")
