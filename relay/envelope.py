"""The relay envelope: the only thing the relay understands (docs/relay-protocol.md).

Every frame is one binary websocket message holding one msgpack array
``[version, kind, *fields]``. Game payloads travel inside as opaque ``bin`` values.

This module is pure (no I/O): the relay decodes what clients send with
:func:`decode_client_frame`, and clients decode what the relay sends with
:func:`decode_relay_frame`. Both refuse any byte string that is not exactly a valid envelope
with :class:`EnvelopeError`, and never with anything else.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any

import msgpack  # type: ignore[import-untyped]

# 2: a sender no longer receives its own messages back; ``stamped`` tells it their numbers.
# 3: a room's numbering has an epoch (welcome), which a resume names (join): a room whose
#    stream may have lost events (its backplane restarted) starts a new one, and a resume
#    from the old numbering is answered with a resync instead of a replay. A welcome also
#    says how fast the member may send, so an honest client paces itself instead of being
#    cut off for a burst (a catch-up, a quick series of computer moves).
# 4: a spectator the backlog could not serve (his join's resume was answered with a resync)
#    is announced to the room by a presence event, ``watching``, numbered like the others,
#    so that the players send him the match so far (spectators may not send, so they cannot
#    ask). A version 3 client would refuse that event as malformed: hence the new version.
# 5: a sender that needs its message's number asks with the message (``send_tell``) and is
#    told at once, in the relay's answer to that frame, instead of the relay telling every
#    quiet sender after a pause (a frame of its own, a wake of both processes, 50 ms late):
#    the sender knows whether another member answers its message by itself (a thrower's
#    dice share) or the room may wait on a person. A version 4 client would wait for stamps
#    that never come: hence the new version.
VERSION = 5
MAX_NAME_CHARS = 32
MAX_ID_CHARS = 64  # room ids and tokens are 22 and 43 characters; leave room, refuse junk
# An envelope is a short flat array; its only nested array is a room's roster (≤ 15 entries).
_MAX_ARRAY_LEN = 16


class Kind(IntEnum):
    """The second element of every frame: which message this is."""

    CREATE = 1  # client → relay
    CREATED = 2  # relay → client
    JOIN = 3  # client → relay
    WELCOME = 4  # relay → client
    SEND = 5  # client → relay
    MESSAGE = 6  # relay → every other member: a payload stamped with seq and seat
    PRESENCE = 7  # relay → every member: a seat's arrival or departure, also sequenced
    ERROR = 8  # relay → client: a refusal
    NOTICE = 9  # relay → client: news that is not a refusal ("relay restarting")
    STAMPED = 10  # relay → a sender: its sends are numbered up to here (it asked: send_tell)
    SEND_TELL = 11  # client → relay: a send, and a stamped back to the sender once numbered


class PresenceEvent(IntEnum):
    JOINED = 0
    LEFT = 1
    RECONNECTED = 2
    SEAT_EXPIRED = 3
    # A spectator arrived whom the backlog could not serve; its seat field is 0 and means
    # nothing (spectators have no seat), its name is the spectator's.
    WATCHING = 4


WATCHING_SEAT = 0  # the seat field of a ``watching`` event


class ErrorCode(StrEnum):
    """Stable refusal codes; clients switch on these, people read the accompanying text."""

    BAD_ENVELOPE = "bad_envelope"
    TEXT_FRAME = "text_frame"
    UNSUPPORTED_VERSION = "unsupported_version"
    FRAME_TOO_LARGE = "frame_too_large"
    RATE_LIMITED = "rate_limited"
    TOO_SLOW = "too_slow"
    HANDSHAKE_TIMEOUT = "handshake_timeout"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    TOO_MANY_ROOMS = "too_many_rooms"
    TOO_MANY_FAILURES = "too_many_failures"
    BAD_SEATS = "bad_seats"
    BAD_NAME = "bad_name"
    NAME_TAKEN = "name_taken"
    BAD_RESUME = "bad_resume"
    UNKNOWN_ROOM = "unknown_room"
    BAD_TOKEN = "bad_token"
    SEAT_EXPIRED = "seat_expired"
    ROOM_FULL = "room_full"
    SPECTATORS_FULL = "spectators_full"
    NOT_JOINED = "not_joined"
    ALREADY_JOINED = "already_joined"
    SPECTATOR_CANNOT_SEND = "spectator_cannot_send"
    REPLACED = "replaced"
    UNAVAILABLE = "unavailable"


class NoticeCode(StrEnum):
    RELAY_RESTARTING = "relay_restarting"


class EnvelopeError(ValueError):
    """A frame that is not a valid envelope; ``code`` says which refusal to answer with.
    ``versions``: the relay's and the client's envelope versions, when they differ (for a
    client to word the refusal in its reader's language; ``text`` is English)."""

    def __init__(
        self, code: ErrorCode, text: str, *, versions: tuple[int, int] | None = None
    ) -> None:
        super().__init__(text)
        self.code = code
        self.text = text
        self.versions = versions


# --- messages a client sends -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Create:
    """Ask for a new room with this many player seats.

    ``again`` re-creates a room a restarted relay no longer has, with the id and both tokens
    a ``created`` once gave, so the invites already handed out keep working.
    """

    seats: int
    again: Created | None = None


@dataclass(frozen=True, slots=True)
class Join:
    """Enter a room with the player token, the spectator token or one's own seat token.

    ``resume_from`` asks the relay to first replay the room's events from that sequence
    number on (everything this client has not seen yet), numbered in ``epoch`` (the one its
    last welcome gave; None: whatever the room's is now).
    """

    room_id: str
    token: str
    name: str
    resume_from: int | None = None
    epoch: int | None = None


@dataclass(frozen=True, slots=True)
class Send:
    """A payload for the room's other members.

    The sender learns the number the relay gave it from the gap it leaves in the next event
    the sender receives; ``tell`` asks for a :class:`Stamped` as soon as it is numbered, for a
    sender that cannot wait for whatever comes next (nothing may).
    """

    payload: bytes
    tell: bool = False


# --- messages the relay sends ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Created:
    room_id: str
    player_token: str
    spectator_token: str


@dataclass(frozen=True, slots=True)
class Member:
    seat: int
    name: str
    connected: bool


@dataclass(frozen=True, slots=True)
class Welcome:
    """The answer to a join.

    ``seat`` and ``seat_token`` are None for spectators. ``seat_token`` is this player's own
    secret for reclaiming the seat after a disconnection. ``next_seq`` is the sequence number
    of the first live event; any replayed events (seq < next_seq) arrive before it. ``resync``
    is true when ``resume_from`` reached further back than the backlog keeps, or named an
    older epoch than the room's. ``epoch`` names the room's numbering: a resume names it.
    ``rate_per_minute`` and ``burst`` are the connection's sending limits (the relay's
    ``--rate`` and ``--burst``): a client sending faster is closed with ``rate_limited``.
    """

    seat: int | None
    seat_token: str | None
    seats: int
    next_seq: int
    resync: bool
    members: tuple[Member, ...]
    epoch: int = 0
    rate_per_minute: int = 1200
    burst: int = 40


@dataclass(frozen=True, slots=True)
class Message:
    seq: int
    seat: int
    payload: bytes


@dataclass(frozen=True, slots=True)
class Presence:
    seq: int
    seat: int
    event: PresenceEvent
    name: str


@dataclass(frozen=True, slots=True)
class Stamped:
    """To a sender that asked (:attr:`Send.tell`): that send is numbered ``seq``, and so is
    every send of its before it (a send made after it may still be on its way). The relay
    does not send a member its own messages back: the numbers missing from what it receives
    are its own sends, in the order it sent them. This closes the count up to the send that
    asked, whatever comes after it or not; it may come after another event already did (a
    shared room's stamp waits for Redis to number the send), and then says nothing new."""

    seq: int


@dataclass(frozen=True, slots=True)
class Error:
    code: str
    text: str


@dataclass(frozen=True, slots=True)
class Notice:
    code: str
    text: str


ClientMessage = Create | Join | Send
RelayMessage = Created | Welcome | Message | Presence | Stamped | Error | Notice


# --- encoding ----------------------------------------------------------------------------


def _pack(fields: list[Any]) -> bytes:
    packed: bytes = msgpack.packb(fields, use_bin_type=True)
    return packed


def encode(message: ClientMessage | RelayMessage) -> bytes:
    if type(message) is Send:  # what a client sends most: spliced, not packed (see below)
        head = _SEND_TELL_HEAD if message.tell else _SEND_HEAD
        return head + _bin_header(len(message.payload)) + message.payload
    if type(message) is Stamped:  # what a relay sends most after messages: likewise
        return _STAMPED_HEAD + _pack_uint(message.seq)
    match message:
        case Create(seats, None):
            return _pack([VERSION, Kind.CREATE, seats])
        case Create(seats, Created(room_id, player_token, spectator_token)):
            return _pack([VERSION, Kind.CREATE, seats, room_id, player_token, spectator_token])
        case Join(room_id, token, name, resume_from, epoch):
            return _pack([VERSION, Kind.JOIN, room_id, token, name, resume_from, epoch])
        case Created(room_id, player_token, spectator_token):
            return _pack([VERSION, Kind.CREATED, room_id, player_token, spectator_token])
        case Welcome(seat, seat_token, seats, next_seq, resync, members, epoch, rate, burst):
            roster = [[m.seat, m.name, m.connected] for m in members]
            fields = [seat, seat_token, seats, next_seq, resync, roster, epoch, rate, burst]
            return _pack([VERSION, Kind.WELCOME, *fields])
        case Message(seq, seat, payload):
            return stamp(seq, seat, pack_payload(payload))
        case Presence(seq, seat, event, name):
            return _pack([VERSION, Kind.PRESENCE, seq, seat, event, name])
        case Error(code, text):
            return _pack([VERSION, Kind.ERROR, code, text])
        case Notice(code, text):
            return _pack([VERSION, Kind.NOTICE, code, text])
        case Stamped(seq):
            return _pack([VERSION, Kind.STAMPED, seq])
    raise TypeError(f"not an envelope message: {message!r}")


# The relay's hot path: a send envelope comes in, a message envelope goes out around the
# very same msgpack bin object, which is sliced out and stamped without being unpacked.
_SEND_HEAD = bytes((0x93, VERSION, Kind.SEND))  # fixarray of 3, version, kind
_SEND_TELL_HEAD = bytes((0x93, VERSION, Kind.SEND_TELL))
_MESSAGE_HEAD = bytes((0x95, VERSION, Kind.MESSAGE))  # fixarray of 5, version, kind
_STAMPED_HEAD = bytes((0x93, VERSION, Kind.STAMPED))  # fixarray of 3, version, kind
_BIN_HEADERS = {0xC4: 1, 0xC5: 2, 0xC6: 4}  # bin 8/16/32: bytes of length after the marker
# The same, with the fewest bytes each header is msgpack's smallest encoding for: a bin 16
# header before 255 bytes or fewer is a bin 8's length written long.
_SMALLEST_BIN = {0xC4: (1, 0), 0xC5: (2, 0x100), 0xC6: (4, 0x10000)}


def packed_send_payload(data: bytes) -> bytes | None:
    """The packed payload (bin header and bytes) of a frame that is exactly a send envelope
    (either kind: ``data[2]`` says which) in its canonical form, or None: then decode it with
    :func:`decode_client_frame`.

    Only the canonical form is forwarded as it came: its bytes are the frame the relay would
    build itself. A payload under a longer header than its size needs (a bin 16 or bin 32
    header for a few bytes) goes the long way, where the relay packs it anew, so every member
    receives one canonical frame whatever the sender's encoder did (docs/relay-protocol.md).

    >>> packed_send_payload(encode(Send(b"hi", tell=True))) == pack_payload(b"hi")
    True
    >>> packed_send_payload(bytes((0x93, VERSION, Kind.SEND, 0xC5, 0, 2)) + b"hi") is None
    True
    """
    canonical = len(data) > 4 and (data.startswith(_SEND_HEAD) or data.startswith(_SEND_TELL_HEAD))
    header = _SMALLEST_BIN.get(data[3]) if canonical else None
    if header is None:
        return None
    width, least = header
    size = int.from_bytes(data[4 : 4 + width], "big")
    # A frame cut inside its header reads a size that cannot add up (at most 4 bytes short).
    return data[3:] if 4 + width + size == len(data) and size >= least else None


def stamp(seq: int, seat: int, packed_payload: bytes) -> bytes:
    """A message envelope around an already packed payload; see :func:`packed_send_payload`."""
    return b"".join((_MESSAGE_HEAD, _pack_uint(seq), _pack_uint(seat), packed_payload))


# Where a backplane numbers events (a Lua script in Redis), a frame is made of two parts
# around its sequence number, msgpack's smallest encoding of it: ``head + seq + tail``.
_PRESENCE_HEAD = bytes((0x96, VERSION, Kind.PRESENCE))  # fixarray of 6, version, kind


def message_parts(seat: int, packed_payload: bytes) -> tuple[bytes, bytes]:
    """What goes before and after the number in :func:`stamp`'s frame.

    >>> head, tail = message_parts(1, pack_payload(b"hi"))
    >>> head + b"\\x07" + tail == encode(Message(7, 1, b"hi"))
    True
    """
    return _MESSAGE_HEAD, _pack_uint(seat) + packed_payload


def presence_parts(seat: int, event: PresenceEvent, name: str) -> tuple[bytes, bytes]:
    """What goes before and after the number in a presence frame.

    >>> head, tail = presence_parts(0, PresenceEvent.LEFT, "Ada")
    >>> head + b"\\xcc\\xc8" + tail == encode(Presence(200, 0, PresenceEvent.LEFT, "Ada"))
    True
    """
    name_bytes: bytes = msgpack.packb(name, use_bin_type=True)
    return _PRESENCE_HEAD, _pack_uint(seat) + _pack_uint(event) + name_bytes


_FIXINTS = tuple(bytes((n,)) for n in range(0x80))


def _pack_uint(value: int) -> bytes:
    """msgpack's smallest encoding of a non-negative int, as ``msgpack.packb`` gives it."""
    if value < 0x80:
        return _FIXINTS[value]
    for marker, width in ((0xCC, 1), (0xCD, 2), (0xCE, 4), (0xCF, 8)):
        if value < 1 << (8 * width):
            return bytes((marker,)) + value.to_bytes(width, "big")
    raise OverflowError(f"{value} does not fit a msgpack uint 64")


def _bin_header(size: int) -> bytes:
    """The header ``msgpack.packb`` puts before a ``bin`` of this many bytes."""
    if size < 0x100:
        return bytes((0xC4, size))
    if size < 0x10000:
        return b"\xc5" + size.to_bytes(2, "big")
    return b"\xc6" + size.to_bytes(4, "big")


_UINT_WIDTHS = {0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8}


def _fast_message(data: bytes) -> Message | None:
    """A message envelope read without msgpack when it is laid out as the relay stamps them
    (every client reads one per event of the others); None: leave it to the codec.

    It takes only ``[1, 6, uint, uint, bin]`` filling the frame exactly, which the codec
    reads as the same :class:`Message`; anything else, valid or not, goes the long way.
    Written out rather than looped (some 30 % less time): a frame cut short ends in an
    ``IndexError`` or a length that does not add up, an unknown marker in a ``KeyError``.
    """
    if data[:3] != _MESSAGE_HEAD:
        return None
    try:
        marker = data[3]
        if marker < 0x80:
            seq, at = marker, 4
        else:
            at = 4 + _UINT_WIDTHS[marker]
            seq = int.from_bytes(data[4:at], "big")
        marker = data[at]
        if marker < 0x80:
            seat, at = marker, at + 1
        else:
            end = at + 1 + _UINT_WIDTHS[marker]
            seat, at = int.from_bytes(data[at + 1 : end], "big"), end
        start = at + 1 + _BIN_HEADERS[data[at]]
    except (IndexError, KeyError):
        return None
    if int.from_bytes(data[at + 1 : start], "big") != len(data) - start:
        return None
    return Message(seq, seat, data[start:])


def pack_payload(payload: bytes) -> bytes:
    packed: bytes = msgpack.packb(payload, use_bin_type=True)
    return packed


# --- decoding ----------------------------------------------------------------------------


def _unpack(data: bytes, max_frame: int, *, from_relay: bool = False) -> list[Any]:
    if len(data) > max_frame:
        raise EnvelopeError(
            ErrorCode.FRAME_TOO_LARGE, f"A frame may hold at most {max_frame} bytes."
        )
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            use_list=True,
            strict_map_key=True,
            max_str_len=max_frame,
            max_bin_len=max_frame,
            max_array_len=_MAX_ARRAY_LEN,
            max_map_len=0,
            max_ext_len=0,
        )
    except (ValueError, TypeError, msgpack.UnpackException) as exc:
        raise EnvelopeError(
            ErrorCode.BAD_ENVELOPE, "That frame is not a msgpack relay envelope."
        ) from exc
    if not isinstance(value, list) or len(value) < 2:
        raise EnvelopeError(
            ErrorCode.BAD_ENVELOPE, "An envelope is a msgpack array [version, kind, ...]."
        )
    if not _is_int(value[0]) or not _is_int(value[1]):
        raise EnvelopeError(
            ErrorCode.BAD_ENVELOPE, "An envelope starts with two integers: version and kind."
        )
    if value[0] != VERSION:
        relay, client = (value[0], VERSION) if from_relay else (VERSION, value[0])
        raise EnvelopeError(
            ErrorCode.UNSUPPORTED_VERSION,
            f"The relay speaks envelope version {relay} and the client version {client}; "
            "update whichever of the two is older.",
            versions=(relay, client),
        )
    return value


