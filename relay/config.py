"""The relay's settings: one frozen record, filled from defaults, ``TABLIER_RELAY_*`` and flags.

Every limit is an option so a self-hoster can tune it, and every default is the safe choice.
This module imports only the standard library, so ``tablier --help`` can build the relay's
options without loading websockets. Its help and its refusals of bad settings are English;
the sentences are marked (N_) for the client's catalogue, which ``tablier relay`` says them
with (:func:`add_arguments`, :meth:`SettingsError.say`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import reduce
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from relay.limits import REPLAYED_FRAMES_PER_JOIN

Words = Callable[[str], str]
"""A reader's language: a marked sentence in, the sentence in that language out."""
Phrase = Callable[[Words], str]
"""A sentence with its values, said in the language of the words it is given."""


def N_(text: str) -> str:
    """Mark *text* for the client's catalogue (``babel.cfg`` reads this module).

    The same identity as ``engine.clause.N_`` and ``client.i18n.N_``, kept apart on purpose:
    the relay may not import the engine (tests/test_layering.py)."""
    return text


def phrase(pattern: str, **values: object) -> Phrase:
    """*pattern* (marked N_) filled with *values*, once it is said in a language."""
    return lambda words: words(pattern).format(**values)


class SettingsError(ValueError):
    """Settings a relay cannot run with; ``str()`` says why in English, :meth:`say` in the
    language of the words given.

    >>> str(SettingsError([phrase(N_("max seats must be 1..{most}"), most=15)]))
    'invalid relay settings: max seats must be 1..15'
    """

    def __init__(self, problems: Sequence[Phrase]) -> None:
        self.problems = tuple(problems)
        super().__init__(self.say(str))

    def say(self, words: Words) -> str:
        said = reduce(lambda first, then: words(N_("{clause}; {then}")).format(
            clause=first, then=then), (problem(words) for problem in self.problems))  # fmt: skip
        return words(N_("invalid relay settings: {problems}")).format(problems=said)


class BackplaneURLError(ValueError):
    """A backplane URL whose options Redis's client cannot use: an option it does not know,
    a value it refuses, a certificate file it cannot read. Found when the relay starts
    (``relay.redis_backplane``), not left for every try to reach Redis to meet; ``str()`` is
    the client's own reason, in English."""


ENV_PREFIX = "TABLIER_RELAY_"
DESCRIPTION = N_(
    "Run a Tablier relay: it forwards the messages of each game room between its players "
    "and spectators, without reading them. Every option can also be set with a "
    "TABLIER_RELAY_<OPTION> environment variable (e.g. TABLIER_RELAY_PORT=9000); flags win."
)
MAX_SEATS_PER_ROOM = 15


@dataclass(frozen=True, slots=True)
class RelayConfig:
    """Everything a relay needs to run; embedders pass ``RelayConfig(port=0)`` for any port."""

    host: str = "127.0.0.1"
    port: int = 8765
    certfile: str | None = None
    keyfile: str | None = None
    max_frame: int = 16 * 1024
    rate: float = 20.0
    burst: int = 40
    max_connections_per_ip: int = 32
    max_bytes_per_ip: int = 0  # no bound; 1048576 with --backplane (README)
    max_half_open: int = 1024
    max_rooms: int = 1000
    max_rooms_per_ip: int = 16
    max_seats: int = MAX_SEATS_PER_ROOM
    max_spectators: int = 16
    backlog: int = 1024
    backlog_bytes: int = 256 * 1024
    seat_grace: float = 300.0
    room_idle: float = 900.0
    handshake_timeout: float = 10.0
    ping_interval: float = 20.0
    ping_timeout: float = 20.0
    join_failures_per_minute: int = 10
    joins_per_minute: int = 60
    shutdown_timeout: float = 5.0
    trust_proxy: bool = False
    log_json: bool = False
    backplane: str | None = None  # redis://HOST:PORT/DB: rooms shared by many processes
    backplane_lease: float = 10.0

    def __post_init__(self) -> None:
        problems = [problem for check, problem in _checks(self) if not check]
        if (self.certfile is None) != (self.keyfile is None):
            problems.append(phrase(N_("--certfile and --keyfile go together")))
        if problems:
            raise SettingsError(problems)

    @property
    def tls(self) -> bool:
        return self.certfile is not None


