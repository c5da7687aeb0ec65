"""The signed game messages: small frozen dataclasses with a compact msgpack form.

On the wire every game message is one msgpack array::

    [version, kind, seat, n, time, *payload, signature]

``n`` binds the message to its place (the throw index for shares and plays; the seat's own
chat counter for chat; the *position* — how many game records came before it — for a
resignation, a claim or a ``seen``), ``time`` is the sender's clock in integer milliseconds,
and ``signature`` is the seat's Ed25519 signature of
``b"tablier-msg/2\\0" ‖ match id ‖ msgpack(array without the signature)`` — so a message
cannot be moved to another match, another seat, another throw, or altered in any byte.

Every message but chat ends its payload with ``history``: the digest of the game records
that came before it (:func:`protocol.progress.next_digest`), so a signature commits its seat
to the whole match as it saw it (docs/fair-dice.md, *The history*).

>>> share = Share(seat=1, n=0, time=5, link=bytes(32), renew=None, signature=bytes(64))
>>> decode_message(share.encode()) == share
True
>>> decode_message(b"\\x92\\x01\\x01")
Traceback (most recent call last):
...
protocol.errors.VersionMismatch: version 1, expected 2

Each kind is declared once, by its class: its number (``KIND``) and its payload's fields in
wire order, each with its gate (``PAYLOAD``: :class:`Field`). Encoding and decoding are
derived from that declaration (:class:`Kinds`); the kinds a log may hold are the members of
:data:`GameMessage`, a closed set (docs/log-format.md), and :data:`KINDS` is built from it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, is_dataclass, replace
from dataclasses import fields as dataclass_fields
from typing import Any, ClassVar, Final, Generic, Protocol, TypeVar, get_args

from engine.clause import N_, Clause
from protocol.bounds import MAX_CHAT_CHARS, MAX_INDEX, MAX_PLAY_CHARS, MAX_SEATS, MAX_TIME
from protocol.codec import pack, unpack_untrusted
from protocol.errors import MalformedMessage, VersionMismatch
from protocol.names import chat_problem

PROTOCOL_VERSION: Final = 2
MESSAGE_DOMAIN: Final = b"tablier-msg/2\0"
DIGEST_BYTES: Final = 32
NO_HISTORY: Final = bytes(DIGEST_BYTES)
"""The history of a message built by hand and never placed (a real one is a SHA-256)."""


def integer(value: Any, name: str, low: int, high: int, *, seat: int | None = None) -> int:
    """*value* if it is an int (not a bool) within [low, high]; else MalformedMessage.
    *name* (here and below) is the field's, a pattern marked ``N_`` (``N_("the seat")``)."""
    if type(value) is not int or not low <= value <= high:
        raise MalformedMessage(Clause.of(N_("{name} must be a whole number from {low} to {high}"),
                                         name=Clause.of(name), low=low, high=high),
                               seat=seat)  # fmt: skip
    return value


def binary(value: Any, name: str, size: int, *, seat: int | None = None) -> bytes:
    """*value* if it is exactly *size* bytes; else MalformedMessage."""
    if type(value) is not bytes or len(value) != size:
        raise MalformedMessage(Clause.of(N_("{name} must be {size} bytes"), name=Clause.of(name),
                                         size=size), seat=seat)  # fmt: skip
    return value


def text(
    value: Any, name: str, max_chars: int, *, seat: int | None = None, allow_empty: bool = False
) -> str:
    """*value* if it is printable text of at most *max_chars* (no control characters)."""
    if type(value) is not str or len(value) > max_chars or (not value and not allow_empty):
        raise MalformedMessage(Clause.of(N_("{name} must be text of 1 to {most} characters"),
                                         name=Clause.of(name), most=max_chars),
                               seat=seat)  # fmt: skip
    if not value.isprintable():
        raise MalformedMessage(Clause.of(N_("{name} contains control characters"),
                                         name=Clause.of(name)), seat=seat)  # fmt: skip
    return value


