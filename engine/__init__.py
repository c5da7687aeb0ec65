"""Tablier's rules engines: pure, deterministic, and free of I/O.

- :mod:`engine.goose` — Jeu de l'oie (2 to 15 players, the ``daumont`` and ``1792`` rule sets);
- :mod:`engine.jacquet` — Jacquet (two players, a match to N points);
- :mod:`engine.awaiting` — what a state waits for next (a throw, a play, a missed turn);
- :mod:`engine.canonical` — canonical bytes and SHA-256 state hashes;
- :mod:`engine.errors` — the engine's errors, all subclasses of :class:`ValueError`.

Dice are inputs, states are immutable, and every transition returns the new state with the
typed events that say what happened, in order.
"""
