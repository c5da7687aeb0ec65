"""``tablier verify`` in French (issue 18): its labels, its result, what the log proves, how
two logs part and what is wrong with a damaged or missing one are said in the language the
locale asks for; the English ones are tests/protocol/test_proof.py's. The other commands
reading logs say a log's damage the same way."""

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


def tablier(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    environ = environment(home, LANG="fr_FR.UTF-8")
    for variable in i18n.ENVIRONMENT[:-1]:  # only LANG speaks: the CLI's own choice
        environ.pop(variable, None)
    return subprocess.run([*TABLIER, *args], capture_output=True, text=True, env=environ,
                          stdin=subprocess.DEVNULL, cwd=ROOT, timeout=60)  # fmt: skip


def verify(*logs: Path, home: Path) -> subprocess.CompletedProcess[str]:
    return tablier("verify", *map(str, logs), home=home)


def of(name: str) -> str:
    """ "de" and a name, as French writes them: elided before a vowel ("d'Anne")."""
    return f"d'{name}" if name[0] in "AEIOUÉ" else f"de {name}"


def test_verify_says_a_claimed_abandonment_and_its_proof_in_french(tmp_path: Path) -> None:
    match, keys = played_out("forged-abandonment")
    winner, loser = NAMES[match.ended.winner], NAMES[1 - match.ended.winner]
    forged = tmp_path / "loser.tablier"
    forged.write_bytes(forge_abandonment(match, keys, last=False))
    done = verify(forged, home=tmp_path)
    assert done.returncode == 3, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"jeu{NBSP}:      Jacquet (match en 1 point)"
    assert lines[1] == f"joueurs{NBSP}:  {', '.join(NAMES)}"
    assert lines[2] == f"résultat{NBSP}: {winner} a quitté le match (réclamé après le délai)"
    assert lines[3].startswith(f"preuve{NBSP}:   la seule parole {of(loser)}{NBSP}: {loser} a "
                               "signé, à l'enregistrement ")  # fmt: skip
    assert (
        f"un journal {of(winner)}, ou de tout autre joueur" in lines[3]
        and "(tablier verify CE_JOURNAL LEUR_JOURNAL)" in lines[3]
    )
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
    claim = f"la réclamation {of(loser)} selon laquelle {winner} a quitté le match"
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
    assert (f"l'enregistrement {of(winner)} à cet endroit est daté 4{NBSP}min 59{NBSP}s avant le "
            f"moment où, selon {loser}, son temps était écoulé") in done.stdout  # fmt: skip


def test_a_damaged_or_missing_log_is_said_in_french_by_every_command(tmp_path: Path) -> None:
    match, _keys = played_out("damaged-log")
    damaged = tmp_path / "damaged.tablier"
    damaged.write_bytes(match.log_bytes() + b"\xc1")  # a garbled byte after the last record
    record, offset = len(match.sessions[0].records), len(match.log_bytes())
    assert offset >= 1000  # written as French writes it: a narrow no-break space per thousand
    where = "enregistrement {} (octet {})".format(record, f"{offset:,}".replace(",", "\u202f"))
    garbled = f"{where}{NBSP}: des octets brouillés, pas un enregistrement"
    done = verify(damaged, home=tmp_path)
    assert done.returncode == 1
    assert f"\nNON VALIDE{NBSP}: {garbled}\n" in done.stdout + "\n"
    assert done.stderr == f"tablier verify{NBSP}: {damaged} n'est PAS valide\n"
    exported = tablier("log", "export", str(damaged), home=tmp_path)
    assert exported.returncode == 1
    assert exported.stderr == f"tablier log export{NBSP}: {damaged}{NBSP}: {garbled}\n"
    missing = tmp_path / "missing.tablier"
    for command in ("verify", "replay", "analyze"):
        refused = tablier(command, str(missing), home=tmp_path)
        assert refused.returncode == 2, refused.stderr
        assert refused.stderr == (f"tablier {command}{NBSP}: impossible de lire {missing}{NBSP}: "
                                  "ce fichier ou ce dossier n'existe pas\n")  # fmt: skip
    junk = tmp_path / "junk.tablier"
    junk.write_bytes(b"not a log")
    refused = tablier("log", "export", str(junk), home=tmp_path)
    assert refused.stderr == (f"tablier log export{NBSP}: {junk} n'est pas un journal de match "
                              "Tablier\n")  # fmt: skip


def test_selfplay_refuses_options_the_engine_refuses_in_french(tmp_path: Path) -> None:
    out = str(tmp_path / "out.tablier")
    ante = tablier("selfplay", "goose", "--ante", "-3", "--out", out, home=tmp_path)
    assert ante.stderr == f"tablier selfplay{NBSP}: la mise ne peut être négative (-3)\n"
    points = tablier("selfplay", "jacquet", "--match-to", "0", "--out", out, home=tmp_path)
    assert points.stderr == (f"tablier selfplay{NBSP}: un match se joue en 1 à 99 points, "
                             "pas 0\n")  # fmt: skip


def test_verify_says_a_matchs_options_in_french(tmp_path: Path) -> None:
    """Not the protocol's keys (``ante=4, fee=1``, issue 29): the options as the room says
    them, in the reader's language."""
    log = tmp_path / "goose.tablier"
    made = tablier("selfplay", "goose", "--rules", "1792", "--ante", "2", "--fee", "3",
                   "--seed", "3", "--out", str(log), home=tmp_path)  # fmt: skip
    assert made.returncode == 0, made.stderr
    done = verify(log, home=tmp_path)
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith(f"jeu{NBSP}:      Jeu de l'oie (") and first.endswith(")")
    assert sorted(first.split("(")[1].rstrip(")").split(", ")) == [
        "amende 3", "mise 2", "règles 1792"
    ]  # fmt: skip


def test_a_matchs_options_are_said_in_french_hints_allowed_too() -> None:
    """The room's heading said ``coach 1`` (issue 29): the option that allows hints is said
    as what it allows; the points of a match take their plural."""
    from protocol.games import said_options

    i18n.use("fr")
    try:
        said = said_options((("match_to", 1), ("bearoff", "trictrac"), ("coach", 1)), i18n.words())
        assert said == "match en 1 point, sortie trictrac, conseils permis"
        assert said_options((("match_to", 5),), i18n.words()) == "match en 5 points"
    finally:
        i18n.use("en")
