"""``tablier verify`` in French (issue 18): its labels, its result, what the log proves and
how two logs part are said in the language the locale asks for; the English ones are
tests/protocol/test_proof.py's."""

from __future__ import annotations

import subprocess
from pathlib import Path

from client import i18n
from tests.client.terminal import ROOT, TABLIER, environment
from tests.protocol.test_proof import NAMES, forge_abandonment, played_out

NBSP = "\u00a0"
ENGLISH_WORDS = ("game:", "players:", "result:", "proof:", "turns:", "thrown", "missed",
                 "signed records", "word alone", "abandoned", "record ", "dated",
                 "first:")  # fmt: skip


def verify(*logs: Path, home: Path) -> subprocess.CompletedProcess[str]:
    environ = environment(home, LANG="fr_FR.UTF-8")
    for variable in i18n.ENVIRONMENT[:-1]:  # only LANG speaks: the CLI's own choice
        environ.pop(variable, None)
    return subprocess.run([*TABLIER, "verify", *map(str, logs)], capture_output=True,
                          text=True, env=environ, stdin=subprocess.DEVNULL, cwd=ROOT,
                          timeout=60)  # fmt: skip


def test_verify_says_a_claimed_abandonment_and_its_proof_in_french(tmp_path: Path) -> None:
    match, keys = played_out("forged-abandonment")
    winner, loser = NAMES[match.ended.winner], NAMES[1 - match.ended.winner]
    forged = tmp_path / "loser.tablier"
    forged.write_bytes(forge_abandonment(match, keys, last=False))
    done = verify(forged, home=tmp_path)
    assert done.returncode == 3, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"jeu{NBSP}:      jacquet (match_to=1)"
    assert lines[1] == f"joueurs{NBSP}:  {', '.join(NAMES)}"
    assert lines[2] == f"résultat{NBSP}: {winner} a quitté la partie (réclamée après le délai)"
    assert lines[3].startswith(f"preuve{NBSP}:   la seule parole de {loser}{NBSP}: {loser} a "
                               "signé, à l'enregistrement ")  # fmt: skip
    assert "un journal de " in lines[3] and "(tablier verify CE_JOURNAL LEUR_JOURNAL)" in lines[3]
    assert lines[4].startswith(f"tours{NBSP}:    ") and " jetés, " in lines[4]
    assert "enregistrements signés)" in lines[4]
    assert "résultat NON prouvé" in lines[-1]
    for word in ENGLISH_WORDS:
        assert word not in done.stdout, word


def test_verify_says_where_two_logs_part_and_who_signed_both_in_french(tmp_path: Path) -> None:
    match, keys = played_out("forged-abandonment")
    winner, loser = NAMES[match.ended.winner], NAMES[1 - match.ended.winner]
    forged, honest = tmp_path / "loser.tablier", tmp_path / "winner.tablier"
    forged.write_bytes(forge_abandonment(match, keys, last=False))
    honest.write_bytes(match.log_bytes())
    done = verify(forged, honest, home=tmp_path)
    assert done.returncode == 1, done.stderr
    claim = f"la réclamation de {loser} selon laquelle {winner} a quitté la partie"
    assert f"\n{forged} comparé à {honest}{NBSP}:\n" in done.stdout
    assert "les journaux divergent à l'enregistrement " in done.stdout
    assert f"\n  premier{NBSP}: {claim}, en date du " in done.stdout
    assert f"\n{loser} a signé les deux{NBSP}: {claim}" in done.stdout
    assert "l'un des deux est un mensonge" in done.stdout
    for word in ENGLISH_WORDS:
        assert word not in done.stdout, word
    # Cut at her last move: nobody signed both sides, and the dates say what each claims.
    forged.write_bytes(forge_abandonment(match, keys, last=True))
    done = verify(forged, honest, home=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "aucun joueur n'a signé des deux côtés" in done.stdout
    assert (f"l'enregistrement de {winner} à cet endroit est daté 4{NBSP}min 59{NBSP}s avant le "
            f"moment où, selon {loser}, son temps était écoulé") in done.stdout  # fmt: skip
