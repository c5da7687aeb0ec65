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

Each kind is declared once, by its class: its number (``KIND``) and its fields in wire order,
each bounded by its type (a whole number from 0 to below :data:`MAX_COUNT` unless it says
:class:`Below`; bytes of at most :data:`MAX_PAYLOAD` unless it says :class:`Size`; text of at
most :data:`MAX_TEXT_BYTES`). The encoding and the decoding's checks are derived from the
classes (:class:`Payloads`); :data:`PAYLOADS` holds those of :data:`Payload`.

The hello's form changed with issue 28 (it was ``[HELLO, seat, have]``, unsigned; it is
``[HELLO, seat, have, relay_seat, epoch, signature]``): an older client's hello is refused
as a payload of the wrong shape, named after its sender.

>>> decode(encode(Hello(seat=1, have=42, relay_seat=3, epoch=2**47, signature=bytes(64))))
Hello(seat=1, have=42, relay_seat=3, epoch=140737488355328)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, is_dataclass
from dataclasses import fields as dataclass_fields
from typing import Annotated, Any, ClassVar, Final, Generic, Protocol, TypeVar, get_args
from typing import get_type_hints as type_hints

import msgpack  # type: ignore[import-untyped]

from client.i18n import N_, _, ngettext
from protocol.codec import MAX_MESSAGE_BYTES

GAME, PROPOSAL, JOIN, SETUP, HELLO, TRANSCRIPT, REMATCH, WITHDRAW, SPECTATE, ASK = range(10)
MATCH_ID_BYTES = 32
SIGNATURE_BYTES = 64
MAX_EPOCH = 2**48  # the relay's room numberings are named by 48 bits (relay.rooms.new_epoch)
MAX_PAYLOAD = 15 * 1024  # under the relay's 16 KiB frame with room for its envelope
TRANSCRIPT_CHUNK = 12 * 1024  # records per transcript payload stay under MAX_PAYLOAD
MAX_COUNT = 2**31
"""A payload's whole numbers are from 0 to below this, unless their field says otherwise."""
MAX_TEXT_BYTES = 256
"""A payload's text (the spectator token) is at most this many bytes of UTF-8."""


@dataclass(frozen=True, slots=True)
class Below:
    """A whole-number field's bound: from 0 to below *limit* (the default: :data:`MAX_COUNT`)."""

    limit: int


@dataclass(frozen=True, slots=True)
class Size:
    """A bytes field's bound: at most *size* bytes, or exactly *size* if *exact*; *refused*
    says what a payload that breaks it is (a sentence marked ``N_``, which may name
    ``{size}``)."""

    size: int
    refused: str
    exact: bool = False

    def holds(self, value: bytes) -> bool:
        return len(value) == self.size if self.exact else len(value) <= self.size


Epoch = Annotated[int, Below(MAX_EPOCH)]
Message = Annotated[bytes, Size(MAX_MESSAGE_BYTES, N_("a message larger than the protocol allows"))]
MatchId = Annotated[
    bytes,
    Size(MATCH_ID_BYTES, N_("a rematch request whose match id is not {size} bytes"), exact=True),
]
Signature = Annotated[
    bytes, Size(SIGNATURE_BYTES, N_("a hello whose signature is not {size} bytes"), exact=True)
]


class WireError(ValueError):
    """A payload that is not one of ours (a broken or hostile client sent it)."""


@dataclass(frozen=True, slots=True)
class Game:
    """One signed protocol message (share, play, chat, resign, claim)."""

    KIND: ClassVar[int] = GAME
    data: Message


@dataclass(frozen=True, slots=True)
class ProposalMsg:
    """The host's proposal, and the spectator token so any player can re-create the room."""

    KIND: ClassVar[int] = PROPOSAL
    data: Message
    spectator_token: str


@dataclass(frozen=True, slots=True)
class JoinMsg:
    KIND: ClassVar[int] = JOIN
    data: Message


@dataclass(frozen=True, slots=True)
class SetupMsg:
    KIND: ClassVar[int] = SETUP
    data: Message


@dataclass(frozen=True, slots=True)
class SetupAsk:
    """Back after a gap the relay could not fill, with no match: "if the match began, send
    me its setup" (the host answers, paced: :meth:`client.net.meetings.Meetings.setup_asked`)."""

    KIND: ClassVar[int] = ASK


@dataclass(frozen=True, slots=True)
class Hello:
    """After (re)connecting: "I am seat ``seat`` and hold ``have`` records" (catch me up),
    signed by that seat for the relay seat it says it from, in the relay's numbering
    ``epoch`` (so that no other connection can say it again as its own)."""

    KIND: ClassVar[int] = HELLO
    seat: int
    have: int
    relay_seat: int = 0
    epoch: Epoch = 0
    signature: Signature = field(default=b"", repr=False)


@dataclass(frozen=True, slots=True)
class Transcript:
    """Records ``start``… of the match (a packed list, as ``transcript_from`` makes)."""

    KIND: ClassVar[int] = TRANSCRIPT
    start: int
    data: bytes


@dataclass(frozen=True, slots=True)
class Rematch:
    """A player asks the host for another match like match ``match_id``, once it ended."""

    KIND: ClassVar[int] = REMATCH
    match_id: MatchId


@dataclass(frozen=True, slots=True)
class RematchWithdrawn:
    """The host withdraws the rematch he proposed after match ``match_id`` (nobody joins
    it any more; the players may ask again)."""

    KIND: ClassVar[int] = WITHDRAW
    match_id: MatchId


@dataclass(frozen=True, slots=True)
class Spectate:
    """To a late spectator: "this is the match (its setup), and the ``have`` records I hold
    follow, in transcripts, as my next payloads"."""

    KIND: ClassVar[int] = SPECTATE
    setup: Message
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


