"""A client payload kind is declared once, by its class (issue 30): its number and its
fields, each bounded by its type; the encoding, the decoding and their checks follow.

The kind below exists only in this file: one class and its handler, and no edit to
client/net/wire.py — the set of payloads that knows it is ``wire.PAYLOADS.with_kind(Ping)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

import msgpack
import pytest

from client.net import wire
from client.net.wire import PAYLOADS, Below, Size, WireError


@dataclass(frozen=True, slots=True)
class Ping:
    """A test-only payload: "are you there?", numbered, with a nonce to send back."""

    KIND: ClassVar[int] = 99
    number: Annotated[int, Below(1000)]
    nonce: Annotated[bytes, Size(8, "a ping whose nonce is not {size} bytes", exact=True)]
    note: str = ""


def handle(payload: wire.Payload | Ping) -> list[wire.Payload | Ping]:
    """Its handler: a ping is answered with a ping numbered one more (what a client's
    dispatch does with a payload: :meth:`client.net.playing.Playing.traffic`)."""
    match payload:
        case Ping(number, nonce):
            return [Ping(number + 1, nonce, "pong")]
        case _:
            return []


KNOWN = PAYLOADS.with_kind(Ping)


def test_a_payload_kind_defined_in_a_test_round_trips_and_is_handled() -> None:
    ping = Ping(7, b"12345678", "hi")
    data = KNOWN.encode(ping)
    assert msgpack.unpackb(data) == [99, 7, b"12345678", "hi"]
    assert KNOWN.decode(data) == ping
    answer = [KNOWN.decode(KNOWN.encode(out)) for out in handle(KNOWN.decode(data))]
    assert answer == [Ping(8, b"12345678", "pong")]
    rematch = wire.Rematch(bytes(32))  # the project's kinds are still there, and unhandled
    assert KNOWN.decode(KNOWN.encode(rematch)) == rematch and handle(rematch) == []


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ([99, 1000, b"12345678", ""], "a payload with a negative or huge number"),
        ([99, -1, b"12345678", ""], "a payload with a negative or huge number"),
        ([99, 1, b"1234567", ""], "a ping whose nonce is not 8 bytes"),
        ([99, 1, "12345678", ""], "a payload with fields of the wrong types"),
        ([99, True, b"12345678", ""], "a payload with fields of the wrong types"),
        ([99, 1, b"12345678"], "a ping payload of the wrong shape (2 fields)"),
        ([99], "a ping payload of the wrong shape (0 fields)"),
        ([98, 1, b"12345678", ""], "a payload of unknown kind 98"),
    ],
)
def test_a_test_kind_s_fields_are_held_to_their_declared_bounds(
    fields: list[object], said: str
) -> None:
    with pytest.raises(WireError) as refused:
        KNOWN.decode(msgpack.packb(fields, use_bin_type=True))
    assert str(refused.value) == said


def test_a_known_kind_of_the_wrong_shape_is_named_as_such() -> None:
    """An older client's hello (``[HELLO, seat, have]``, issue 28) is a hello of the wrong
    shape, not a payload of some unknown kind."""
    with pytest.raises(WireError) as refused:
        wire.decode(msgpack.packb([wire.HELLO, 1, 2]))
    assert str(refused.value) == "a hello payload of the wrong shape (2 fields)"
    with pytest.raises(WireError) as refused:
        wire.decode(msgpack.packb([wire.TRANSCRIPT, 1]))
    assert str(refused.value) == "a transcript payload of the wrong shape (1 field)"


def test_the_clients_own_payloads_do_not_know_a_test_kind() -> None:
    data = KNOWN.encode(Ping(1, b"12345678"))
    with pytest.raises(WireError, match="a payload of unknown kind 99"):
        wire.decode(data)
    with pytest.raises(TypeError, match="not a payload"):
        wire.encode(Ping(1, b"12345678"))  # type: ignore[arg-type]
    assert 99 in KNOWN and 99 not in PAYLOADS


def test_a_kind_must_have_its_own_number_and_fields_the_wire_can_carry() -> None:
    @dataclass(frozen=True, slots=True)
    class Impostor:
        KIND: ClassVar[int] = wire.HELLO
        note: str

    with pytest.raises(ValueError, match="two payload kinds share a number"):
        PAYLOADS.with_kind(Impostor)

    @dataclass(frozen=True, slots=True)
    class Floating:
        KIND: ClassVar[int] = 100
        ratio: float

    with pytest.raises(TypeError, match="a payload field is an int, bytes or str"):
        PAYLOADS.with_kind(Floating)


def test_every_client_payload_round_trips_through_its_declaration() -> None:
    """One of each kind the clients speak, as its number and fields in wire order."""
    payloads: list[wire.Payload] = [
        wire.Game(b"g"),
        wire.ProposalMsg(b"p", "token"),
        wire.JoinMsg(b"j"),
        wire.SetupMsg(b"s"),
        wire.Hello(1, 2, 3, 2**48 - 1, bytes(64)),
        wire.Transcript(5, b"t"),
        wire.Rematch(bytes(32)),
        wire.RematchWithdrawn(bytes(32)),
        wire.Spectate(b"s", 4),
        wire.SetupAsk(),
    ]
    assert sorted(type(p).KIND for p in payloads) == sorted(PAYLOADS) == list(range(10))
    for payload in payloads:
        data = wire.encode(payload)
        assert wire.decode(data) == payload
        fields = msgpack.unpackb(data)
        assert fields[0] == type(payload).KIND and len(fields) == 1 + len(payload.__slots__)