Gate = Callable[[Any, int], object]
"""A payload field's gate: its value from an untrusted msgpack *value* sent in the name of
seat *seat* (``MalformedMessage`` if it is not one)."""


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a kind's payload: the attribute it fills, and its gate.

    >>> Field("link", exactly(N_("the link"), 32)).read(bytes(3), seat=0)
    Traceback (most recent call last):
    ...
    protocol.errors.MalformedMessage: the link must be 32 bytes
    """

    name: str
    gate: Gate
    nil: bool = False
    """Whether nil stands for "none" (and is taken as it is, ungated)."""

    def read(self, value: Any, seat: int) -> object:
        """The field's value from the untrusted *value*."""
        return None if self.nil and value is None else self.gate(value, seat)


def exactly(name: str, size: int) -> Gate:
    """The gate of a field of exactly *size* bytes (*name*: a pattern marked ``N_``)."""

    def gate(value: Any, seat: int) -> bytes:
        return binary(value, name, size)

    return gate


def printable(name: str, max_chars: int) -> Gate:
    """The gate of a field of printable text of 1 to *max_chars* characters."""

    def gate(value: Any, seat: int) -> str:
        return text(value, name, max_chars, seat=seat)

    return gate


def a_seat(name: str) -> Gate:
    """The gate of a field that names a seat."""

    def gate(value: Any, seat: int) -> int:
        return integer(value, name, 0, MAX_SEATS - 1)

    return gate


def _chat_line(value: Any, seat: int) -> str:
    line = text(value, N_("the chat line"), MAX_CHAT_CHARS, seat=seat)
    problem = chat_problem(line)
    if problem is not None:  # it would spill over the lines around it
        raise MalformedMessage(problem, seat=seat)
    return line


HISTORY: Final = Field("history", exactly(N_("the history"), DIGEST_BYTES))
"""The last field of every kind but chat (:func:`protocol.progress.next_digest`)."""


class SignedMessage:
    """What every game message has: a seat, an index, a time, a payload and a signature."""

    __slots__ = ()
    KIND: ClassVar[int]
    PAYLOAD: ClassVar[tuple[Field, ...]]
    """The kind-specific fields, in wire order."""
    seat: int
    n: int
    time: int
    signature: bytes

    def payload(self) -> list[Any]:
        """The kind-specific fields' values, in wire order."""
        return [getattr(self, field.name) for field in self.PAYLOAD]

    def unsigned_fields(self) -> list[Any]:
        """The array that is signed: everything but the signature."""
        return [PROTOCOL_VERSION, self.KIND, self.seat, self.n, self.time, *self.payload()]

    def encode(self) -> bytes:
        """The wire bytes of this message."""
        return pack([*self.unsigned_fields(), self.signature])


@dataclass(frozen=True, slots=True)
class Share(SignedMessage):
    """``seat`` reveals its next chain link for throw ``n``; ``renew`` is a new chain tip.

    ``renew`` must accompany the reveal of a chain's last link (and may come earlier); the
    seat's following links are checked against it. ``state`` is the thrower's hash of the game
    state he throws from (so every seat checks it holds the same game before each throw, in
    Goose as in Jacquet); the other seats' shares carry none. ``history``: the thrower's, the
    game records before his share; the other seats', those up to and including the thrower's
    share (docs/log-format.md).
    """

    KIND: ClassVar[int] = 1
    PAYLOAD: ClassVar[tuple[Field, ...]] = (
        Field("link", exactly(N_("the link"), 32)),
        Field("renew", exactly(N_("the renewal"), 32), nil=True),
        Field("state", exactly(N_("the state hash"), 32), nil=True),
        HISTORY,
    )
    seat: int
    n: int
    time: int
    link: bytes
    renew: bytes | None
    signature: bytes
    state: bytes | None = None
    history: bytes = NO_HISTORY


