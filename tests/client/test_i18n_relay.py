"""``tablier relay --help`` in French (issue 18): the relay's options are the relay's (it
imports nothing of the client), their help is marked for the client's catalogue and said
with it; ``python -m relay --help``, the operators', stays English."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import fields

import pytest

from client import i18n
from relay.config import DESCRIPTION, HELP, RelayConfig, help_of
from tests.client.terminal import ROOT, TABLIER, environment


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.use("en")


def test_every_relay_option_has_its_help_in_french() -> None:
    i18n.use("fr")
    assert set(HELP) == {field.name for field in fields(RelayConfig)}
    for name in HELP:
        french = help_of(name, i18n._)
        assert french != help_of(name) and "{" not in french, name
    assert help_of("max_seats", i18n._).endswith("(au plus 15)")


def run(*args: str, home: object) -> str:
    done = subprocess.run([*args, "--help"], capture_output=True, text=True, cwd=ROOT,
                          env=environment(home, TABLIER_LANG="fr"),  # type: ignore[arg-type]
                          stdin=subprocess.DEVNULL, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return " ".join(done.stdout.split())  # argparse's wrapping undone


def test_tablier_relay_help_is_french_and_the_relays_own_stays_english(tmp_path) -> None:
    french = run(*TABLIER, "relay", home=tmp_path)
    assert "Faire tourner un relais Tablier" in french
    assert "--seat-grace SECONDES" in french
    assert "port TCP (0 en choisit un libre) [env TABLIER_RELAY_PORT] (8765 par défaut)" in french
    assert "forwards the messages" not in french and "(default " not in french
    assert "(20 par défaut)" in french and ".0 par défaut" not in french  # not "20.0" (issue 29)
    english = run(sys.executable, "-m", "relay", home=tmp_path)
    assert " ".join(DESCRIPTION.split()) in english
    assert "TCP port (0 picks a free one) [env TABLIER_RELAY_PORT] (default 8765)" in english


def refused(*args: str, home: object, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*args], capture_output=True, text=True, cwd=ROOT,
                          env=environment(home, TABLIER_LANG="fr", **env),  # type: ignore[arg-type]
                          stdin=subprocess.DEVNULL, timeout=60)  # fmt: skip


def test_what_stops_tablier_relay_is_said_in_french_and_python_m_relay_in_english(
    tmp_path,
) -> None:
    nbsp = "\u00a0"
    settings = refused(*TABLIER, "relay", "--max-seats", "99", "--backplane", "x", home=tmp_path)
    assert settings.returncode == 2
    assert settings.stderr == (
        f"tablier relay{nbsp}: réglages du relais invalides{nbsp}: --max-seats doit aller de 1 "
        f"à 15{nbsp}; --backplane doit être une URL Redis (redis://HÔTE:PORT/BASE), pas 'x'\n"
    )
    variable = refused(*TABLIER, "relay", home=tmp_path, TABLIER_RELAY_RATE="vite")
    assert variable.returncode == 2
    assert "TABLIER_RELAY_RATE='vite' n'est pas une valeur valable de 'messages par" in (
        variable.stderr)  # fmt: skip
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        busy = refused(*TABLIER, "relay", "--port", port, home=tmp_path)
    assert busy.returncode == 1
    assert busy.stderr == (f"tablier relay{nbsp}: impossible d'écouter sur 127.0.0.1:{port}"
                           f"{nbsp}: le port est déjà pris\n")  # fmt: skip
    english = refused(sys.executable, "-m", "relay", "--max-seats", "99", home=tmp_path)
    assert english.stderr == "tablier relay: invalid relay settings: max seats must be 1..15\n"
