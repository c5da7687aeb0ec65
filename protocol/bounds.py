"""Every bound the protocol puts on a value from outside, named in one place.

A proposal and its options, a message's seat, index and time, a name, a chat line: each is
parsed once where it comes in (:mod:`protocol.messages`, :mod:`protocol.setup`,
:mod:`protocol.names`) against the bound named here, and past that gate nothing checks it
again — so nothing built from these values may overflow anything it goes through. The
engine's own options are bounded by the engine (which cannot import this package); they are
named again here so that the threat model (docs/fair-dice.md) can cite one module.

Counts and options:

- :data:`MIN_SEATS`, :data:`MAX_SEATS`: a match has 2 to 15 seats (the Goose's range; Jacquet's
  2 is inside it).
- :data:`MAX_INDEX`: a message's index (a throw, a chat line, a position) is below 2**32.
- ``MAX_ANTE``, ``MAX_FEE`` (:mod:`engine.goose.options`), ``MAX_MATCH_TO``
  (:mod:`engine.jacquet.game`): the options (named there, not imported here, so that what
  reads a message does not load the engines).

Times (integer milliseconds since the Unix epoch):

- :data:`MAX_TIME`: 9999-01-01T00:00:00Z.
- :data:`CLOCK_TOLERANCE_MS`, :data:`MIN_TIME_LIMIT_MS`, :data:`MAX_TIME_LIMIT_MS`
  (:mod:`protocol.clock`): how far clocks may disagree, how long a turn may take. A start
  time is taken only within :data:`CLOCK_TOLERANCE_MS` ahead of its receiver's clock
  (:func:`protocol.setup.check_start`), like every message's time (:mod:`protocol.gate`).

Text:

- :data:`MAX_NAME_CHARS`, :data:`MAX_NAME_CELLS`, :data:`MAX_MARKS_PER_BASE`: a player's
  name (the whole rule is :func:`protocol.names.check_name`).
- :data:`MAX_CHAT_CHARS`, :data:`MAX_CHAT_CELLS`: a chat line (its marks as a name's:
  :func:`protocol.names.chat_problem`). :data:`MAX_PLAY_CHARS`: a Jacquet play's notation.

Records that must wait (:class:`protocol.referee.Referee`): a record that comes before one it
follows waits, but only so far ahead and only so many per seat, so that no seat's records can
take the room another seat's need:

- :data:`CHAT_AHEAD`: a chat line numbered further past its seat's next is refused, not held.
- :data:`HELD_PER_SEAT`: what one seat may have waiting, beyond its share of the current
  throw (which is never refused for lack of room: it is the record next in share order).

Why nothing overflows. The engine's state hash writes every integer in 8 signed bytes
(:mod:`engine.canonical`) and msgpack carries 64-bit integers, so every sum built from the
bounded values must stay below 2**63. In the Goose, a throw makes its thrower pay at most one
hazard's fee and each player he meets one fee (Daumont): at most :data:`MAX_SEATS` fees. A
throw needs a share whose index is at most :data:`MAX_INDEX`, so a match has at most
``MAX_INDEX + 1`` throws, and the pot — the largest sum, every seat's payments and payouts
are parts of it — is at most:

>>> from engine.goose.options import MAX_ANTE, MAX_FEE
>>> from engine.jacquet.game import MAX_MATCH_TO
>>> goose_pot = MAX_SEATS * MAX_ANTE + (MAX_INDEX + 1) * MAX_SEATS * MAX_FEE
>>> goose_pot, goose_pot < 2**63
(64424509455000, True)

The Goose's turn counter grows by one for each throw and each missed turn, and at most every
other seat misses a turn between two throws (a seat that misses its turn again and again is
held, and when every seat is held the game is over):

>>> turns = (MAX_INDEX + 1) * MAX_SEATS
>>> turns < 2**63
True

In Jacquet a game scores at most 4 points (a blocked postillon, RULES 2.7) and the match ends
once a side reaches ``match_to``; each game gives a point to one side, so a match has at most
``2 * match_to - 1`` games:

>>> jacquet_score = MAX_MATCH_TO - 1 + 4
>>> jacquet_score, 2 * MAX_MATCH_TO - 1
(102, 197)

A deadline is a time plus the time limit (docs/fair-dice.md): the latest one, even with the
tolerance added, is still a date — Python's ``datetime`` ends with the year 9999, and a log's
file name is written from the start time — and far below 2**63:

>>> from datetime import UTC, datetime
>>> latest = MAX_TIME + MAX_TIME_LIMIT_MS + CLOCK_TOLERANCE_MS
>>> datetime.fromtimestamp(latest // 1000, tz=UTC).year, latest < 2**63
(9999, True)

An index, a chat line and a name are bounded well under msgpack's and the codec's own limits
(:mod:`protocol.codec`: strings of at most 2,048 bytes; a name of 32 characters is at most 128
bytes of UTF-8, a chat line of 500 at most 2,000).
"""