@dataclass(frozen=True, slots=True)
class Play(SignedMessage):
    """Jacquet: ``seat`` plays ``notation`` with throw ``n``'s dice, reaching ``state_hash``."""

    KIND: ClassVar[int] = 2
    PAYLOAD: ClassVar[tuple[Field, ...]] = (
        Field("notation", printable(N_("the play"), MAX_PLAY_CHARS)),
        Field("state_hash", exactly(N_("the state hash"), 32)),
        HISTORY,
    )
    seat: int
    n: int
    time: int
    notation: str
    state_hash: bytes
    signature: bytes
    history: bytes = NO_HISTORY


@dataclass(frozen=True, slots=True)
class Chat(SignedMessage):
    """A chat line; ``n`` counts the seat's chat lines from 0 (so none can be replayed)."""

    KIND: ClassVar[int] = 3
    PAYLOAD: ClassVar[tuple[Field, ...]] = (Field("text", _chat_line),)
    seat: int
    n: int
    time: int
    text: str
    signature: bytes


@dataclass(frozen=True, slots=True)
class _AtPosition(SignedMessage):
    """A message that only says something of ``seat`` after the first ``n`` game records
    (``history``): a resignation, or a seat saying when it saw its turn."""

    PAYLOAD: ClassVar[tuple[Field, ...]] = (HISTORY,)
    seat: int
    n: int
    time: int
    signature: bytes
    history: bytes = NO_HISTORY


@dataclass(frozen=True, slots=True)
class Resign(_AtPosition):
    """``seat`` resigns the match, having seen the first ``n`` game records (``history``)."""

    KIND: ClassVar[int] = 4


@dataclass(frozen=True, slots=True)
class Claim(SignedMessage):
    """``seat`` claims that ``accused`` abandoned the match: the first ``n`` game records
    (``history``) are all there were, and the time limit has passed since."""

    KIND: ClassVar[int] = 5
    PAYLOAD: ClassVar[tuple[Field, ...]] = (Field("accused", a_seat(N_("the accused seat"))),
                                            HISTORY)  # fmt: skip
    seat: int
    n: int
    time: int
    accused: int
    signature: bytes
    history: bytes = NO_HISTORY


@dataclass(frozen=True, slots=True)
class Seen(_AtPosition):
    """``seat``, awaited after the first ``n`` game records (``history``), saw it at ``time``.

    Sent by the awaited seat's client on its own when the record that made it awaited came
    late (dated a tenth of the limit or more before it arrived): its time limit then runs
    from ``time``, so a seat slow to reveal cannot eat the next one's time (docs/fair-dice.md).
    """

    KIND: ClassVar[int] = 6


GameMessage = Share | Play | Chat | Resign | Claim | Seen
"""Every kind a match log may hold: a closed set, for every reader of a log must know each
(docs/log-format.md). A new kind is its class and its name here."""

M = TypeVar("M", bound=SignedMessage)
More = TypeVar("More", bound=SignedMessage)


_HEADER: Final = ("seat", "n", "time", "signature")
"""The fields every kind has, outside its payload."""


