"""A peer's fault reaches a French player in French (issue 18): the protocol gives its
reason as a clause, the honest client says it in its reader's language — the notification,
the end screen, ``tablier verify`` of the log it kept — while the fault's English stays
what the log's checks and ``str()`` report, and the log's bytes are those of any language."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from client import i18n
from client.net.room import host_room
from client.screens.end import ending_summary
from client.setup import SessionSettings
from protocol.games import game_named
from protocol.verify import verify_log
from relay.server import RelayServer
from tests.client.terminal import ROOT, TABLIER, environment
from tests.network.conftest import QUICK
from tests.network.hostile import Hostile, attack_host
from tests.network.players import TIMEOUT

NBSP = "\u00a0"


@pytest.fixture(autouse=True)
def reading_french() -> Iterator[None]:
    """The honest player reads French (the language is one per process: back to English
    afterwards)."""
    i18n.use("fr")
    yield
    i18n.use("en")


@pytest.mark.parametrize(
    ("attack", "english", "french"),
    [
        ("forged share",
         "Mallory's dice share for throw 0 does not follow from their committed chain",
         "la part de dés de Mallory pour le jet 0 ne découle pas de sa chaîne engagée "
         "(une part forgée ou rejouée)"),
        ("wrong state hash",
         "their game state differs from ours",
         "de Mallory, son état de jeu diffère du nôtre"),
    ],
)  # fmt: skip
async def test_a_peer_s_fault_is_told_in_french_to_a_french_player(
    relay: RelayServer,
    settings: Callable[[str], SessionSettings],
    tmp_path: Path,
    attack: str,
    english: str,
    french: str,
) -> None:
    honest = await host_room(relay.url, "jacquet", {"match_to": 1}, seats=2, name="Ada",
                             settings=settings("Ada"), backoff=QUICK)  # fmt: skip
    mallory = Hostile(honest.invite, settings("Mallory"))
    try:
        async with asyncio.timeout(TIMEOUT):
            game = await attack_host(honest, mallory, attack, settings("Ada"))
        offence = honest.match.offences[0]
        assert (offence.who, offence.fatal) == ("Mallory", True)
        assert french in offence.text, offence.text  # the notification's words
        assert game.ended is not None and game.ended.error is not None
        assert english in str(game.ended.error)  # its English, for logs and bug reports
        summary = ending_summary(game_named(game.setup.game), game.ended, game.names, game.state,
                                 game.log_path)
        assert summary.title == "Le match a été arrêté."
        line = summary.lines[0]
        assert line.startswith(f"Mallory (place 2){NBSP}: ") and french in line, line
        assert game.log_path is not None
        assert english in (verify_log(game.log_path).error or "")
    finally:
        await honest.close()
    # The log it kept, checked by `tablier verify` in French: the record, the seat, the fault.
    verified = subprocess.run([*TABLIER, "--lang", "fr", "verify", str(game.log_path)],
                              capture_output=True, text=True, env=environment(tmp_path),
                              cwd=ROOT, timeout=60)  # fmt: skip
    assert verified.returncode == 1
    invalid = next(line for line in verified.stdout.splitlines() if line.startswith("NON VALIDE"))
    assert f"{NBSP}: place 1{NBSP}: " in invalid and french in invalid, invalid
    assert english not in verified.stdout
