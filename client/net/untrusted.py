"""What arrives from the network, checked before anything is built from it.

A relay can be anyone's server, and what it says is only what it says: the room id and
tokens of its ``created`` answer, the seat token and the roster of a ``welcome``, the names in
its presence events, the sentences of its refusals. None of it becomes a file name, a log
line or screen text until it has the shape Tablier itself gives such things — the shape an
invite checks (:mod:`client.net.invite`): ids and tokens are URL-safe base64, names are
names a player may take (:func:`protocol.names.check_name`) and no two members' read the
same, seats are numbered below 15. A relay that sends anything else is
named in a :class:`RelayMisbehaved` error, and the client stops talking to it.

>>> check_secret("ws://relay/", "room id", "R" * 22)
'RRRRRRRRRRRRRRRRRRRRRR'
>>> try:
...     check_secret("ws://relay/", "room id", "../../../victim")
... except RelayMisbehaved as error:
...     print(error)
the relay at ws://relay/ sent a malformed room id ('../../../victim'): it is not a Tablier \
relay, or it is hostile
>>> shown("Room full\\x1b[2J\\x07")
'Room full�[2J�'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from client.i18n import N_, _, printable
from protocol.bounds import MAX_SEATS  # the relay's hard cap on a room's seats too

SECRET: Final = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""Room ids and tokens: the relay makes them from 16 or 32 random bytes, URL-safe base64."""
MAX_SHOWN_CHARS: Final = 300  # a relay's sentence for people: a line or two, never a page


class RelayMisbehaved(ValueError):
    """The relay sent something no Tablier relay sends; the message names the relay."""


def is_secret(text: object) -> bool:
    """Whether *text* has the shape of a room id or a token."""
    return isinstance(text, str) and SECRET.fullmatch(text) is not None


def check_secret(url: str, what: str, text: str) -> str:
    """*text* when it has the shape of a room id or token, else :class:`RelayMisbehaved`."""
    if not is_secret(text):
        raise _misbehaved(url, what, text)
    return text


def check_name(url: str, text: str, others: Iterable[str] = ()) -> str:
    """A member's name as the relay passed it on: a name a player may take, and none that
    reads as one of the *others* (the room's other members): the relay refuses both.

    >>> check_name("ws://relay/", "Ada", ["Bob"])
    'Ada'
    >>> try:
    ...     check_name("ws://relay/", "ADA", ["Ada"])
    ... except RelayMisbehaved as error:
    ...     print(error)
    the relay at ws://relay/ let a second member in as 'ADA', a name another member has: \
it is not a Tablier relay, or it is hostile
    """
    from protocol.names import name_key, name_problem  # not before a room is opened

    if name_problem(text) is not None:
        raise _misbehaved(url, N_("member name"), text)
    key = name_key(text)
    if any(name_key(other) == key for other in others):
        raise RelayMisbehaved(
            _("the relay at {url} let a second member in as {name}, a name another member has: "
              "it is not a Tablier relay, or it is hostile").format(url=shown(url),
                                                                    name=repr(shown(text)))
        )  # fmt: skip
    return text


def check_seat(url: str, seat: int) -> int:
    """A relay seat number: 0 to 14."""
    if not 0 <= seat < MAX_SEATS:
        raise _misbehaved(url, N_("seat number"), str(seat))
    return seat


def check_limit(url: str, what: str, value: int) -> int:
    """A sending limit a welcome announces (messages a minute, a burst): at least 1."""
    if value < 1:
        raise _misbehaved(url, what, str(value))
    return value


def shown(text: str) -> str:
    """A sentence the relay wrote for people, safe to show: every character that is not
    printable (escape sequences, line breaks) replaced by U+FFFD, and cut to a few lines."""
    safe = printable(text)
    if len(safe) > MAX_SHOWN_CHARS:
        return safe[: MAX_SHOWN_CHARS - 1] + "…"
    return safe


def _misbehaved(url: str, what: str, text: str) -> RelayMisbehaved:
    """*what* is marked with ``N_`` by the caller: it is translated here."""
    quoted = shown(text[:40] + ("…" if len(text) > 40 else ""))
    return RelayMisbehaved(
        _("the relay at {url} sent a malformed {what} ({text}): it is not a Tablier relay, or "
          "it is hostile").format(url=shown(url), what=_(what), text=repr(quoted))
    )