class Kinds(Generic[M]):
    """A set of message kinds, by number: their encoding's inverse, derived from each
    kind's declaration (its ``KIND`` and ``PAYLOAD``).

    >>> resign = Resign(seat=0, n=3, time=9, signature=bytes(64))
    >>> KINDS.decode(resign.encode()) == resign, KINDS[4].__name__
    (True, 'Resign')
    """

    def __init__(self, *classes: type[M]) -> None:
        self.classes: Final = classes
        self._by_kind: dict[int, type[M]] = {cls.KIND: cls for cls in classes}
        if len(self._by_kind) != len(classes):
            raise ValueError(f"two kinds share a number: {classes}")
        for cls in classes:  # a declaration must name the fields its class has, each once
            named = [*_HEADER, *(field.name for field in cls.PAYLOAD)]
            if not is_dataclass(cls) or sorted(named) != sorted(
                f.name for f in dataclass_fields(cls)
            ):
                raise TypeError(f"{cls.__name__}.PAYLOAD does not name its fields: {named}")
        self._checked: dict[int, list[int]] = {cls.KIND: _checking_order(cls.PAYLOAD)
                                                for cls in classes}  # fmt: skip

    def with_kind(self, cls: type[More]) -> Kinds[M | More]:
        """These kinds and *cls*'s."""
        return Kinds[M | More](*self.classes, cls)

    def __getitem__(self, kind: int) -> type[M]:
        return self._by_kind[kind]

    def __iter__(self) -> Iterator[int]:
        return iter(self._by_kind)

    def decode(self, data: bytes) -> M:
        """Decode untrusted *data* into a message of one of these kinds (shape and types
        only, not the signature)."""
        fields = unpack_untrusted(data)
        if not isinstance(fields, list) or not fields:
            raise MalformedMessage(Clause.of(N_("not a Tablier message (expected an array)")))
        check_version(fields[0])
        if len(fields) < 6 or type(fields[1]) is not int or fields[1] not in self._by_kind:
            raise MalformedMessage(Clause.of(N_("not a Tablier game message (unknown kind or "
                                                "too short)")))  # fmt: skip
        kind = fields[1]
        cls: Callable[..., M] = self._by_kind[kind]
        declared = self._by_kind[kind].PAYLOAD
        if len(fields) != 6 + len(declared):
            raise MalformedMessage(Clause.of(N_("a message of kind {kind} has the wrong number "
                                                "of fields"), kind=kind))  # fmt: skip
        seat = integer(fields[2], N_("the seat"), 0, MAX_SEATS - 1)
        n = integer(fields[3], N_("the index"), 0, MAX_INDEX)
        time = integer(fields[4], N_("the time"), 0, MAX_TIME)
        signature = binary(fields[-1], N_("the signature"), 64)
        payload = {declared[k].name: declared[k].read(fields[5 + k], seat)
                   for k in self._checked[kind]}  # fmt: skip
        return cls(seat=seat, n=n, time=time, signature=signature, **payload)


def _checking_order(payload: tuple[Field, ...]) -> list[int]:
    """The order *payload*'s fields are checked in: the history first, then the fields that
    may be nil, then the rest in wire order — the order they always were, so that the same
    bytes are refused for the same reason."""

    def rank(k: int) -> tuple[bool, bool]:
        return payload[k] is not HISTORY, not payload[k].nil

    return sorted(range(len(payload)), key=rank)


KINDS: Final = Kinds[GameMessage](*get_args(GameMessage))
"""The kinds a match log may hold."""


def decode_message(data: bytes) -> GameMessage:
    """Decode untrusted *data* into a game message (shape and types only, not the signature)."""
    return KINDS.decode(data)


def signed_data(match_id: bytes, fields: list[Any]) -> bytes:
    """The exact bytes a seat signs for a message with these *fields* in match *match_id*."""
    return MESSAGE_DOMAIN + match_id + pack(fields)


def check_version(
    value: Any, what: str = N_("a Tablier message"), expected: int = PROTOCOL_VERSION
) -> None:
    """Raise :class:`VersionMismatch` (or MalformedMessage) unless *value* is *expected*;
    *what* names the thing it versions (a pattern marked ``N_``)."""
    if type(value) is not int:
        raise MalformedMessage(Clause.of(N_("not {what} (no protocol version)"),
                                         what=Clause.of(what)))  # fmt: skip
    if value != expected:
        raise VersionMismatch(Clause.of(N_("version {version}, expected {expected}"),
                                        version=value, expected=expected))  # fmt: skip


class _Signer(Protocol):
    def sign(self, data: bytes) -> bytes: ...


def seal(message: GameMessage, signer: _Signer, match_id: bytes) -> GameMessage:
    """*message* signed by *signer* (an :class:`~protocol.identity.Identity`) for *match_id*."""
    signature = signer.sign(signed_data(match_id, message.unsigned_fields()))
    return replace(message, signature=signature)
