"""The relay: forwards each room's opaque payloads between its members, numbered in one order.

It knows only its own envelope, never a game (docs/relay-protocol.md). Modules:

- :mod:`relay.envelope` — the msgpack messages and their codec (clients import it too);
- :mod:`relay.core` — the sans-I/O rules: rooms, tokens, sequencing, limits, refusals; what
  it returns (:mod:`relay.outputs`), its ledger of counts and rates (:mod:`relay.budgets`),
  its side of the rooms a backplane holds (:mod:`relay.shared_core`);
- :mod:`relay.fault` — whose fault an error at Tablier's edges is;
- :mod:`relay.rooms`, :mod:`relay.limits` — a room's seats and backlog; token buckets;
- :mod:`relay.server` — :class:`~relay.server.RelayServer`, the asyncio websockets shell,
  embeddable (``async with RelayServer(RelayConfig(port=0)) as relay``);
- :mod:`relay.stream` — a member's view of the stream, its own messages put in their places
  (sans-I/O);
- :mod:`relay.client` — a small asyncio client: create a room, join, send, receive, resume;
- :mod:`relay.config`, :mod:`relay.cli` — settings (flags and ``TABLIER_RELAY_*``) and
  ``tablier relay`` / ``python -m relay``; :mod:`relay.metrics`, :mod:`relay.logs`.

Importing this package loads nothing else, so ``tablier --help`` stays fast.
"""