"""Every payload the clients of a room say to each other. A new kind is its class (its
``KIND`` and its fields, bounded by their types: :class:`Below`, :class:`Size`), its name
here, and its handler (:mod:`client.net.playing` or :mod:`client.net.meetings`)."""

P = TypeVar("P", bound="Kinded")
More = TypeVar("More", bound="Kinded")


class Kinded(Protocol):
    """A payload class: its kind, and its fields (a dataclass's) in wire order."""

    KIND: ClassVar[int]


@dataclass(frozen=True, slots=True)
class _Field:
    name: str
    type: type[int | bytes | str]
    below: int | None  # a number's bound
    size: Size | None  # a byte string's


def _kind_name(cls: type[Kinded]) -> str:
    """A payload kind as a sentence names it: its class's name in words (the protocol's
    word, the same in every language).

    >>> _kind_name(Hello), _kind_name(SetupAsk)
    ('hello', 'setup ask')
    """
    return re.sub(r"(?<!^)(?=[A-Z])", " ", cls.__name__).lower()


def _shape(cls: type[Kinded]) -> tuple[_Field, ...]:
    """The fields of payload class *cls*, as its dataclass declares them."""
    if not is_dataclass(cls):
        raise TypeError(f"{cls.__name__}: a payload is a dataclass")
    hints = type_hints(cls, include_extras=True)
    out = []
    for name in (f.name for f in dataclass_fields(cls)):
        base, *bounds = (
            get_args(hints[name]) if hasattr(hints[name], "__metadata__") else (hints[name],)
        )
        if base not in (int, bytes, str):
            raise TypeError(f"{cls.__name__}.{name}: a payload field is an int, bytes or str")
        below = next((b.limit for b in bounds if isinstance(b, Below)), MAX_COUNT)
        size = next((b for b in bounds if isinstance(b, Size)), None)
        out.append(_Field(name, base, below if base is int else None, size))
    return tuple(out)


class Payloads(Generic[P]):
    """A set of payload kinds, by number: their encoding and its inverse, derived from each
    kind's class.

    >>> PAYLOADS.decode(PAYLOADS.encode(Transcript(3, b"records")))
    Transcript(start=3, data=b'records')
    """

    def __init__(self, *classes: type[P]) -> None:
        self.classes: Final = classes
        self._by_kind: dict[int, type[P]] = {cls.KIND: cls for cls in classes}
        if len(self._by_kind) != len(classes):
            raise ValueError(f"two payload kinds share a number: {classes}")
        self._shapes: dict[int, tuple[_Field, ...]] = {cls.KIND: _shape(cls) for cls in classes}
        self._longest = 1 + max(map(len, self._shapes.values()), default=0)

    def with_kind(self, cls: type[More]) -> Payloads[P | More]:
        """These kinds and *cls*'s."""
        return Payloads[P | More](*self.classes, cls)

    def __iter__(self) -> Iterator[int]:
        return iter(self._by_kind)

    def encode(self, payload: P) -> bytes:
        """The bytes of *payload* (``[kind, *fields]``)."""
        kind = type(payload).KIND
        if self._by_kind.get(kind) is not type(payload):
            raise TypeError(f"not a payload: {payload!r}")
        fields = [getattr(payload, field.name) for field in self._shapes[kind]]
        packed: bytes = msgpack.packb([kind, *fields], use_bin_type=True)
        return packed

    def decode(self, data: bytes) -> P:
        """The payload in *data*; :class:`WireError` for anything else (never another error)."""
        try:
            value = msgpack.unpackb(
                data,
                raw=False,
                max_str_len=MAX_TEXT_BYTES,
                max_bin_len=MAX_PAYLOAD,
                max_array_len=self._longest,
                max_map_len=0,
                max_ext_len=0,
            )
        except Exception:  # msgpack raises many types: any of them means "not ours"
            raise WireError(_("a payload that is not msgpack")) from None
        if not isinstance(value, list) or not value or type(value[0]) is not int:
            raise WireError(_("a payload of an unknown shape"))
        shape = self._shapes.get(value[0])
        fields: list[Any] = value[1:]
        if shape is None:
            raise WireError(_("a payload of unknown kind {kind}").format(kind=value[0]))
        if len(fields) != len(shape):  # an older client's hello, say: a kind we know
            raise WireError(
                ngettext("a {kind} payload of the wrong shape ({count} field)",
                         "a {kind} payload of the wrong shape ({count} fields)",
                         len(fields)).format(kind=_kind_name(self._by_kind[value[0]]),
                                             count=len(fields))
            )  # fmt: skip
        if any(type(f) is not spec.type for f, spec in zip(fields, shape, strict=True)):
            raise WireError(_("a payload with fields of the wrong types"))
        if any(spec.below is not None and not 0 <= f < spec.below
               for f, spec in zip(fields, shape, strict=True)):  # fmt: skip
            raise WireError(_("a payload with a negative or huge number"))
        for f, spec in zip(fields, shape, strict=True):
            if spec.size is not None and not spec.size.holds(f):
                raise WireError(_(spec.size.refused).format(size=spec.size.size))
        payload: P = self._by_kind[value[0]](
            **{spec.name: f for f, spec in zip(fields, shape, strict=True)}
        )
        return payload


PAYLOADS: Final = Payloads[Payload](*get_args(Payload))
"""The payloads of Tablier's clients."""


def encode(payload: Payload) -> bytes:
    """The bytes of *payload*."""
    return PAYLOADS.encode(payload)


def decode(data: bytes) -> Payload:
    """The payload in *data*; :class:`WireError` for anything else (never another error)."""
    return PAYLOADS.decode(data)