from __future__ import annotations

from typing import Final

from protocol.clock import CLOCK_TOLERANCE_MS, MAX_TIME_LIMIT_MS, MIN_TIME_LIMIT_MS

MIN_SEATS: Final = 2
MAX_SEATS: Final = 15
"""The most seats of any game (the Goose's, :data:`engine.goose.options.MAX_PLAYERS`): a
proposal's, a message's seat."""

MAX_INDEX: Final = 2**32 - 1
"""The largest index a message may carry (a throw's number, a seat's chat counter, a
position). A match that reached it would have taken 2**32 records: at the relay's default of
20 messages a second, almost seven years without a pause. Bounded so that the Goose's pot
cannot outgrow 64 bits (see above)."""

MAX_TIME: Final = 253_370_764_800_000
"""The latest time a message, a proposal or a log may carry: 9999-01-01T00:00:00Z, so that a
time plus any time limit is still a date (a log's name is written from its start time)."""

MAX_NAME_CHARS: Final = 32
"""A name's length in characters (code points), as typed."""

MAX_NAME_CELLS: Final = 32
"""A name's width on a terminal, counted on its compatibility form (NFKC): a wide (East Asian)
character takes two cells, a combining mark none. A ligature such as U+FDFD, one character
written eighteen wide, is counted as the eighteen it stands for."""

MAX_MARKS_PER_BASE: Final = 3
"""Combining marks stacked on one character (counted decomposed, NFD). Vietnamese needs two
(ệ is e, a dot below and a circumflex), Thai two (a vowel and a tone), Tibetan stacks three;
more is only there to spill over the lines around it."""

MAX_CHAT_CHARS: Final = 500
"""A chat line's length in characters."""

MAX_CHAT_CELLS: Final = 2 * MAX_CHAT_CHARS
"""A chat line's width on a terminal, counted as a name's is (:data:`MAX_NAME_CELLS`): every
character of a line may be wide, none wider — a U+FDFD counts as drawn
(:data:`protocol.names.DRAWN_WIDE`).
Its marks are held to :data:`MAX_MARKS_PER_BASE` as a name's are (the rule, for both, is
:func:`protocol.names.spill`)."""

MAX_PLAY_CHARS: Final = 64
"""A Jacquet play's notation (four moves and their separators are about twenty)."""

CHAT_AHEAD: Final = 4
"""How far past its seat's next number a chat line may be numbered and still wait for the
lines before it. The relay delivers one seat's lines in their order, so an honest line comes
early only after a gap (a reconnection the relay could not replay, filled by a transcript);
one further ahead is refused, and the receiver asks for what it lacks again."""

HELD_PER_SEAT: Final = 3 + CHAT_AHEAD
"""How many of one seat's records may wait for others, beyond its share of the current throw:
its share of the next throw, a play whose dice are not all revealed here yet, and
:data:`CHAT_AHEAD` chat lines — all an honest seat can have waiting, with one to spare. The
whole buffer is at most ``MAX_SEATS * (HELD_PER_SEAT + 1)`` records."""

__all__ = [
    "CHAT_AHEAD",
    "CLOCK_TOLERANCE_MS",
    "HELD_PER_SEAT",
    "MAX_CHAT_CELLS",
    "MAX_CHAT_CHARS",
    "MAX_INDEX",
    "MAX_MARKS_PER_BASE",
    "MAX_NAME_CELLS",
    "MAX_NAME_CHARS",
    "MAX_PLAY_CHARS",
    "MAX_SEATS",
    "MAX_TIME",
    "MAX_TIME_LIMIT_MS",
    "MIN_SEATS",
    "MIN_TIME_LIMIT_MS",
]
