"""Why a relay or a room could not be reached, in a person's words (never errno text).

Every sentence names what was tried (the relay's address, the port to listen on) and, where
there is one, what to do instead.

>>> listen_failure("127.0.0.1", 48770, OSError(errno.EADDRINUSE, "in use"))
'port 48770 is already in use — pick another with --listen'
>>> relay_failure("ws://127.0.0.1:9/", ConnectionRefusedError(errno.ECONNREFUSED, "refused"))
'no relay answers at ws://127.0.0.1:9/ (nothing listens there)'
"""

from __future__ import annotations

import errno
import socket
import ssl

from websockets.exceptions import (
    ConnectionClosed,
    InvalidStatus,
    InvalidURI,
    WebSocketException,
)

from client.i18n import N_, _, os_reason_of
from client.net.untrusted import RelayMisbehaved, shown
from relay.client import RelayError
from relay.envelope import EnvelopeError, ErrorCode, Notice, NoticeCode


class RoomError(ValueError):
    """The room cannot be opened; the message says why, and what to do if anything."""


# A relay refuses with a stable code and an English sentence, for its operators and for
# clients that know no better (and a hostile relay may say anything there): Tablier words
# the codes it knows itself, in the reader's language, and shows the relay's own text only
# for a code it does not know.
REFUSALS: dict[str, str] = {  # keyed by the codes themselves: a new one is seen here
    ErrorCode.BAD_ENVELOPE: N_("The relay did not understand what Tablier sent."),
    ErrorCode.TEXT_FRAME: N_("The relay did not understand what Tablier sent."),
    ErrorCode.UNSUPPORTED_VERSION: N_("The relay speaks another version of the protocol."),
    ErrorCode.FRAME_TOO_LARGE: N_("A message was larger than the relay accepts."),
    ErrorCode.RATE_LIMITED: N_(
        "Messages went faster than the relay allows, so it closed the connection."
    ),
    ErrorCode.TOO_SLOW: N_("The connection read too slowly; the relay dropped it."),
    ErrorCode.HANDSHAKE_TIMEOUT: N_("The connection neither created nor joined a room in time."),
    ErrorCode.TOO_MANY_CONNECTIONS: N_(
        "Too many connections from your address; close some and try again."
    ),
    ErrorCode.TOO_MANY_ROOMS: N_(
        "The relay holds as many rooms as it may (from your address or in all); try again later "
        "or use another relay."
    ),
    ErrorCode.TOO_MANY_FAILURES: N_(
        "Too many failed joins from your address; wait a minute and check your invite."
    ),
    ErrorCode.BAD_SEATS: N_("The relay does not hold rooms of that many seats."),
    ErrorCode.BAD_NAME: N_("The relay refused that display name."),
    ErrorCode.NAME_TAKEN: N_(
        "Someone in this room already goes by that name (or one that reads the same); choose "
        "another."
    ),
    ErrorCode.BAD_RESUME: N_("The relay's room has not reached the point this seat resumes from."),
    ErrorCode.UNKNOWN_ROOM: N_(
        "There is no such room on this relay: it may have expired, or the invite is mistyped."
    ),
    ErrorCode.BAD_TOKEN: N_("That token does not open this room; check the invite."),
    ErrorCode.SEAT_EXPIRED: N_(
        "Your seat was given up after you were away too long; join again with the invite."
    ),
    ErrorCode.ROOM_FULL: N_("Every seat in this room is taken."),
    ErrorCode.SPECTATORS_FULL: N_("This room has as many spectators as it allows."),
    ErrorCode.NOT_JOINED: N_("The relay was sent a message before the room was joined."),
    ErrorCode.ALREADY_JOINED: N_("This connection is already in a room."),
    ErrorCode.SPECTATOR_CANNOT_SEND: N_(
        "Spectators can watch but not send; your message was not forwarded."
    ),
    ErrorCode.REPLACED: N_("Your seat was reclaimed by a newer connection with your token."),
    ErrorCode.UNAVAILABLE: N_(
        "The relay cannot reach the store that holds its rooms right now; try again in a moment."
    ),
}


# What the relay library itself finds wrong with a relay's answers (relay.client's codes).
BROKEN: dict[str, str] = {
    "unexpected": N_(
        "The relay answered with something other than what was asked: it is not a Tablier "
        "relay, or a faulty one."
    ),
    "bad_sequence": N_("The relay numbered the room's messages wrongly: it is a faulty relay."),
}

# A relay's news (a notice), as its refusals: worded here by its code.
NOTICES: dict[str, str] = {
    NoticeCode.RELAY_RESTARTING: N_(
        "The relay is restarting; Tablier reconnects as soon as it is back."
    ),
}


# OpenSSL's reasons to refuse a certificate (X509_V_ERR_*), as people meet them; another one
# is shown in OpenSSL's own (English) words.
CERTIFICATE_PROBLEMS: dict[int, str] = {
    10: N_("it has expired"),
    9: N_("it is not valid yet"),
    18: N_("it is self-signed"),
    19: N_("a certificate of its chain is self-signed"),
    20: N_("its issuer is not known here"),
    21: N_("its issuer is not known here"),
    62: N_("it is for another host name"),
}


