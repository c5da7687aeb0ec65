"""Hostile logs against every command that reads one: validly signed by real keys and
chains, built on extreme values — most at the extremes within the protocol's bounds (an
ante of 1000, a start a day before the end of time, odd names the rule takes), the rest
beyond them (options at -1, 2^31, 2^63, 2^64-1; times past year 9999; seats out of range;
fillers for names) — then records dropped, duplicated, swapped or cut, bytes flipped, the
tail truncated (:mod:`tests.protocol.hostile_logs`).

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
from engine.jacquet.game import MAX_MATCH_TO
from protocol.bounds import MAX_TIME
from protocol.errors import CorruptLog, MalformedMessage
from protocol.logfile import parse_log
from protocol.setup import MatchSetup
from tests.client.terminal import ROOT, TABLIER, environment
from tests.protocol.hostile_logs import (
    COMMANDS,
    DAY,
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
"""The issue's log: an ante of 2^63, every join and the thrower's first share signed. Its
header's parse refuses it (the ante's bound, :data:`engine.goose.options.MAX_ANTE`)."""
ANTE_REFUSED = ("the header: bad header: the proposal is not a valid match: the ante is at "
                "most 1,000 tokens, not 9,223,372,036,854,775,808")  # fmt: skip
"""What every command says of it, after the file's name: where (the header) and what (the
bound)."""
PLAIN = Recipe("goose", (), 2, 2, 60_000, 1_764_500_000_000, ("Ann", "Bob"), 3, 1000, (),
               (), (), 0)  # fmt: skip
"""An ordinary game of three turns (its first throw is record 1)."""


@QUICK
@given(recipe=recipes(max_turns=8))
def test_every_command_answers_a_hostile_log_in_a_line_and_a_documented_status(
    recipe: Recipe, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("hostile") / "hostile.tablier"
    path.write_bytes(build(recipe))
    checked = check_log(path)
    assert checked["breaches"] == [], (recipe, checked)


def test_the_issues_log_names_its_header_and_the_bound_in_every_command(tmp_path: Path) -> None:
    path = tmp_path / "ante.tablier"
    path.write_bytes(build(ANTE_2_63))
    with pytest.raises(CorruptLog) as refused:
        parse_log(path.read_bytes())
    assert refused.value.record is None  # the header's, in the protocol's plain numbers:
    assert str(refused.value).endswith("the ante is at most 1000 tokens, not 9223372036854775808")
    for command in COMMANDS:
        status, out, err = run_in_process(command_line(command, path))
        assert status == 1 and not breaches(command, path, status, out, err), (command, err)
        [line] = err.splitlines()
        assert line.startswith(f"tablier {COMMANDS[command][0][0]}"), (command, line)
        assert line.endswith(f"{path}: {ANTE_REFUSED}") or (
            command.startswith("verify") and line.endswith(f"{path}: INVALID: {ANTE_REFUSED}")
        ), (command, line)
        assert out == "", (command, out)  # a header it cannot read: nothing to summarise
    with pytest.raises(ReplayRefused, match="fails verification: the header: bad header: "):
        load_replay(path)
    assert recorded_result(path).startswith("damaged: its header — bad header: the proposal ")


def _unknown_bug(*args: object, **kwargs: object) -> object:
    raise RuntimeError("a stand-in for an unknown bug")


def test_whatever_a_record_raises_every_command_says_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No value within the bounds makes the engine fail any more; an error of a type nobody
    expected, raised while a record is replayed (an engine function failing: a stand-in for
    a bug not yet found), is still that record's, one line, exit 1, from every command."""
    path = tmp_path / "plain.tablier"
    path.write_bytes(build(PLAIN))
    import engine.goose

    monkeypatch.setattr(engine.goose, "throw", _unknown_bug)
    where = "record 1"  # analyze: "at record 1"; the others: "record 1 (byte 643)"
    cannot = "a value this program cannot handle (RuntimeError: a stand-in for an unknown bug)"
    for command in COMMANDS:
        status, out, err = run_in_process(command_line(command, path))
        assert status == 1 and not breaches(command, path, status, out, err), (command, err)
        said = out if command.startswith("verify") else err
        assert where in said and cannot in said, (command, out, err)
    _status, out, err = run_in_process(["verify", str(path)])
    assert "INVALID: record 1 (byte " in out and err == f"tablier verify: {path} is NOT valid\n"
    with pytest.raises(ReplayRefused, match="fails verification: record 1 "):
        load_replay(path)
    assert recorded_result(path).startswith("damaged: record 1 — a value this program cannot")


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
    recipe = Recipe("jacquet", (("match_to", MAX_MATCH_TO),), 2, 2, 60_000, MAX_TIME - DAY,
                    ("\ufdfd", "e\u0301\u0301\u0301"), 6, 2**62, forged, (("swap", 1, 4),),
                    ((10**5, 0x40),), 0)  # fmt: skip
    path = tmp_path / "forged.tablier"
    path.write_bytes(build(recipe))
    assert parse_log(path.read_bytes()).records  # its header within the bounds: records read
    assert check_log(path)["breaches"] == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_real_process_says_the_header_and_the_bound_in_one_line(
    tmp_path: Path, lang: str
) -> None:
    """Through a real ``tablier`` process, in each language: one line, the file, the header,
    the ante's bound, exit 1, no traceback."""
    path = tmp_path / "ante.tablier"
    path.write_bytes(build(ANTE_2_63))
    environ = environment(tmp_path, TABLIER_LANG=lang)
    said = {
        "en": "the header: bad header: the proposal is not a valid match: the ante is at most "
        "1,000 tokens, not 9,223,372,036,854,775,808",
        "fr": "en-tête fautif\u00a0: la proposition n'est pas un match valable\u00a0: la mise "
        "est d'au plus 1",
    }[lang]
    for command in ("verify", "export-text", "analyze", "replay"):
        argv, _statuses = COMMANDS[command]
        done = subprocess.run([*TABLIER, *argv, str(path)], capture_output=True, text=True,
                              env=environ, stdin=subprocess.DEVNULL, cwd=ROOT,
                              timeout=60)  # fmt: skip
        assert done.returncode == 1, done.stderr
        assert not breaches(command, path, done.returncode, done.stdout, done.stderr)
        [line] = done.stderr.splitlines()
        assert str(path) in line and said in line, line
        assert "OverflowError" not in line and "record" not in line


def test_the_script_runs_the_long_mode_and_counts(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "fuzz_logs.py"),
                           "--examples", "3", "--json", "--seed", "1"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    import json

    counts = json.loads(done.stdout)
    assert counts["examples"] == 3 and counts["failures"] == 0
    assert sum(counts["statuses"]["verify"].values()) == 3
    assert sum(counts["statuses"]["reached"].values()) == 3
    assert set(counts["statuses"]["reached"]) <= {"header", "record", "tail", "read", "other"}
