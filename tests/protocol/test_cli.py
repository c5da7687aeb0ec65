"""``tablier verify``, ``tablier selfplay`` and ``tablier log export`` as a person uses them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from client.cli import main
from protocol.logfile import parse_log

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def jacquet_log(tmp_path_factory):
    path = tmp_path_factory.mktemp("logs") / "jacquet.tablier"
    assert (
        main(
            [
                "selfplay",
                "jacquet",
                "--match-to",
                "1",
                "--seed",
                "7",
                "--start-time",
                "1764500000000",
                "--out",
                str(path),
            ]
        )
        == 0
    )
    return path


def test_selfplay_then_verify_exits_0_with_a_summary(jacquet_log, capsys) -> None:
    capsys.readouterr()
    assert main(["verify", str(jacquet_log)]) == 0
    out = capsys.readouterr().out
    assert "game:    Jacquet (match to 1 point)" in out
    assert "players: Anne, Bastien" in out
    assert "wins the match" in out and "valid" in out


def test_selfplay_is_reproducible_and_goose_options_apply(tmp_path, capsys) -> None:
    paths = [tmp_path / f"{n}.tablier" for n in range(2)]
    for path in paths:
        assert (
            main(
                [
                    "selfplay",
                    "goose",
                    "--players",
                    "5",
                    "--rules",
                    "1792",
                    "--fee",
                    "2",
                    "--seed",
                    "x",
                    "--start-time",
                    "0",
                    "--out",
                    str(path),
                ]
            )
            == 0
        )
    assert paths[0].read_bytes() == paths[1].read_bytes()
    setup = parse_log(paths[0].read_bytes()).setup
    assert setup.seats == 5 and dict(setup.proposal.options) == {"fee": 2, "rules": "1792"}
    capsys.readouterr()
    assert main(["selfplay", "goose", "--match-to", "3", "--out", str(tmp_path / "x")]) == 2
    assert "--match-to is not an option of goose" in capsys.readouterr().err


def test_verify_names_the_first_bad_record(jacquet_log, tmp_path, capsys) -> None:
    data = bytearray(jacquet_log.read_bytes())
    contents = parse_log(bytes(data))
    data[contents.offsets[5] + 20] ^= 0x10  # inside record 5
    bad = tmp_path / "bad.tablier"
    bad.write_bytes(bytes(data))
    capsys.readouterr()
    assert main(["verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "INVALID: record 5 " in out


def test_verify_exits_2_for_what_is_not_a_log(tmp_path, capsys) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("not a match log\n")
    assert main(["verify", str(other)]) == 2
    assert "not a Tablier match log" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "missing.tablier")]) == 2


def test_export_json_and_text(jacquet_log, capsys) -> None:
    capsys.readouterr()
    assert main(["log", "export", str(jacquet_log), "--format", "json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["game"] == "jacquet"
    assert [p["name"] for p in lines[0]["players"]] == ["Anne", "Bastien"]
    kinds = {line["type"] for line in lines[1:]}
    assert kinds == {"share", "play"}
    assert all(len(line["dice"]) == 2 for line in lines[1:] if "dice" in line)
    assert main(["log", "export", str(jacquet_log), "--format", "text"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Jacquet, match to 1 point, bear-off backgammon\n")
    assert "\nGame 1\n" in text and "   1) " in text and "wins the match" in text


def test_the_commands_load_the_protocol_only_when_run() -> None:
    code = (
        "import sys\n"
        "import client.commands.verify, client.commands.selfplay, client.commands.log\n"
        "print(sorted(m for m in ('protocol', 'engine', 'cryptography', 'msgpack')"
        " if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_bench_reports_the_keys_it_promises() -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "bench_protocol.py"),
            "--json",
            "--goose-turns",
            "30",
            "--big-goose-turns",
            "10",
            "--match-to",
            "1",
            "--repeat",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    result = json.loads(out.stdout)
    assert result["verify_turns_per_s"] > 0 and result["log_bytes_per_turn"] > 100
    assert result["verify_turns_per_s_big_goose"] > 0
    assert [row["game"] for row in result["games"]] == [
        "goose (4 players)", "jacquet (match to 1)", "goose (15 players)"
    ]


def test_export_of_a_truncated_goose_log_prints_the_good_prefix_then_fails(
    tmp_path, capsys
) -> None:
    path = tmp_path / "goose.tablier"
    assert main(["selfplay", "goose", "--players", "3", "--seed", "2", "--start-time", "0",
                 "--out", str(path)]) == 0
    whole = path.read_bytes()
    path.write_bytes(whole[:-30])
    capsys.readouterr()
    assert main(["log", "export", str(path), "--format", "text"]) == 1
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0] == "Jeu de l'oie, 3 players, rules daumont, ante 4, fee 1"
    assert lines[1] == "Players: 1. Anne, 2. Bastien, 3. Camille"
    assert lines[2].startswith("Anne throws ") and "for the lots" in lines[2]
    assert "truncated" in captured.err
    assert main(["verify", str(path)]) == 1
