"""What the clients of a room say to each other inside the relay's opaque payloads.

Each payload is one msgpack array ``[kind, …]``. Game traffic (``GAME``) carries the
protocol's signed wire messages untouched; the rest is the meeting of the players before the
match (``PROPOSAL``, ``JOIN``, ``SETUP``, whose contents the protocol signs and checks),
catching up after a disconnection (``HELLO``, ``TRANSCRIPT``), asking the host for a rematch
once a match is over (``REMATCH``) and the host's withdrawal of it (``WITHDRAW``), and the
match so far for a spectator who came too late for the relay to replay it (``SPECTATE``,
then transcripts), and a member back with no match asking for the setup of the one that
began meanwhile (``ASK``: the host answers with a ``SETUP``). Only the hello is signed, for
it binds the relay seat that says it to a match seat (:mod:`client.net.catchup`); the rest
need no signature: every record a transcript carries is itself signed and checked again by
the receiver, a setup is its players' signed joins, a rematch request only makes the host
propose, which every player then checks and joins (or not) himself, and a withdrawal is
taken only from the relay seat that sits as the host.

The hello's form changed with issue 28 (it was ``[HELLO, seat, have]``, unsigned; it is
``[HELLO, seat, have, relay_seat, epoch, signature]``): an older client's hello is refused
as a payload of the wrong shape, named after its sender.

>>> decode(encode(Hello(seat=1, have=42, relay_seat=3, epoch=2**47, signature=bytes(64))))
Hello(seat=1, have=42, relay_seat=3, epoch=140737488355328)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgpack  # type: ignore[import-untyped]

from client.i18n import _
from protocol.codec import MAX_MESSAGE_BYTES

GAME, PROPOSAL, JOIN, SETUP, HELLO, TRANSCRIPT, REMATCH, WITHDRAW, SPECTATE, ASK = range(10)
MATCH_ID_BYTES = 32
SIGNATURE_BYTES = 64
MAX_EPOCH = 2**48  # the relay's room numberings are named by 48 bits (relay.rooms.new_epoch)
MAX_PAYLOAD = 15 * 1024  # under the relay's 16 KiB frame with room for its envelope
TRANSCRIPT_CHUNK = 12 * 1024  # records per transcript payload stay under MAX_PAYLOAD


class WireError(ValueError):
    """A payload that is not one of ours (a broken or hostile client sent it)."""


@dataclass(frozen=True, slots=True)
class Game:
    """One signed protocol message (share, play, chat, resign, claim)."""

    data: bytes


@dataclass(frozen=True, slots=True)
class ProposalMsg:
    """The host's proposal, and the spectator token so any player can re-create the room."""

    data: bytes
    spectator_token: str


@dataclass(frozen=True, slots=True)
class JoinMsg:
    data: bytes


@dataclass(frozen=True, slots=True)
class SetupMsg:
    data: bytes


@dataclass(frozen=True, slots=True)
class SetupAsk:
    """Back after a gap the relay could not fill, with no match: "if the match began, send
    me its setup" (the host answers, paced: :meth:`client.net.meetings.Meetings.setup_asked`)."""


@dataclass(frozen=True, slots=True)
class Hello:
    """After (re)connecting: "I am seat ``seat`` and hold ``have`` records" (catch me up),
    signed by that seat for the relay seat it says it from, in the relay's numbering
    ``epoch`` (so that no other connection can say it again as its own)."""

    seat: int
    have: int
    relay_seat: int = 0
    epoch: int = 0
    signature: bytes = field(default=b"", repr=False)


@dataclass(frozen=True, slots=True)
class Transcript:
    """Records ``start``… of the match (a packed list, as ``transcript_from`` makes)."""

    start: int
    data: bytes


@dataclass(frozen=True, slots=True)
class Rematch:
    """A player asks the host for another match like match ``match_id``, once it ended."""

    match_id: bytes


@dataclass(frozen=True, slots=True)
class RematchWithdrawn:
    """The host withdraws the rematch he proposed after match ``match_id`` (nobody joins
    it any more; the players may ask again)."""

    match_id: bytes


@dataclass(frozen=True, slots=True)
class Spectate:
    """To a late spectator: "this is the match (its setup), and the ``have`` records I hold
    follow, in transcripts, as my next payloads"."""

    setup: bytes
    have: int