def _checks(c: RelayConfig) -> list[tuple[bool, Phrase]]:
    said = phrase
    return [
        (0 <= c.port <= 65535, said(N_("port must be 0..65535, not {port}"), port=c.port)),
        (256 <= c.max_frame <= 1024 * 1024, said(N_("max frame must be 256 B..1 MiB"))),
        (c.rate > 0 and c.burst >= 1, said(N_("rate must be positive and burst at least 1"))),
        (c.max_connections_per_ip >= 1, said(N_("max connections per IP must be at least 1"))),
        (c.max_bytes_per_ip == 0 or c.max_bytes_per_ip >= c.max_frame,
         said(N_("max bytes per IP must allow at least one full frame"))),
        (c.max_half_open >= 1, said(N_("max half-open connections must be at least 1"))),
        (c.max_rooms >= 1 and c.max_rooms_per_ip >= 1, said(N_("max rooms must be at least 1"))),
        (1 <= c.max_seats <= MAX_SEATS_PER_ROOM,
         said(N_("max seats must be 1..{most}"), most=MAX_SEATS_PER_ROOM)),
        (c.max_spectators >= 0, said(N_("max spectators cannot be negative"))),
        (c.backlog >= 1, said(N_("backlog must hold at least 1 message"))),
        (c.backlog_bytes >= c.max_frame,
         said(N_("backlog bytes must hold at least one full frame"))),
        (c.seat_grace > 0 and c.room_idle > 0,
         said(N_("seat grace and room idle must be positive"))),
        (c.handshake_timeout > 0, said(N_("handshake timeout must be positive"))),
        (c.ping_interval > 0 and c.ping_timeout > 0,
         said(N_("ping interval and timeout must be positive"))),
        (c.join_failures_per_minute >= 1,
         said(N_("join failures per minute must be at least 1"))),
        (c.joins_per_minute >= 1, said(N_("joins per minute must be at least 1"))),
        (c.shutdown_timeout > 0, said(N_("shutdown timeout must be positive"))),
        (c.backplane_lease >= 1, said(N_("backplane lease must be at least 1 second"))),
        (
            c.backplane is None or c.backplane.startswith(_BACKPLANE_SCHEMES),
            said(N_("backplane must be a Redis URL (redis://HOST:PORT/DB), not {url}"),
                 url=repr(c.backplane)),
        ),
        (
            c.backplane is None or c.backplane.startswith("rediss://")
            or not _tls_options(c.backplane),
            said(N_("backplane TLS options ({options}) need a rediss:// URL: this one would "
                    "speak to Redis in clear"), options=", ".join(_tls_options(c.backplane))),
        ),
    ]  # fmt: skip


def _tls_options(url: str | None) -> list[str]:
    """The TLS options (``ssl_…``, as redis-py reads them) in a backplane URL's query: given
    with ``redis://`` or ``unix://``, redis-py would take them and speak in clear all the
    same, so they are refused rather than silently ignored."""
    query = urlsplit(url or "").query
    return sorted({name for name, _ in parse_qsl(query) if name.startswith("ssl_")})


_BACKPLANE_SCHEMES = ("redis://", "rediss://", "unix://")


# What each setting means, as ``--help`` and the README's "Self-hosting the relay" say it.
HELP: dict[str, str] = {
    "host": N_("address to bind (default loopback; 0.0.0.0 for every interface)"),
    "port": N_("TCP port (0 picks a free one)"),
    "certfile": N_("TLS certificate chain (PEM) to serve wss://"),
    "keyfile": N_("TLS private key (PEM) matching --certfile"),
    "max_frame": N_("largest frame accepted, in bytes; bigger ones close with 1009"),
    "rate": N_("messages per second each connection may send, on average"),
    "burst": N_("messages a connection may send at once before the rate applies"),
    "max_connections_per_ip": N_("connections allowed from one address, open or still in "
                                 "their HTTP upgrade"),
    "max_bytes_per_ip": N_("bytes of frames per second one address may send, all its "
                           "connections together (a second's worth at once; 0: no bound)"),
    "max_half_open": N_("connections still in their HTTP upgrade, from every address together"),
    "max_rooms": N_("rooms the relay holds at once"),
    "max_rooms_per_ip": N_("rooms created from one address that the relay holds at once"),
    "max_seats": N_("most player seats a room may ask for (at most {most})"),
    "max_spectators": N_("spectators per room"),
    "backlog": N_("messages each room keeps for clients that resume"),
    "backlog_bytes": N_("bytes of messages each room keeps for clients that resume, at most"),
    "seat_grace": N_("seconds a disconnected player's seat is held for its token"),
    "room_idle": N_("seconds a room with nobody connected is kept"),
    "handshake_timeout": N_("seconds a new connection has to upgrade and join a room"),
    "ping_interval": N_("seconds between keepalive pings"),
    "ping_timeout": N_("seconds to wait for a pong before dropping a connection"),
    "join_failures_per_minute": N_("failed joins (unknown room, wrong token) allowed per "
                                   "address"),
    "joins_per_minute": N_("joins (as a player or a spectator, failed or not) allowed per "
                           "address, all at once at most; a join that replays the room's "
                           "messages counts once more for every {frames} of them"),
    "shutdown_timeout": N_("seconds to wait for clients to close on shutdown"),
    "trust_proxy": N_("take client addresses from X-Forwarded-For (only behind nginx/Caddy)"),
    "log_json": N_("log one JSON object per line instead of plain text"),
    "backplane": N_("share rooms with other relay processes through Redis "
                    "(redis://HOST:PORT/DB; needs the redis extra)"),
    "backplane_lease": N_("seconds the members of a relay process that died still count as "
                          "connected (with --backplane); then they are away, and their seats "
                          "expire after the grace"),
}  # fmt: skip


