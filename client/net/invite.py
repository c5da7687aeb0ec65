"""Invites: one copyable string holding the relay's address, the room and a token.

``tablier://127.0.0.1:8765/ROOM?player=TOKEN`` seats whoever holds it as a player;
``…?watch=TOKEN`` lets them watch. ``tabliers://`` is the same over TLS (``wss://``). A relay
served under a path (behind nginx, say) keeps it: ``tabliers://example.org/tablier/ROOM?…``.

>>> invite = Invite("ws://127.0.0.1:8765/", "R" * 22, "T" * 43, "player")
>>> text = invite.encode()
>>> text
'tablier://127.0.0.1:8765/RRRRRRRRRRRRRRRRRRRRRR?player=TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT'
>>> parse_invite(text) == invite
True
>>> try:
...     parse_invite("tablier://127.0.0.1:8765/" + "R" * 22 + "?seat=1")
... except InviteError as error:
...     print(error)
the invite has no token: it should end with ?player=… or ?watch=…
>>> try:  # a paste that lost its last characters: how long the whole invite is
...     parse_invite(text[:-5])
... except InviteError as error:
...     print(error)
this invite looks cut short: it should be 98 characters, not 93: copy the whole invite again
>>> try:
...     parse_invite("tablier://127.0.0.1:9/\x1b[2J/" + "R" * 22 + "?player=" + "T" * 43)
... except InviteError as error:
...     print(str(error)[:41])
the invite holds characters no invite has
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from typing import Final, Literal
from urllib.parse import parse_qs, quote, urlsplit

from client.i18n import _, format_number, ngettext
from client.net.untrusted import is_secret

Role = Literal["player", "watch"]

ROOM_ID_CHARS: Final = 22
"""A room id's length: 16 bytes of a digest, URL-safe base64 (relay/rooms.py's room_id_for)."""
TOKEN_CHARS: Final = 43
"""A token's length: 32 random bytes, URL-safe base64 (relay/rooms.py's new_token)."""
_SECRET_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")

_SCHEMES = {"tablier": "ws", "tabliers": "wss"}

MAX_URL_CHARS: Final = 2_048
"""A relay's address, as an invite, ``--relay`` and a seat file give it (all ASCII: one byte a
character): far more than any host name (at most 253 characters) and path."""
MAX_LABEL_CHARS: Final = 63
"""One label of a host name (between two dots), as DNS bounds it."""
MAX_HOST_CHARS: Final = 253
"""A whole host name, as DNS bounds it."""
_HOST_NAME: Final = re.compile(r"(?:[a-z0-9_-]{1,63}\.)*[a-z0-9_-]{1,63}\.?", re.IGNORECASE)
"""A host name in its ASCII form: letters, digits, hyphens (and the underscores some local
networks use), in labels of 1 to 63 characters."""
_PATH_SAFE: Final = "/%:@!$&'()*+,;=~"
"""What a relay's path keeps as it is; anything else (a space, an accent) is %-escaped."""


class RelayAddressError(ValueError):
    """A ``ws://``/``wss://`` address no relay can have; the message says why."""


