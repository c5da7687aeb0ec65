"""Seat files: what a player needs to take his seat back after the app quit or crashed.

While a networked match is in progress, each player (the host too) keeps one small file
of his own, ``<data dir>/seats/<room id>.<key>`` (:func:`seat_path`), written whole or not
at all and readable by him only (mode 0600: it holds the match's secrets). ``tablier join``
with that room's invite finds it and resumes the match from its log
(:func:`client.net.room.join_room`): a seat whose log another program is writing (the
player still at it in another terminal) is not taken. It is removed when the match ends.

The dice chains need no updating: every chain of the seat, the committed one and each
renewal, is drawn from ``chain_secret`` in turn (see :func:`chain_source`), so the file
changes only when the relay hands out a new seat token.

>>> seat = Seat("ws://127.0.0.1:8765/", "R" * 22, "P" * 43, "S" * 43, "K" * 43, "Ada",
...             "host", Path("/tmp/m.tablier"), b"i" * 32, b"c" * 32, "127.0.0.1:8765")
>>> decode_seat(encode_seat(seat)) == seat
True
>>> try:
...     decode_seat(b"garbage")
... except SeatFileError as error:
...     print(error)
not a seat file (unreadable bytes)
>>> from dataclasses import replace
>>> try:
...     decode_seat(encode_seat(replace(seat, listen="0.0.0.0:99999999999999999999")))
... except SeatFileError as error:
...     print(error)
a damaged seat file (its relay listened on '0.0.0.0:99999999999999999999')
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal
from urllib.parse import urlsplit

from client.i18n import _, os_reason_of
from client.net.invite import MAX_URL_CHARS  # what an invite may give: a seat file keeps it
from client.net.untrusted import is_secret
from client.private_file import write_private
from protocol.codec import pack, unpack_untrusted
from protocol.errors import MalformedMessage
from protocol.identity import KEY_BYTES, RandomSource, seeded_source
from protocol.logfile import NotRegular, TooLarge, default_data_dir, parse_log_path, read_regular

SEAT_FORMAT: Final = "tablier-seat"
SEAT_VERSION: Final = 1
MAX_SEAT_BYTES: Final = 8 * 1024

Role = Literal["host", "player"]


class SeatFileError(ValueError):
    """A seat file that cannot be used; the message says why, in a person's words."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's place in one room's match (``seat_token`` is None until the relay gave
    one; ``listen`` is where the host's embedded relay listened, to start it again)."""

    relay_url: str
    room_id: str
    invite_token: str
    spectator_token: str
    seat_token: str | None
    name: str
    role: Role
    log_path: Path
    identity: bytes  # the Ed25519 private key the seat joined with
    chain_secret: bytes
    listen: str | None = None


def encode_seat(seat: Seat) -> bytes:
    return pack(
        [
            SEAT_FORMAT,
            SEAT_VERSION,
            seat.relay_url,
            seat.room_id,
            seat.invite_token,
            seat.spectator_token,
            seat.seat_token,
            seat.name,
            seat.role,
            str(seat.log_path),
            seat.identity,
            seat.chain_secret,
            seat.listen,
        ]
    )


_FIELDS: Final = (str, str, str, str, str | None, str, str, str, bytes, bytes, str | None)


def decode_seat(data: bytes) -> Seat:
    """The seat in *data*; :class:`SeatFileError` for anything else."""
    try:
        value = unpack_untrusted(data)
    except MalformedMessage:
        raise SeatFileError(_("not a seat file (unreadable bytes)")) from None
    if not isinstance(value, list) or value[:1] != [SEAT_FORMAT]:
        raise SeatFileError(_("not a seat file"))
    if value[1:2] != [SEAT_VERSION]:
        raise SeatFileError(
            _("a seat file of version {version}, expected {expected}").format(
                version=value[1:2], expected=SEAT_VERSION
            )
        )
    fields = value[2:]
    if len(fields) != len(_FIELDS) or not all(
        isinstance(field, kind) for field, kind in zip(fields, _FIELDS, strict=True)
    ):
        raise SeatFileError(_("a damaged seat file (its fields are not what they should be)"))
    url, room, invite, spectator, token, name, role, log, identity, secret, listen = fields
    if role not in ("host", "player"):
        raise SeatFileError(_("a seat file for a {role}, not a player").format(role=repr(role)))
    if len(identity) != KEY_BYTES or len(secret) != KEY_BYTES:
        raise SeatFileError(_("a damaged seat file (its keys have the wrong size)"))
    if not _is_relay_url(url):
        raise SeatFileError(_("a damaged seat file (its relay's address is not one)"))
    tokens = (room, invite, spectator) if token is None else (room, invite, spectator, token)
    if not all(is_secret(field) for field in tokens):
        raise SeatFileError(_("a damaged seat file (its room id or tokens are not of their "
                              "shape)"))  # fmt: skip
    from protocol.names import name_problem  # (loaded with the seat's match in any case)

    if name_problem(name) is not None:
        raise SeatFileError(
            _("a damaged seat file (its player's name {name} is not one)").format(name=repr(name))
        )
    log_path = parse_log_path(log)
    if log_path is None:
        raise SeatFileError(_("a damaged seat file (its log's path is not one)"))
    if listen is not None and not _is_listen(listen):
        raise SeatFileError(
            _("a damaged seat file (its relay listened on {listen})").format(listen=repr(listen))
        )
    return Seat(url, room, invite, spectator, token, name, role, log_path, identity, secret,
                listen)  # fmt: skip