def _is_int(value: object) -> bool:
    return type(value) is int


def _shape_error(kind_name: str) -> EnvelopeError:
    return EnvelopeError(
        ErrorCode.BAD_ENVELOPE,
        f"A {kind_name} envelope has the wrong fields (see docs/relay-protocol.md).",
    )


def _check(fields: list[Any], kind_name: str, *types: type | tuple[type, ...]) -> None:
    """Fields after [version, kind] must match ``types`` exactly (``type(None)`` = nil)."""
    rest = fields[2:]
    if len(rest) != len(types):
        raise _shape_error(kind_name)
    for value, expected in zip(rest, types, strict=True):
        allowed = expected if isinstance(expected, tuple) else (expected,)
        if type(value) not in allowed:  # exact: a bool is not an int here
            raise _shape_error(kind_name)


_NONE = type(None)


def decode_client_frame(data: bytes, max_frame: int = 1024 * 1024) -> ClientMessage:
    """What the relay reads. Raises :class:`EnvelopeError` for anything but a valid message."""
    fields = _unpack(data, max_frame)
    kind = fields[1]
    if kind in (Kind.SEND, Kind.SEND_TELL):
        _check(fields, "send", bytes)
        return Send(fields[2], tell=kind == Kind.SEND_TELL)
    if kind == Kind.JOIN:
        _check(fields, "join", str, str, str, (int, _NONE), (int, _NONE))
        room_id, token, name, resume_from, epoch = fields[2:]
        if len(room_id) > MAX_ID_CHARS or len(token) > MAX_ID_CHARS:
            raise _shape_error("join")
        if resume_from is not None and resume_from < 0:
            raise EnvelopeError(ErrorCode.BAD_RESUME, "resume_from cannot be negative.")
        return Join(room_id, token, name, resume_from, epoch)
    if kind == Kind.CREATE:
        if len(fields) == 6:  # a re-creation: seats, room id, player token, spectator token
            _check(fields, "create", int, str, str, str)
            secrets = fields[3:]
            if not all(16 <= len(value) <= MAX_ID_CHARS for value in secrets):
                raise _shape_error("create")
            return Create(fields[2], Created(*secrets))
        _check(fields, "create", int)
        return Create(fields[2])
    raise EnvelopeError(
        ErrorCode.BAD_ENVELOPE, "Clients may send only create, join and send envelopes."
    )


