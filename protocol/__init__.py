"""How the players of a match agree on one game without trusting each other or the relay.

Sans-I/O at its core (bytes and the caller's clock in, events and bytes out); only
:mod:`protocol.logfile` and :mod:`protocol.identity` touch files. See docs/protocol-api.md.

- :mod:`protocol.session` — :class:`~protocol.session.MatchSession`, one seat's state machine,
  with :mod:`protocol.referee` (which records stand, in what order, and the log),
  :mod:`protocol.progress` (where the match stands, and the rules records must meet),
  :mod:`protocol.gate` (who may say what), :mod:`protocol.ordering` (a seat's records on
  their way through the relay) and :mod:`protocol.clock` (the time limit's rules);
- :mod:`protocol.local` — :class:`~protocol.local.LocalMatch`, every seat wired in memory;
- :mod:`protocol.setup` — proposal, signed joins, the agreed setup and its match id;
- :mod:`protocol.messages`, :mod:`protocol.codec` — signed messages, bounded msgpack;
- :mod:`protocol.identity`, :mod:`protocol.chain`, :mod:`protocol.dice` — Ed25519 keys,
  hash chains, the dice derivation (docs/fair-dice.md);
- :mod:`protocol.logfile`, :mod:`protocol.verify`, :mod:`protocol.export` — match logs
  (docs/log-format.md), replay and verification, JSON and text exports;
- :mod:`protocol.narrate` — plain-words sentences for engine events;
- :mod:`protocol.selfplay` — whole matches between computer seats;
- :mod:`protocol.errors`, :mod:`protocol.events` — what can go wrong, and what happened.
"""
