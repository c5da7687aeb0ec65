"""What the protocol refuses when a player acts out of turn is said in his language (issue
18): the session gives the reason as a clause, the client says it (client.i18n.say,
what the networked game's NotYourTurnError carries); its English stays the error's."""

from __future__ import annotations

import errno
from collections.abc import Iterator
from pathlib import Path

import pytest

from client import i18n
from engine.errors import InvalidOptionsError
from engine.jacquet import Move
from protocol.errors import LocalProtocolError, NotALog
from protocol.identity import seeded_source
from protocol.local import LocalMatch

NBSP = "\u00a0"


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.use("en")


def refused(action: object) -> LocalProtocolError:
    with pytest.raises(LocalProtocolError) as refusal:
        action()  # type: ignore[operator]
    return refusal.value


def test_acting_out_of_turn_is_refused_in_french() -> None:
    match = LocalMatch.create("jacquet", {}, names=("Ann", "Bob"), now=0,
                              random_source=seeded_source("refusals"))  # fmt: skip
    waiting = match.sessions[1 - match.awaiting.seat]
    i18n.use("fr")
    throw = refused(lambda: waiting.throw(1))
    assert (i18n.say(throw.reason), str(throw.reason)) == ("ce n'est pas à vous de jeter",
                                                          "it is not your throw")  # fmt: skip
    play = refused(lambda: waiting.play((Move(1, 7),), 1))
    assert i18n.say(play.reason) == "ce n'est pas à vous de jouer"
    chat = refused(lambda: waiting.chat("", 1))
    assert i18n.say(chat.reason) == (
        "une ligne de discussion compte de 1 à 500 caractères imprimables"
    )
    match.resign(0, 2)
    over = refused(lambda: match.sessions[1].throw(3))
    assert (i18n.say(over.reason), str(over)) == ("le match est fini", "the match is over")


def test_a_protocol_error_without_a_clause_keeps_its_reason() -> None:
    i18n.use("fr")
    worded = LocalProtocolError(i18n._("the match is over"), seat=0)  # worded by the client
    assert i18n.say(worded.reason) == "le match est fini"


def test_an_error_is_said_whole_in_french_and_its_english_kept(tmp_path: Path) -> None:
    """:func:`client.i18n.say_error`: a protocol error with its seat or record, an engine
    error, a system error after its file; ``str()`` stays English for the logs."""
    from engine.goose import GooseOptions
    from protocol.logfile import read_log

    i18n.use("fr")
    with pytest.raises(NotALog) as unreadable:
        read_log(tmp_path / "gone.tablier")
    gone = tmp_path / "gone.tablier"
    assert i18n.say_error(unreadable.value) == (f"impossible de lire {gone}{NBSP}: ce fichier "
                                                "ou ce dossier n'existe pas")  # fmt: skip
    assert str(unreadable.value).endswith(": there is no such file or folder")
    with pytest.raises(InvalidOptionsError) as options:
        GooseOptions(players=2, fee=-1)
    assert i18n.say_error(options.value) == "l'amende ne peut être négative (-1)"
    assert str(options.value) == "the fee cannot be negative (-1)"
    full = OSError(errno.ENOSPC, "No space left on device", "/media/full/x.tablier")
    assert i18n.say_error(full) == f"/media/full/x.tablier{NBSP}: le disque est plein"
    assert i18n.say_error(ValueError("words of the client's own")) == "words of the client's own"