def refusal(error: RelayError) -> str:
    """What the relay's refusal *error* means, in the reader's language.

    >>> refusal(RelayError("room_full", "anything"))
    'Every seat in this room is taken.'
    >>> refusal(RelayError("new_code", "A relay\x1b[2J of tomorrow."))
    'A relay�[2J of tomorrow.'
    """
    known = REFUSALS.get(error.code) or BROKEN.get(error.code)
    return _(known) if known is not None else shown(error.text)


def news(notice: Notice) -> str:
    """What the relay's *notice* says, in the reader's language (a code Tablier does not
    know yet: the relay's own words, made safe to show)."""
    known = NOTICES.get(notice.code)
    return _(known) if known is not None else shown(notice.text)


def garbled(error: EnvelopeError) -> str:
    """What is wrong with a frame the relay sent that Tablier cannot read (the envelope's
    own words are English, for the relay's operators), in a few words.

    >>> garbled(EnvelopeError(ErrorCode.BAD_ENVELOPE, "That frame is not ..."))
    'it sent a frame that is not a relay envelope'
    """
    if error.versions is not None:
        relay, client = error.versions
        older = _("it speaks version {relay} of the relay protocol and Tablier version "
                  "{client}: update whichever of the two is older")  # fmt: skip
        return older.format(relay=relay, client=client)
    if error.code == ErrorCode.UNSUPPORTED_VERSION:
        return _("it speaks another version of the relay protocol: update Tablier or the relay")
    if error.code == ErrorCode.FRAME_TOO_LARGE:
        return _("it sent a frame larger than Tablier accepts")
    return _("it sent a frame that is not a relay envelope")


def listen_failure(host: str, port: int, error: OSError) -> str:
    """Why the embedded relay cannot listen on *host*:*port*."""
    if error.errno == errno.EADDRINUSE:
        return _("port {port} is already in use — pick another with --listen").format(port=port)
    if error.errno == errno.EACCES:
        return _("this system does not let Tablier listen on port {port} (ports below 1024 "
                 "need privileges) — pick another with --listen").format(port=port)  # fmt: skip
    if error.errno == errno.EADDRNOTAVAIL or isinstance(error, socket.gaierror):
        return _("{host} is not an address of this machine — give one of its own with "
                 "--listen, or 0.0.0.0:PORT for all of them").format(host=host)  # fmt: skip
    return _("cannot listen on {host}:{port}: {reason}").format(host=host, port=port,
                                                               reason=_reason(error))  # fmt: skip


def relay_failure(url: str, error: BaseException) -> str:
    """Why the relay at *url* could not be reached, or refused: one sentence naming it."""
    url = shown(url)
    if isinstance(error, RelayMisbehaved):
        return str(error)
    if isinstance(error, RelayError):
        return _("the relay at {url} refused: {reason}").format(url=url, reason=refusal(error))
    if isinstance(error, EnvelopeError):
        return _("the relay at {url} answered what Tablier does not understand: {reason}").format(
            url=url, reason=garbled(error)
        )
    if isinstance(error, InvalidURI):
        return _("{url} is not a relay address (ws://HOST:PORT/ or wss://HOST/)").format(url=url)
    if isinstance(error, ssl.SSLError):
        return _("cannot reach the relay at {url} securely: {reason}").format(
            url=url, reason=describe_connect(error)
        )
    if isinstance(error, OSError | TimeoutError | ConnectionClosed | WebSocketException):
        return _("no relay answers at {url} ({reason})").format(
            url=url, reason=describe_connect(error)
        )
    return _("the relay at {url} could not be reached ({reason})").format(
        url=url, reason=_reason(error)
    )


def describe_connect(error: BaseException) -> str:
    """What went wrong with one attempt to reach a relay, in a few words."""
    if isinstance(error, ConnectionRefusedError):
        return _("nothing listens there")
    if isinstance(error, socket.gaierror):
        return _("its host name is not known")
    if isinstance(error, TimeoutError):
        return _("it took too long to answer")
    if isinstance(error, ConnectionClosed):
        return _("it closed the connection")
    if isinstance(error, ssl.SSLCertVerificationError):
        known = CERTIFICATE_PROBLEMS.get(error.verify_code)
        return _("its TLS certificate is not one this machine trusts ({reason})").format(
            reason=_(known) if known is not None else error.verify_message
        )
    if isinstance(error, ssl.SSLError):
        return _("the secure (TLS) connection failed: is it really a wss:// relay?")
    if isinstance(error, InvalidStatus):
        return _("a web server answered, not a relay (HTTP {status})").format(
            status=error.response.status_code
        )
    if isinstance(error, WebSocketException):
        return _("what answered is not a relay")
    if isinstance(error, EnvelopeError):
        return garbled(error)
    return _reason(error)


def _reason(error: BaseException) -> str:
    """An OSError's reason, in words (never its ``[Errno n]`` English)."""
    if isinstance(error, OSError) and error.strerror:
        reason = os_reason_of(error)
        return reason[0].lower() + reason[1:]
    return shown(str(error)) or type(error).__name__
