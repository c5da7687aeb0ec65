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
...     parse_invite("tablier://127.0.0.1:8765/" + "R" * 22)
... except InviteError as error:
...     print(error)
the invite has no token: it should end with ?player=… or ?watch=…
>>> try:
...     parse_invite("tablier://127.0.0.1:9/\x1b[2J/" + "R" * 22 + "?player=" + "T" * 43)
... except InviteError as error:
...     print(str(error)[:41])
the invite holds characters no invite has
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from urllib.parse import parse_qs, urlsplit

from client.i18n import _
from client.net.untrusted import is_secret

Role = Literal["player", "watch"]

_SCHEMES = {"tablier": "ws", "tabliers": "wss"}


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


def parse_invite(text: str) -> Invite:
    """The invite in *text* (surrounding spaces and quotes ignored), or :class:`InviteError`."""
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
    role: Role = "player" if roles[0] == "player" else "watch"
    return Invite(f"{_SCHEMES[parts.scheme]}://{netloc}{path}/", room_id, token, role)