def _is_relay_url(url: str) -> bool:
    """A ws:// or wss:// address with a host, as an invite gives (at most 2,048 characters,
    printable)."""
    if len(url) > MAX_URL_CHARS or not url.isprintable():
        return False
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port out of 0-65535
    except ValueError:
        return False
    return parts.scheme in ("ws", "wss") and bool(parts.hostname)


def _is_listen(listen: str) -> bool:
    """``HOST:PORT`` as the embedded relay listened: a host and a port from 0 to 65535."""
    host, colon, port = listen.rpartition(":")
    return (
        bool(colon)
        and 1 <= len(host) <= 255
        and host.isprintable()
        and port.isascii()
        and port.isdigit()
        and len(port) <= 5
        and int(port) <= 65535
    )


def chain_source(secret: bytes) -> RandomSource:
    """Where the seat's dice chains come from: SHA-256 in counter mode keyed by a 32-byte
    secret, as unpredictable as the secret, and the same chains again after a restart."""
    return seeded_source(secret)


def seats_folder(data_dir: Path | None = None) -> Path:
    """``<data dir>/seats``: every seat file, one per seat taken in a room."""
    return (data_dir if data_dir is not None else default_data_dir()) / "seats"


def seat_path(room_id: str, public_key: bytes, data_dir: Path | None = None) -> Path:
    """``<data dir>/seats/<room id>.<key>``: the seat file of the player whose match key is
    *public_key* (its SHA-256's first 16 hex digits) in room *room_id* — one file per seat,
    so that two players of one room on one machine (the host and a friend, say) never write
    each other's. For a room id of the invites' shape only (URL-safe base64: no separator,
    no dot), and only if it resolves inside that folder (a link placed there cannot send the
    seat's secrets elsewhere); :class:`SeatFileError` otherwise.

    >>> seat_path("R" * 22, bytes(32), Path("/data"))
    PosixPath('/data/seats/RRRRRRRRRRRRRRRRRRRRRR.66687aadf862bd77')
    >>> try:
    ...     seat_path("../../.bashrc", bytes(32), Path("/data"))
    ... except SeatFileError as error:
    ...     print(error)
    no seat file is kept for a room named '../../.bashrc': that is not a room id
    """
    key = hashlib.sha256(public_key).hexdigest()[:16]
    return _inside(seats_folder(data_dir), f"{_room(room_id)}.{key}")


def room_seat_files(room_id: str, data_dir: Path | None = None) -> list[Path]:
    """Every seat file kept for room *room_id* (``<room id>.<key>``; and ``<room id>``
    alone, as versions before one file per seat named it), in name order."""
    folder = seats_folder(data_dir)
    room = _room(room_id)
    try:
        names = sorted(entry.name for entry in os.scandir(folder))
    except OSError:  # no folder yet (nothing saved), or none readable: no seat to take back
        return []
    ours = [name for name in names if name == room or name.startswith(room + ".")]
    return [_inside(folder, name) for name in ours if not name.endswith(".tmp")]


def _room(room_id: str) -> str:
    if not is_secret(room_id):
        raise SeatFileError(_("no seat file is kept for a room named {room}: that is not a room "
                              "id").format(room=repr(room_id)))  # fmt: skip
    return room_id


def _inside(folder: Path, name: str) -> Path:
    path = folder / name
    if path.resolve().parent != folder.resolve():
        raise SeatFileError(
            _("{path} leads out of {folder}: remove it, it is no seat file").format(
                path=path, folder=folder
            )
        )
    return path


def save_seat(path: Path, seat: Seat) -> None:
    """Write *seat* whole or not at all (temporary file, fsync, rename), mode 0600."""
    write_private(path, encode_seat(seat))


def load_seat(path: Path) -> Seat | None:
    """The seat saved at *path*, None when there is none; :class:`SeatFileError` if unusable.

    Read as any file anyone may have put there (:func:`~protocol.logfile.read_regular`): a
    FIFO swapped in would otherwise hold the reader for ever.
    """
    try:
        data = read_regular(path, MAX_SEAT_BYTES)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise SeatFileError(
            _("cannot read {file}: {error}").format(file=path, error=os_reason_of(error))
        ) from None
    except NotRegular:
        raise SeatFileError(_("{path} is not a regular file: not a seat file").format(
            path=path)) from None  # fmt: skip
    except TooLarge:
        raise SeatFileError(_("{path} is too large to be a seat file").format(path=path)) from None
    except ValueError:  # a NUL in the name: no file is named so
        raise SeatFileError(_("{path} is not a regular file: not a seat file").format(
            path=repr(str(path)))) from None  # fmt: skip
    try:
        return decode_seat(data)
    except SeatFileError as error:
        raise SeatFileError(_("{path}: {reason}").format(path=path, reason=error)) from None


def forget_seat(path: Path) -> None:
    """The match is over: its secrets go."""
    path.unlink(missing_ok=True)
