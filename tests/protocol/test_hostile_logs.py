"""Hostile logs against every command that reads one: validly signed by real keys and
chains, built on extreme values (options at 0, -1, 2^31, 2^63, 2^64-1; times far past and
future; seats out of range; odd Unicode names), then records dropped, duplicated, swapped or
cut, bytes flipped, the tail truncated (:mod:`tests.protocol.hostile_logs`).

The invariant (``client/commands/log_gate.py``): each command ends with one of its documented
statuses and at most :data:`~tests.protocol.hostile_logs.MAX_ERROR_LINES` lines on standard
error, naming the file when it refuses it; never a traceback, never an exception out of
``main``. The quick run here draws :data:`QUICK` examples; ``scripts/fuzz_logs.py
--examples N`` is the long one.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from client.game.replay import ReplayRefused, load_replay
from client.screens.match_logs import recorded_result
from protocol.errors import CorruptLog, MalformedMessage
from protocol.logfile import parse_log
from protocol.setup import MatchSetup
from tests.client.terminal import ROOT, TABLIER, environment
from tests.protocol.hostile_logs import (
    COMMANDS,
    Forged,
    Recipe,
    breaches,
    build,
    check_log,
    command_line,
    recipes,
    run_in_process,
)

settings.register_profile(
    "hostile-logs-quick",
    max_examples=40,  # about four seconds: scripts/fuzz_logs.py --examples N goes further
    deadline=None,  # a log of a dozen turns, analysed: no per-example clock
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.function_scoped_fixture],
)  # fmt: skip
QUICK = settings.get_profile("hostile-logs-quick")

ANTE_2_63 = Recipe("goose", (("ante", 2**63),), 2, 2, 60_000, 1_764_500_000_000,
                   ("Ann", "Bob"), 3, 1000, (), (), (), 0)  # fmt: skip
"""The issue's log: an ante of 2^63, every join and the thrower's first share signed."""


@QUICK
@given(recipe=recipes(max_turns=8))
def test_every_command_answers_a_hostile_log_in_a_line_and_a_documented_status(
    recipe: Recipe, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("hostile") / "hostile.tablier"
    path.write_bytes(build(recipe))
    checked = check_log(path)
    assert checked["breaches"] == [], (recipe, checked)


def test_the_issues_log_names_its_record_in_every_command(tmp_path: Path) -> None:
    path = tmp_path / "ante.tablier"
    path.write_bytes(build(ANTE_2_63))
    where = "record 0 (byte "
    cannot = "a value this program cannot handle (OverflowError: "
    checked = check_log(path)
    assert checked["breaches"] == []
    assert checked["statuses"] == {
        "verify": 1,
        "export-json": 1,
        "export-text": 1,
        "analyze": 1,
        "replay": 1,
        "verify-two": 2,
    }  # its first half cuts the header: no log
    _status, out, err = run_in_process(["log", "export", "--format", "json", str(path)])
    assert err.startswith(f"tablier log export: {path}: {where}") and cannot in err
    _status, out, err = run_in_process(["verify", str(path)])
    assert f"INVALID: {where}" in out and cannot in out
    assert err == f"tablier verify: {path} is NOT valid\n"
    with pytest.raises(ReplayRefused, match="fails verification: record 0 "):
        load_replay(path)


@pytest.mark.parametrize("raised", [OverflowError("int too big to convert"),
                                    MalformedMessage("the ante must be at most 1000")])  # fmt: skip
def test_whatever_the_header_raises_every_command_says_the_header(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, raised: Exception
) -> None:
    """The header's parse may refuse an option with the protocol's error (bounded options)
    or fail on it with any other: each is the header's CorruptLog, one line from every
    command, exit 1."""
    path = tmp_path / "header.tablier"
    path.write_bytes(build(ANTE_2_63))

    def refuse(fields: object) -> MatchSetup:
        raise raised

    monkeypatch.setattr(MatchSetup, "from_fields", staticmethod(refuse))
    with pytest.raises(CorruptLog) as refused:
        parse_log(path.read_bytes())
    assert refused.value.record is None and str(raised) in str(refused.value)
    for command in COMMANDS:
        status, out, err = run_in_process(command_line(command, path))
        assert status == 1 and not breaches(command, path, status, out, err), (command, err)
        assert f"{path}: " in err and "the header: bad header: " in err, (command, err)
    assert recorded_result(path).startswith("damaged: its header — bad header: ")


def test_forged_records_at_the_extremes_are_said_and_refused(tmp_path: Path) -> None:
    forged = (Forged("chat", 255, 2**63 - 1, 2**63 - 1, 0, "\u202e" * 5, True),
              Forged("claim", 0, 2**31, 2**63 - 1, 2**64 - 1, "", True),
              Forged("share", 16, 0, 0, 0, "", False))  # fmt: skip
    recipe = Recipe("jacquet", (("match_to", 2**31 - 1),), 2, 2, 60_000, 2**63 - 10**6,
                    ("ㅤ", "e\u0301\u0301"), 6, 2**62, forged, (("swap", 1, 4),),
                    ((10**5, 0x40),), 0)  # fmt: skip
    path = tmp_path / "forged.tablier"
    path.write_bytes(build(recipe))
    assert check_log(path)["breaches"] == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_real_process_says_the_record_in_one_line(tmp_path: Path, lang: str) -> None:
    """Through a real ``tablier`` process, in each language: one line, the file, the record,
    exit 1, no traceback."""
    path = tmp_path / "ante.tablier"
    path.write_bytes(build(ANTE_2_63))
    environ = environment(tmp_path, TABLIER_LANG=lang)
    for command in ("export-text", "analyze", "replay"):
        argv, _statuses = COMMANDS[command]
        done = subprocess.run([*TABLIER, *argv, str(path)], capture_output=True, text=True,
                              env=environ, stdin=subprocess.DEVNULL, cwd=ROOT,
                              timeout=60)  # fmt: skip
        assert done.returncode == 1, done.stderr
        assert not breaches(command, path, done.returncode, done.stdout, done.stderr)
        [line] = done.stderr.splitlines()
        assert str(path) in line and "OverflowError" in line
        assert ("record 0" if lang == "en" else "enregistrement 0") in line
        if lang == "fr":
            assert "une valeur que ce programme ne sait pas traiter" in line


def test_the_script_runs_the_long_mode_and_counts(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "fuzz_logs.py"),
                           "--examples", "3", "--json", "--seed", "1"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    import json

    counts = json.loads(done.stdout)
    assert counts["examples"] == 3 and counts["failures"] == 0
    assert sum(counts["statuses"]["verify"].values()) == 3