_METAVARS = {
    "host": N_("HOST"),
    "certfile": N_("FILE"),
    "keyfile": N_("FILE"),
    "rate": N_("PER_SECOND"),
    "backplane": "URL",
}


def help_of(field: str, words: Callable[[str], str] = str) -> str:
    """What the setting *field* means, in the language of *words*."""
    return words(HELP[field]).format(most=MAX_SEATS_PER_ROOM, frames=REPLAYED_FRAMES_PER_JOIN)


def env_name(field: str) -> str:
    return ENV_PREFIX + field.upper()


def _parse_bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off", ""}:
        return False
    raise ValueError(f"expected yes/no, got {text!r}")


def _shown(default: object) -> object:
    """A default as the help writes it: 20, not 20.0 (a French reader would read the point
    as a thousands separator, and every fractional default is a whole number of seconds).

    >>> _shown(20.0), _shown(0.25), _shown(32), _shown("127.0.0.1")
    (20, 0.25, 32, '127.0.0.1')
    """
    if isinstance(default, float) and default.is_integer():
        return int(default)
    return default


def _parser_for(default: object) -> Callable[[str], Any]:
    if isinstance(default, bool):
        return _parse_bool
    if isinstance(default, int):
        return int
    if isinstance(default, float):
        return float
    return str


def add_arguments(parser: argparse.ArgumentParser, words: Callable[[str], str] = str) -> None:
    """Add one ``--flag`` per setting; its default comes from the environment when set.
    *words*: the reader's language for the help (``tablier relay`` passes the client's ``_``).
    """
    for field in fields(RelayConfig):
        default = field.default
        flag = "--" + field.name.replace("_", "-")
        help_text = f"{help_of(field.name, words)} [env {env_name(field.name)}]"
        if isinstance(default, bool):
            parser.add_argument(flag, action="store_true", default=None, help=help_text)
            continue
        if default is not None:
            help_text += " " + words(N_("(default {default})")).format(default=_shown(default))
        metavar = _METAVARS.get(field.name) or (N_("SECONDS") if type(default) is float else "N")
        parser.add_argument(
            flag,
            type=_flag_parser(default, words),
            default=None,
            metavar=words(metavar),
            help=help_text,
        )


def _flag_parser(default: object, words: Words) -> Callable[[str], Any]:
    """A flag's type: as its variable's, but refusing in the reader's words (argparse's own
    name the type: "invalid int value")."""
    parse = _parser_for(default)
    kind = N_("a whole number, not {text!r}") if parse is int else N_("a number, not {text!r}")

    def parsed(text: str) -> Any:
        try:
            return parse(text)
        except ValueError:
            raise argparse.ArgumentTypeError(words(kind).format(text=text)) from None

    return parsed


def _not_valid(field: str, raw: str) -> Phrase:
    """The variable of setting *field* holds *raw*, which is no value of that setting."""

    def said(words: Words) -> str:
        return words(N_("{variable}={value} is not a valid {setting}")).format(
            variable=env_name(field), value=repr(raw), setting=repr(help_of(field, words))
        )

    return said


def config_from(args: argparse.Namespace, environ: Mapping[str, str]) -> RelayConfig:
    """Flags win over ``TABLIER_RELAY_*`` variables, which win over the defaults.

    Raises :class:`SettingsError` (a ValueError) naming the offending variable or setting.
    """
    values: dict[str, Any] = {}
    for field in fields(RelayConfig):
        flag_value = getattr(args, field.name, None)
        if flag_value is not None:
            values[field.name] = flag_value
            continue
        raw = environ.get(env_name(field.name))
        if raw is None:
            continue
        try:
            values[field.name] = _parser_for(field.default)(raw)
        except ValueError:
            raise SettingsError([_not_valid(field.name, raw)]) from None
    return replace(RelayConfig(), **values)