def decode_relay_frame(data: bytes, max_frame: int = 1024 * 1024) -> RelayMessage:
    """What a client reads. Raises :class:`EnvelopeError` for anything but a valid message."""
    if len(data) <= max_frame and (message := _fast_message(data)) is not None:
        return message
    fields = _unpack(data, max_frame, from_relay=True)
    kind = fields[1]
    if kind == Kind.MESSAGE:
        _check(fields, "message", int, int, bytes)
        return Message(*fields[2:])
    if kind == Kind.PRESENCE:
        _check(fields, "presence", int, int, int, str)
        seq, seat, event, name = fields[2:]
        if event not in PresenceEvent.__members__.values():
            raise _shape_error("presence")
        return Presence(seq, seat, PresenceEvent(event), name)
    if kind == Kind.WELCOME:
        _check(fields, "welcome", (int, _NONE), (str, _NONE), int, int, bool, list, int, int, int)
        seat, seat_token, seats, next_seq, resync, roster, epoch, rate, burst = fields[2:]
        members = _decode_roster(roster)
        return Welcome(seat, seat_token, seats, next_seq, resync, members, epoch, rate, burst)
    if kind == Kind.CREATED:
        _check(fields, "created", str, str, str)
        return Created(*fields[2:])
    if kind == Kind.ERROR:
        _check(fields, "error", str, str)
        return Error(*fields[2:])
    if kind == Kind.NOTICE:
        _check(fields, "notice", str, str)
        return Notice(*fields[2:])
    if kind == Kind.STAMPED:
        _check(fields, "stamped", int)
        return Stamped(fields[2])
    raise _shape_error("relay")


def _decode_roster(roster: list[Any]) -> tuple[Member, ...]:
    members = []
    for entry in roster:
        if not (
            isinstance(entry, list)
            and len(entry) == 3
            and _is_int(entry[0])
            and type(entry[1]) is str
            and type(entry[2]) is bool
        ):
            raise _shape_error("welcome")
        members.append(Member(*entry))
    return tuple(members)
