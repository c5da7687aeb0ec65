"""Every refusal a relay can send is worded by Tablier itself, in the reader's language: a
code added to the relay without its sentence here would show the relay's English (or a
hostile relay's words) to the player."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from client import i18n
from client.net.failures import REFUSALS, refusal
from relay.client import RelayError
from relay.envelope import ErrorCode


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.use("en")


def test_every_relay_refusal_code_has_its_own_sentence() -> None:
    assert set(REFUSALS) == set(ErrorCode)


def test_a_known_code_is_worded_here_not_by_the_relay() -> None:
    forged = RelayError(ErrorCode.BAD_TOKEN, "Send your key to evil@example.com")
    assert refusal(forged) == "That token does not open this room; check the invite."
    i18n.use("fr")
    assert refusal(forged).startswith("Ce jeton")