def check_relay_url(url: str) -> str:
    """*url* as Tablier connects to it: a ``ws://`` or ``wss://`` address whose host is an IP
    address or a host name — in its ASCII form (IDNA), as the system's resolver takes it —
    and whose path is %-escaped ASCII, at most :data:`MAX_URL_CHARS` characters in all. The
    one gate for a relay's address (an invite, ``--relay``): what passes can be connected
    to, and saved in a seat file that reads back. :class:`RelayAddressError` otherwise.

    >>> check_relay_url("ws://Relay.Example.org:8765/tablier/")
    'ws://relay.example.org:8765/tablier/'
    >>> check_relay_url("wss://bücher.example/salle 1/")
    'wss://xn--bcher-kva.example/salle%201/'
    >>> check_relay_url("ws://[::1]:9/")
    'ws://[::1]:9/'
    >>> long_label, long_path = "ws://" + "a" * 64 + ".org/", "ws://h/" + "p" * 2100
    >>> for bad in ("ws://a..b:1/", long_label, "ws://%68/", long_path):
    ...     try:
    ...         check_relay_url(bad)
    ...     except RelayAddressError as error:
    ...         print(str(error)[:75])
    'a..b' is not a host name (a label between two dots is empty, or over 63 ch
    'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.org' is n
    '%68' is not a host name (a label between two dots is empty, or over 63 cha
    it is 2,107 characters long: a relay's address has at most 2,048
    """
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:  # a bracket left open, a port that is no number from 0 to 65535
        raise RelayAddressError(_("its host or its port is not valid")) from None
    if parts.scheme not in ("ws", "wss"):
        raise RelayAddressError(_("it does not start with ws:// or wss://"))
    host = _relay_host(parts.hostname or "")
    path = quote(parts.path, safe=_PATH_SAFE) or "/"
    checked = f"{parts.scheme}://{host}{'' if port is None else f':{port}'}{path}"
    if len(checked) > MAX_URL_CHARS:
        raise RelayAddressError(
            ngettext(
                "it is {length} character long: a relay's address has at most {most}",
                "it is {length} characters long: a relay's address has at most {most}",
                len(checked),
            ).format(length=format_number(len(checked)), most=format_number(MAX_URL_CHARS))
        )
    return checked


def _relay_host(host: str) -> str:
    """*host* (as :func:`urlsplit` gives it: lower case, an IPv6 address unbracketed) as a
    URL names it, or :class:`RelayAddressError`."""
    if not host:
        raise RelayAddressError(_("it names no host"))
    if ":" in host:
        try:
            # (No zone id: ``ipaddress`` takes anything after a ``%``, control characters
            # too, and a zone names an interface of one machine: no relay's address.)
            if "%" in host:
                raise ValueError(host)
            ipaddress.IPv6Address(host)
        except ValueError:
            raise RelayAddressError(
                _("{host} is not an IPv6 address").format(host=repr(host))
            ) from None
        return f"[{host}]"
    try:
        name = host.encode("idna").decode("ascii")  # as the resolver will: UnicodeError there
    except UnicodeError:
        name = ""
    if len(name) > MAX_HOST_CHARS or not _HOST_NAME.fullmatch(name):
        raise RelayAddressError(
            _("{host} is not a host name (a label between two dots is empty, or over "
              "{most} characters, or holds other than letters, digits and hyphens)").format(
                host=repr(host), most=MAX_LABEL_CHARS
            )
        )  # fmt: skip
    return name


class InviteError(ValueError):
    """The text is not an invite; the message says what is wrong with it."""


@dataclass(frozen=True, slots=True)
class Invite:
    """Where the relay is (``relay_url``, a ws:// or wss:// URL), which room, which token."""

    relay_url: str
    room_id: str
    token: str
    role: Role

    def encode(self) -> str:
        scheme, _sep, rest = self.relay_url.partition("://")
        ours = {value: key for key, value in _SCHEMES.items()}[scheme]
        base = rest if rest.endswith("/") else rest + "/"
        return f"{ours}://{base}{self.room_id}?{self.role}={self.token}"

    def with_role(self, role: Role, token: str) -> Invite:
        return Invite(self.relay_url, self.room_id, token, role)


_QUOTED = 40  # characters of a mistyped invite quoted back in the error


