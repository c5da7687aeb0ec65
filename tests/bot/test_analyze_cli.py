"""``tablier analyze`` and ``tablier selfplay --levels``, run as the processes people run."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from client.commands.analyze_log import Analysed
from client.commands.analyze_text import format_report
from engine.bot.analysis_json import analysis_from_json
from engine.bot.players import make_player
from engine.jacquet import JacquetState, Moved, Rolled
from protocol.logfile import read_log
from protocol.verify import replay

TABLIER = str(Path(sys.executable).with_name("tablier"))


def tablier(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TABLIER, *args], capture_output=True, text=True)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("logs")
    for game, extra in (("jacquet", ["--levels", "greedy,2"]), ("goose", ["--players", "3"])):
        result = tablier("selfplay", game, "--seed", "cli", "--start-time", "0",
                         "--out", str(folder / f"{game}.tablier"), *extra)  # fmt: skip
        assert result.returncode == 0, result.stderr
    return folder


def test_selfplay_levels_choose_each_seats_player(logs: Path) -> None:
    greedy = make_player("greedy", seed=0)
    checked = 0
    state_before = None
    for step in replay(read_log(logs / "jacquet.tablier")):
        rolled = [e for e in step.events if isinstance(e, Rolled)]
        moves = tuple(e.move for e in step.events if isinstance(e, Moved))
        if rolled and isinstance(step.state, JacquetState):
            state_before = (step.state.position, rolled[0].dice)
        if moves and state_before is not None and state_before[0].turn == 0:
            position, dice = state_before
            assert moves == greedy(position, dice)  # white is the greedy player
            checked += 1
    assert checked > 10


def test_analyze_writes_beside_the_log_and_never_touches_it(logs: Path) -> None:
    log = logs / "jacquet.tablier"
    before = log.read_bytes()
    result = tablier("analyze", str(log), "--plies", "1", "--format", "json")
    assert result.returncode == 0, result.stderr
    assert log.read_bytes() == before
    written = logs / "jacquet.tablier.analysis.json"
    assert str(written) in result.stdout
    analysis = analysis_from_json(json.loads(written.read_text()))
    assert analysis.log_sha256 == hashlib.sha256(before).hexdigest()
    assert analysis.players == ("Anne", "Bastien") and analysis.plies == 1
    assert analysis.summary[0].decisions + analysis.summary[1].decisions > 20
    report = format_report(Analysed(log.name, analysis.log_sha256, analysis.players, analysis,
                                    None, None), "text")  # fmt: skip
    assert "equity lost per decision" in report and analysis.log_sha256 in report
    assert report.count("\n") > len(analysis.turns)  # a line per turn, then the summary


def test_a_goose_log_gets_a_luck_summary(logs: Path) -> None:
    result = tablier("analyze", str(logs / "goose.tablier"), "--format", "json", "--out", "-")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    summary = report["summary"]
    assert report["game"] == "goose" and len(summary) == 3
    # The winner takes the whole pot: every token paid in (antes and fees) is won back.
    assert sum(seat["won"] for seat in summary) == sum(seat["paid"] for seat in summary)
    assert all(seat["paid"] >= 4 for seat in summary)  # the ante at least
    # A fee for every hazard (and, under the Daumont rules, for being met).
    assert sum(seat["hazards"] for seat in summary) <= sum(s["paid"] - 4 for s in summary)
    assert sum(seat["turns"] for seat in summary) > 10


def test_bad_logs_are_refused_and_nothing_is_written(logs: Path, tmp_path: Path) -> None:
    data = bytearray((logs / "jacquet.tablier").read_bytes())
    data[-40] ^= 0xFF  # inside the last record's signature
    tampered = tmp_path / "tampered.tablier"
    tampered.write_bytes(bytes(data))
    result = tablier("analyze", str(tampered))
    assert result.returncode == 1 and "fails verification" in result.stderr
    assert not list(tmp_path.glob("*.analysis.*"))
    garbage = tmp_path / "garbage.tablier"
    garbage.write_bytes(b"not a log at all")
    result = tablier("analyze", str(garbage))
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    missing = tablier("analyze", str(tmp_path / "missing.tablier"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    same = tablier("analyze", str(tampered), "--out", str(tampered))
    assert same.returncode == 3 and "never changed" in same.stderr


def test_a_link_planted_beside_the_log_is_never_written_through(logs: Path, tmp_path: Path) -> None:
    """A log that arrives in an archive may bring neighbours: the old temporary's name, a
    link to the victim's ``.bashrc``, was written through. Now the temporary's name is
    unguessable and created afresh, and a destination that is a link is refused."""
    log = tmp_path / "evil.tablier"
    log.write_bytes((logs / "jacquet.tablier").read_bytes())
    victim = tmp_path / "bashrc"
    victim.write_text("# the victim's\n")
    (tmp_path / ".evil.tablier.analysis.txt.part").symlink_to(victim)
    result = tablier("analyze", str(log), "--plies", "1", "--max-turns", "5")  # (a report)
    assert result.returncode == 0, result.stderr
    assert victim.read_text() == "# the victim's\n"
    assert "equity lost" in (tmp_path / "evil.tablier.analysis.txt").read_text()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == [
        ".evil.tablier.analysis.txt.part"  # the planted link, left alone; no temporary left
    ]
    out = tmp_path / "out.txt"
    out.symlink_to(victim)
    refused = tablier("analyze", str(log), "--plies", "1", "--out", str(out))  # (said first)
    assert refused.returncode == 3 and refused.stderr.count("\n") == 1, refused.stderr
    assert "is a link" in refused.stderr and out.is_symlink()
    assert victim.read_text() == "# the victim's\n"


def test_paths_are_printed_without_their_escape_sequences(logs: Path, tmp_path: Path) -> None:
    log = tmp_path / "a\x1b]2;PWNED\x07\x1b[2J.tablier"
    log.write_bytes((logs / "jacquet.tablier").read_bytes())
    result = tablier("analyze", str(log), "--plies", "1", "--max-turns", "5")
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "a\ufffd]2;PWNED\ufffd\ufffd[2J.tablier" in result.stdout


def cut_log(logs: Path, tmp_path: Path) -> Path:
    """The Jacquet log cut after its 60th record (some 20 turns): no ending."""
    from protocol.logfile import parse_log

    whole = (logs / "jacquet.tablier").read_bytes()
    cut = tmp_path / "cut.tablier"
    cut.write_bytes(whole[: parse_log(whole).offsets[60]])
    return cut


def test_a_log_without_its_end_says_so_first(logs: Path, tmp_path: Path) -> None:
    """A player could cut his log after his good stretch and hand out its analysis, which
    said nothing of it: the report now says first that the log holds no ending."""
    cut = cut_log(logs, tmp_path)
    text = tablier("analyze", str(cut), "--plies", "1", "--out", "-")
    assert text.returncode == 0, text.stderr
    head = text.stdout.split("\n\n")[:2]
    assert head[1].startswith("THIS LOG HAS NO ENDING: the match is unfinished, or the log")
    report = json.loads(tablier("analyze", str(cut), "--plies", "1", "--format", "json",
                                "--out", "-").stdout)  # fmt: skip
    assert list(report)[:2] == ["format", "match_ended"] and report["match_ended"] is False
    assert report["turns_judged"] == report["turns_in_log"] == len(report["turns"]) > 5
    full = tablier("analyze", str(logs / "jacquet.tablier"), "--plies", "1", "--out", "-")
    assert "NO ENDING" not in full.stdout and "ONLY THE FIRST" not in full.stdout


def test_the_judged_turns_are_bounded(logs: Path, tmp_path: Path) -> None:
    """A log holds as many turns as its writer likes (0.45 s each at two plies): at most
    --max-turns are judged (MAX_JUDGED_TURNS by default), and the report says so. (Apart
    from the test above: together, on a busy machine, they went past pytest-timeout.)"""
    from client.game.budget import MAX_JUDGED_TURNS

    cut = cut_log(logs, tmp_path)
    helped = " ".join(tablier("analyze", "--help").stdout.split())
    assert f"(default {MAX_JUDGED_TURNS})" in helped
    report = json.loads(tablier("analyze", str(cut), "--plies", "1", "--max-turns", "5",
                                "--format", "json", "--out", "-").stdout)  # fmt: skip
    turns = report["turns_in_log"]
    assert report["turns_judged"] == len(report["turns"]) == 5 and turns > 5
    bounded = tablier("analyze", str(cut), "--plies", "1", "--max-turns", "5", "--out", "-")
    assert f"ONLY THE FIRST 5 OF ITS {turns} TURNS ARE JUDGED" in bounded.stdout.split("\n\n")[2]
    assert analysis_from_json(report).turns  # still read back as an analysis


def test_json_reports_write_c1_controls_of_a_file_name_as_escapes(
    logs: Path, tmp_path: Path
) -> None:
    """A log's file name is anyone's choice; JSON escapes only controls below U+0020, so
    U+0085 and U+009B (an 8-bit CSI: "\\x9b31m" colours a terminal red) went out raw in
    ``analyze --format json``. Every character that is not printable is now a \\u escape."""
    name = "a\x85\x9b31m\u200bb.tablier"
    log = tmp_path / name
    log.write_bytes((logs / "goose.tablier").read_bytes())
    result = tablier("analyze", str(log), "--format", "json", "--out", "-")
    assert result.returncode == 0, result.stderr
    assert all(c.isprintable() or c == "\n" for c in result.stdout)
    assert "\\u0085\\u009b31m\\u200bb.tablier" in result.stdout
    assert json.loads(result.stdout)["log"]["file"] == name  # the same text to a JSON reader


def test_a_damaged_tail_is_analysed_up_to_it_and_exits_as_verify_does(
    logs: Path, tmp_path: Path
) -> None:
    """A log cut inside a record (a copy stopped short): the report of what precedes the
    damage is written, with a warning, and the status is verify's 1, as the help says (the
    trial saw `verify` exit 1 and `analyze` 0 on the same file)."""
    data = (logs / "jacquet.tablier").read_bytes()
    cut = tmp_path / "cut.tablier"
    cut.write_bytes(data[: len(data) - 25])
    verified = tablier("verify", str(cut))
    analysed = tablier("analyze", str(cut), "--plies", "1")
    assert verified.returncode == analysed.returncode == 1, analysed.stderr
    assert f"{cut}: warning: the log's tail is damaged" in analysed.stderr  # names the file
    assert (tmp_path / "cut.tablier.analysis.txt").read_text(encoding="utf-8").strip()
