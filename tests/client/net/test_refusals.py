"""Every refusal and notice a relay can send is worded by Tablier itself, in the reader's
language: a code added to the relay without its sentence here would show the relay's English
(or a hostile relay's words) to the player. What travels is the code; the relay's text is
for its operators."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from client import i18n
from client.net.failures import NOTICES, REFUSALS, garbled, news, refusal
from relay.client import RelayError
from relay.envelope import EnvelopeError, ErrorCode, Notice, NoticeCode


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


def test_every_relay_notice_code_has_its_own_sentence() -> None:
    assert set(NOTICES) == set(NoticeCode)
    restarting = Notice(NoticeCode.RELAY_RESTARTING, "Relay restarting; reconnect shortly.")
    i18n.use("fr")
    assert news(restarting) == (
        "Le relais redémarre\u00a0; Tablier se reconnecte dès qu'il est de retour."
    )


def test_a_frame_the_relay_garbled_is_said_in_the_reader_s_words() -> None:
    newer = EnvelopeError(ErrorCode.UNSUPPORTED_VERSION, "The relay speaks envelope version 9")
    junk = EnvelopeError(ErrorCode.BAD_ENVELOPE, "That frame is not a msgpack relay envelope.")
    i18n.use("fr")
    assert garbled(newer).startswith("il parle une autre version du protocole du relais")
    assert garbled(junk) == "il a envoyé une trame qui n'est pas une enveloppe de relais"
    assert refusal(RelayError("unexpected", "The relay answered a join with Created(...)"))\
        .startswith("Le relais a répondu autre chose")  # fmt: skip