Payload = (
    Game
    | ProposalMsg
    | JoinMsg
    | SetupMsg
    | Hello
    | Transcript
    | Rematch
    | RematchWithdrawn
    | Spectate
    | SetupAsk
)


def _pack(value: list[Any]) -> bytes:
    packed: bytes = msgpack.packb(value, use_bin_type=True)
    return packed


def encode(payload: Payload) -> bytes:
    match payload:
        case Game(data):
            return _pack([GAME, data])
        case ProposalMsg(data, token):
            return _pack([PROPOSAL, data, token])
        case JoinMsg(data):
            return _pack([JOIN, data])
        case SetupMsg(data):
            return _pack([SETUP, data])
        case Hello(seat, have, relay_seat, epoch, signature):
            return _pack([HELLO, seat, have, relay_seat, epoch, signature])
        case Transcript(start, data):
            return _pack([TRANSCRIPT, start, data])
        case Rematch(match_id):
            return _pack([REMATCH, match_id])
        case RematchWithdrawn(match_id):
            return _pack([WITHDRAW, match_id])
        case Spectate(setup, have):
            return _pack([SPECTATE, setup, have])
        case SetupAsk():
            return _pack([ASK])
    raise TypeError(f"not a payload: {payload!r}")


_SHAPES: dict[int, tuple[type, ...]] = {
    GAME: (bytes,),
    PROPOSAL: (bytes, str),
    JOIN: (bytes,),
    SETUP: (bytes,),
    HELLO: (int, int, int, int, bytes),
    TRANSCRIPT: (int, bytes),
    REMATCH: (bytes,),
    WITHDRAW: (bytes,),
    SPECTATE: (bytes, int),
    ASK: (),
}
_CLASSES: dict[int, type] = {
    GAME: Game,
    PROPOSAL: ProposalMsg,
    JOIN: JoinMsg,
    SETUP: SetupMsg,
    HELLO: Hello,
    TRANSCRIPT: Transcript,
    REMATCH: Rematch,
    WITHDRAW: RematchWithdrawn,
    SPECTATE: Spectate,
    ASK: SetupAsk,
}


def decode(data: bytes) -> Payload:
    """The payload in *data*; :class:`WireError` for anything else (never another error)."""
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            max_str_len=256,
            max_bin_len=MAX_PAYLOAD,
            max_array_len=6,
            max_map_len=0,
            max_ext_len=0,
        )
    except Exception:  # msgpack raises many types: any of them means "not ours"
        raise WireError(_("a payload that is not msgpack")) from None
    if not isinstance(value, list) or not value or type(value[0]) is not int:
        raise WireError(_("a payload of an unknown shape"))
    shape = _SHAPES.get(value[0])
    fields = value[1:]
    if shape is None or len(fields) != len(shape):
        raise WireError(_("a payload of unknown kind {kind}").format(kind=value[0]))
    if any(type(field) is not kind for field, kind in zip(fields, shape, strict=True)):
        raise WireError(_("a payload with fields of the wrong types"))
    numbers = [f for f in fields if type(f) is int]
    if value[0] == HELLO:  # (its epoch is the relay's: 48 bits)
        numbers, epoch = numbers[:-1], numbers[-1]
        if not 0 <= epoch < MAX_EPOCH:
            raise WireError(_("a payload with a negative or huge number"))
    if not all(0 <= f < 2**31 for f in numbers):
        raise WireError(_("a payload with a negative or huge number"))
    if value[0] == TRANSCRIPT and not 0 <= fields[0] < 2**31:
        raise WireError(_("a transcript starting at an impossible record"))
    if value[0] in (GAME, JOIN, SETUP, PROPOSAL, SPECTATE) and len(fields[0]) > MAX_MESSAGE_BYTES:
        raise WireError(_("a message larger than the protocol allows"))
    if value[0] == HELLO and len(fields[-1]) != SIGNATURE_BYTES:
        raise WireError(_("a hello whose signature is not {size} bytes").format(
            size=SIGNATURE_BYTES))  # fmt: skip
    if value[0] in (REMATCH, WITHDRAW) and len(fields[0]) != MATCH_ID_BYTES:
        raise WireError(
            _("a rematch request whose match id is not {size} bytes").format(size=MATCH_ID_BYTES)
        )
    payload: Payload = _CLASSES[value[0]](*fields)
    return payload
