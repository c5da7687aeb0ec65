"""A signed message kind is declared once, by its class (issue 30): its number and its
payload's fields with their gates; encoding and decoding follow from that declaration.

The kinds a match log may hold stay a closed set (``protocol.messages.GameMessage``): every
reader of a log must know each one (docs/log-format.md), so a kind defined here is decoded
by a set that adds it (``KINDS.with_kind``), never by the sessions' ``decode_message``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

import pytest

from protocol.codec import pack
from protocol.errors import MalformedMessage
from protocol.messages import (
    HISTORY,
    KINDS,
    NO_HISTORY,
    Field,
    Share,
    SignedMessage,
    a_seat,
    decode_message,
    exactly,
    printable,
)


@dataclass(frozen=True, slots=True)
class Nudge(SignedMessage):
    """A test-only kind: ``seat`` nudges ``whom``, with a word and an optional token."""

    KIND: ClassVar[int] = 42
    PAYLOAD: ClassVar[tuple[Field, ...]] = (
        Field("whom", a_seat("the nudged seat")),
        Field("word", printable("the word", 8)),
        Field("token", exactly("the token", 4), nil=True),
        HISTORY,
    )
    seat: int
    n: int
    time: int
    whom: int
    word: str
    token: bytes | None
    signature: bytes
    history: bytes = NO_HISTORY


NUDGE = Nudge(seat=1, n=7, time=1_000, whom=0, word="psst", token=None, signature=bytes(64))
WITH_NUDGES = KINDS.with_kind(Nudge)


def test_a_kind_declared_in_a_test_round_trips_through_its_derived_encoding() -> None:
    data = NUDGE.encode()
    assert data == pack([2, 42, 1, 7, 1_000, 0, "psst", None, NO_HISTORY, bytes(64)])
    assert WITH_NUDGES.decode(data) == NUDGE
    tokened = replace(NUDGE, token=b"abcd")
    assert WITH_NUDGES.decode(tokened.encode()) == tokened
    share = Share(seat=1, n=0, time=5, link=bytes(32), renew=None, signature=bytes(64))
    assert WITH_NUDGES.decode(share.encode()) == share  # the protocol's kinds are still there


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"whom": 15}, "the nudged seat must be a whole number from 0 to 14"),
        ({"word": "too long!"}, "seat 1: the word must be text of 1 to 8 characters"),
        ({"word": "a\x00"}, "seat 1: the word contains control characters"),
        ({"token": b"abc"}, "the token must be 4 bytes"),
        ({"history": b"short"}, "the history must be 32 bytes"),
    ],
)
def test_each_field_of_a_declared_kind_is_held_to_its_gate(
    change: dict[str, object], said: str
) -> None:
    with pytest.raises(MalformedMessage) as refused:
        WITH_NUDGES.decode(replace(NUDGE, **change).encode())
    assert str(refused.value) == said


def test_a_declared_kind_with_a_field_missing_or_too_many_is_refused() -> None:
    fields = [2, 42, 1, 7, 1_000, 0, "psst", None, NO_HISTORY, bytes(64)]
    for wrong in (fields[:-2] + fields[-1:], [*fields[:-1], None, fields[-1]]):
        with pytest.raises(MalformedMessage, match="a message of kind 42 has the wrong number"):
            WITH_NUDGES.decode(pack(wrong))


def test_the_sessions_kinds_are_closed_a_test_kind_is_not_one_of_them() -> None:
    with pytest.raises(MalformedMessage, match=r"not a Tablier game message \(unknown kind"):
        decode_message(NUDGE.encode())
    assert 42 not in KINDS and 42 in WITH_NUDGES


def test_a_kind_must_have_its_own_number_and_name_its_own_fields() -> None:
    @dataclass(frozen=True, slots=True)
    class Impostor(Nudge):
        KIND: ClassVar[int] = 1  # the share's

    with pytest.raises(ValueError, match="two kinds share a number"):
        KINDS.with_kind(Impostor)

    @dataclass(frozen=True, slots=True)
    class Misnamed(Nudge):
        KIND: ClassVar[int] = 43
        PAYLOAD: ClassVar[tuple[Field, ...]] = (*Nudge.PAYLOAD[:-1], Field("whom", a_seat("x")))

    with pytest.raises(TypeError, match="does not name its fields"):
        KINDS.with_kind(Misnamed)