def _cut_short(text: str, room_id: str, query: str, expected: Role) -> InviteError | None:
    """Why *text* is refused when it is the start of a whole invite (a paste or a copy that
    lost its end: a terminal's line cut at its edge, a message split): how long the whole
    one is. None when it is not, or is whole. A room id and a token have fixed lengths; the
    role, when the cut took it, is the one the command asks for (*expected*).

    >>> start = "tablier://h:1/" + "R" * 22
    >>> [str(_cut_short(start + rest, "R" * 22, rest[1:], "player")).split(": ")[1]
    ...  for rest in ("", "?", "?pl", "?player=", "?player=TT")]  # doctest: +NORMALIZE_WHITESPACE
    ['it should be 87 characters, not 36', 'it should be 87 characters, not 37',
     'it should be 87 characters, not 39', 'it should be 87 characters, not 44',
     'it should be 87 characters, not 46']
    >>> str(_cut_short(start + "?w", "R" * 22, "w", "player")).split(": ")[1]
    'it should be 86 characters, not 38'
    >>> _cut_short(start + "?player=" + "T" * 43, "R" * 22, "player=" + "T" * 43, "player")
    """
    if not room_id or not set(room_id) <= _SECRET_CHARS or len(room_id) > ROOM_ID_CHARS:
        return None
    missing = ROOM_ID_CHARS - len(room_id)
    key, equals, token = query.partition("=")
    if equals:  # the token is there, or its start
        if missing or key not in ("player", "watch") or not set(token) <= _SECRET_CHARS:
            return None
        missing = TOKEN_CHARS - len(token)
        if missing <= 0:
            return None
    elif missing and (query or "?" in text):
        return None  # a short room with a role after it: mistyped, not cut
    else:
        roles = [role for role in ("player", "watch") if role.startswith(key)]
        if not roles:
            return None
        role = expected if expected in roles else roles[0]
        after = len("?" + role + "=") - len(("?" if "?" in text else "") + key)
        missing += after + TOKEN_CHARS
    return InviteError(
        _("this invite looks cut short: it should be {expected} characters, not {length}: "
          "copy the whole invite again").format(expected=len(text) + missing, length=len(text))
    )  # fmt: skip


def parse_invite(text: str, expected: Role = "player") -> Invite:
    """The invite in *text* (surrounding spaces and quotes ignored), or :class:`InviteError`.
    *expected* is the role the reader asks for (``tablier watch``: a spectator's), which
    says how long an invite cut before its role should have been."""
    text = text.strip().strip("'\"<>")
    if not text:
        raise InviteError(_("the invite is empty: paste the whole tablier://… line"))
    if not text.isprintable():  # escape sequences, line breaks: shown, they would act
        raise InviteError(_("the invite holds characters no invite has (control characters "
                            "or line breaks): copy the whole invite again, as one "
                            "line"))  # fmt: skip
    try:
        parts = urlsplit(text)
    except ValueError:  # Python's one reason here: an IPv6 address's bracket left open
        raise InviteError(_("the invite's address is not valid (an IPv6 address in [ ] is "
                            "cut short)")) from None  # fmt: skip
    try:
        port = parts.port
    except ValueError:
        raise InviteError(_("the invite's address is not valid (its port must be a number "
                            "from 0 to 65535)")) from None  # fmt: skip
    if parts.scheme not in _SCHEMES:
        # Quoted whole when short; a long paste is cut where an ellipsis says so.
        start = text if len(text) <= _QUOTED else f"{text[: _QUOTED - 1]}…"
        raise InviteError(
            _(
                "an invite starts with tablier:// (or tabliers:// for a TLS relay), not {start}"
            ).format(start=repr(start))
        )
    if not parts.hostname:
        raise InviteError(_("the invite has no relay address after tablier://"))
    path, _slash, room_id = parts.path.rpartition("/")
    cut = _cut_short(text, room_id, parts.query, expected)
    if cut is not None:
        raise cut
    if not is_secret(room_id):
        raise InviteError(_("the invite's room is missing or mistyped: copy the whole invite"))
    query = parse_qs(parts.query)
    roles = [role for role in ("player", "watch") if role in query]
    if not roles:
        raise InviteError(_("the invite has no token: it should end with ?player=… or ?watch=…"))
    if len(roles) > 1 or len(query[roles[0]]) > 1 or len(query) > 1:
        raise InviteError(_("the invite holds more than one token: copy just one invite"))
    token = query[roles[0]][0]
    if not is_secret(token):
        raise InviteError(_("the invite's token is mistyped: copy the whole invite"))
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    netloc = host if port is None else f"{host}:{port}"
    try:
        url = check_relay_url(f"{_SCHEMES[parts.scheme]}://{netloc}{path}/")
    except RelayAddressError as error:
        raise InviteError(
            _("the invite's relay address is not valid: {why}").format(why=error)
        ) from None
    role: Role = "player" if roles[0] == "player" else "watch"
    return Invite(url, room_id, token, role)
