"""Local seat files: what it takes to go back into a local game after the app quit.

While a local game is unfinished, ``<data dir>/local/<match id>`` (mode 0600: it holds every
seat's secrets) keeps where its log is, which seats the computer plays, and each seat's key
and dice-chain secret; the log itself stays the source of truth for the game, replayed and
checked record by record when it is taken up again. The file goes when the game ends, and
with the log when the game is left before its first throw (nothing to go back to).

>>> seats = LocalSeats(Path("/tmp/m.tablier"), frozenset({1}), 2, (b"i" * 32,) * 2,
...                    (b"c" * 32,) * 2, (b"r" * 32,) * 2)
>>> decode_local_seats(encode_local_seats(seats)) == seats
True
>>> try:
...     decode_local_seats(b"garbage")
... except LocalSeatsError as error:
...     print(error)
not a local game's seat file (unreadable bytes)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

from client.i18n import N_, _, os_reason_of, path_shown
from client.private_file import write_private
from client.setup import JACQUET_LEVELS
from protocol.bounds import MAX_SEATS
from protocol.codec import pack, unpack_untrusted
from protocol.errors import MalformedMessage
from protocol.identity import KEY_BYTES
from protocol.logfile import default_data_dir, parse_log_path

LOCAL_SEATS_FORMAT: Final = "tablier-local-seats"
LOCAL_SEATS_VERSION: Final = 1
MAX_LOCAL_SEATS_BYTES: Final = 16 * 1024  # fifteen seats' secrets and a path: far less


class LocalSeatsError(ValueError):
    """A local seat file that cannot be used; the message says why, in a person's words."""


@dataclass(frozen=True, slots=True)
class LocalSeats:
    """One unfinished local game: its log, its computer seats, every seat's secrets."""

    log_path: Path
    computer_seats: frozenset[int]
    level: int  # the Jacquet computer's level (1 for the Goose)
    identities: tuple[bytes, ...]  # each seat's Ed25519 private key
    chain_seeds: tuple[bytes, ...]  # each seat's first dice chain grows from its seed
    renewal_secrets: tuple[bytes, ...]  # and its later chains from this secret


def encode_local_seats(seats: LocalSeats) -> bytes:
    return pack(
        [
            LOCAL_SEATS_FORMAT,
            LOCAL_SEATS_VERSION,
            str(seats.log_path),
            sorted(seats.computer_seats),
            seats.level,
            list(seats.identities),
            list(seats.chain_seeds),
            list(seats.renewal_secrets),
        ]
    )


def decode_local_seats(data: bytes) -> LocalSeats:
    """The seats in *data*; :class:`LocalSeatsError` for anything else."""
    try:
        value = unpack_untrusted(data)
    except MalformedMessage:
        raise LocalSeatsError(_("not a local game's seat file (unreadable bytes)")) from None
    if not isinstance(value, list) or value[:1] != [LOCAL_SEATS_FORMAT]:
        raise LocalSeatsError(_("not a local game's seat file"))
    if value[1:2] != [LOCAL_SEATS_VERSION]:
        raise LocalSeatsError(
            _("a local seat file of version {version}, expected {expected}").format(
                version=value[1:2], expected=LOCAL_SEATS_VERSION
            )
        )
    fields = value[2:]
    if len(fields) != 6:
        raise LocalSeatsError(_(_DAMAGED))
    log, computer, level, identities, seeds, renewals = fields
    if not (
        isinstance(computer, list)
        and all(type(seat) is int and 0 <= seat < MAX_SEATS for seat in computer)
        and type(level) is int
        and level in JACQUET_LEVELS
        and all(_are_keys(keys) for keys in (identities, seeds, renewals))
        and len(identities) == len(seeds) == len(renewals)
    ):
        raise LocalSeatsError(_(_DAMAGED))
    log_path = parse_log_path(log) if isinstance(log, str) else None
    if log_path is None:  # shown in every sentence about the game: printable, and absolute
        raise LocalSeatsError(_("a damaged local seat file (its log's path is not one)"))
    return LocalSeats(log_path, frozenset(computer), level, tuple(identities), tuple(seeds),
                      tuple(renewals))  # fmt: skip


_DAMAGED: Final = N_("a damaged local seat file (its fields are not what they should be)")


def _are_keys(value: object) -> bool:
    """Two to fifteen secrets of 32 bytes, one per seat."""
    return (
        isinstance(value, list)
        and 2 <= len(value) <= MAX_SEATS
        and all(isinstance(key, bytes) and len(key) == KEY_BYTES for key in value)
    )


def local_seats_folder(data_dir: Path | None = None) -> Path:
    """``<data dir>/local``: one file per unfinished local game."""
    return (data_dir if data_dir is not None else default_data_dir()) / "local"


def local_seats_path(match_id: bytes, data_dir: Path | None = None) -> Path:
    """Where the seat file of the match *match_id* is kept (its id in hex: no separator)."""
    return local_seats_folder(data_dir) / match_id.hex()


def save_local_seats(path: Path, seats: LocalSeats) -> None:
    """Write *seats* whole or not at all (temporary file, fsync, rename), mode 0600."""
    write_private(path, encode_local_seats(seats))


def load_local_seats(path: Path) -> LocalSeats:
    """The seats saved at *path*; :class:`LocalSeatsError` says why they cannot be used."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_LOCAL_SEATS_BYTES + 1)
    except OSError as error:
        raise LocalSeatsError(
            _("cannot read {file}: {error}").format(
                file=path_shown(path.name), error=os_reason_of(error)
            )
        ) from None
    if len(data) > MAX_LOCAL_SEATS_BYTES:
        raise LocalSeatsError(
            _("{file} is too large to be a local seat file").format(file=path_shown(path.name))
        )
    return decode_local_seats(data)
