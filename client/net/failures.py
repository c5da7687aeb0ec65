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

from client.net.untrusted import RelayMisbehaved, shown
from relay.client import RelayError
from relay.envelope import EnvelopeError


class RoomError(ValueError):
    """The room cannot be opened; the message says why, and what to do if anything."""


def listen_failure(host: str, port: int, error: OSError) -> str:
    """Why the embedded relay cannot listen on *host*:*port*."""
    if error.errno == errno.EADDRINUSE:
        return f"port {port} is already in use — pick another with --listen"
    if error.errno == errno.EACCES:
        return (f"this system does not let Tablier listen on port {port} (ports below 1024 "
                "need privileges) — pick another with --listen")  # fmt: skip
    if error.errno == errno.EADDRNOTAVAIL or isinstance(error, socket.gaierror):
        return (f"{host} is not an address of this machine — give one of its own with "
                "--listen, or 0.0.0.0:PORT for all of them")  # fmt: skip
    return f"cannot listen on {host}:{port}: {_reason(error)}"


def relay_failure(url: str, error: BaseException) -> str:
    """Why the relay at *url* could not be reached, or refused: one sentence naming it."""
    url = shown(url)
    if isinstance(error, RelayMisbehaved):
        return str(error)
    if isinstance(error, RelayError):
        return f"the relay at {url} refused: {shown(error.text)}"
    if isinstance(error, EnvelopeError):
        return f"the relay at {url} answered what Tablier does not understand: {shown(error.text)}"
    if isinstance(error, InvalidURI):
        return f"{url} is not a relay address (ws://HOST:PORT/ or wss://HOST/)"
    if isinstance(error, ssl.SSLError):
        return f"cannot reach the relay at {url} securely: {describe_connect(error)}"
    if isinstance(error, OSError | TimeoutError | ConnectionClosed | WebSocketException):
        return f"no relay answers at {url} ({describe_connect(error)})"
    return f"the relay at {url} could not be reached ({_reason(error)})"


def describe_connect(error: BaseException) -> str:
    """What went wrong with one attempt to reach a relay, in a few words."""
    if isinstance(error, ConnectionRefusedError):
        return "nothing listens there"
    if isinstance(error, socket.gaierror):
        return "its host name is not known"
    if isinstance(error, TimeoutError):
        return "it took too long to answer"
    if isinstance(error, ConnectionClosed):
        return "it closed the connection"
    if isinstance(error, ssl.SSLCertVerificationError):
        return f"its TLS certificate is not one this machine trusts ({error.verify_message})"
    if isinstance(error, ssl.SSLError):
        return "the secure (TLS) connection failed: is it really a wss:// relay?"
    if isinstance(error, InvalidStatus):
        return f"a web server answered, not a relay (HTTP {error.response.status_code})"
    if isinstance(error, WebSocketException):
        return "what answered is not a relay"
    return _reason(error)


def _reason(error: BaseException) -> str:
    """An OSError's own words without its ``[Errno n]`` prefix."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror[0].lower() + error.strerror[1:]
    return shown(str(error)) or type(error).__name__
