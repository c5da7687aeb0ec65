"""A local match taken up again from its log (``LocalMatch.resume``): the same game, the log
continued; secrets that are not the match's are refused; being resumable keeps the dice."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.awaiting import ChoosePlay, ThrowDice
from protocol.errors import LocalProtocolError
from protocol.identity import seeded_source
from protocol.local import LocalMatch
from protocol.logfile import read_log
from protocol.selfplay import bot_choice
from protocol.verify import verify_log

NAMES = ("Ann", "Bob")


def _match(path: Path | None, *, resumable: bool) -> LocalMatch:
    source = seeded_source("local-resume")
    return LocalMatch.create("jacquet", {"match_to": 1}, names=NAMES, now=0, log_path=path,
                             random_source=source, resumable=resumable)  # fmt: skip


def _step(match: LocalMatch, now: int) -> None:
    awaiting = match.awaiting
    if isinstance(awaiting, ChoosePlay):
        match.play(awaiting.seat, bot_choice(match.state, awaiting.dice), now)
    elif isinstance(awaiting, ThrowDice):
        match.throw(awaiting.seat, now)


def test_a_resumed_match_goes_on_from_its_log_to_a_log_that_verifies(tmp_path: Path) -> None:
    path = tmp_path / "m.tablier"
    match = _match(path, resumable=True)
    for now in range(1, 20):
        _step(match, now)
    match.close()
    taken_up = LocalMatch.resume(read_log(path), identities=match.identities, log_path=path,
                                 chain_seeds=match.chain_seeds,
                                 renewal_secrets=match.renewal_secrets, now=20)  # fmt: skip
    assert taken_up.state == match.state
    now = 21
    while taken_up.ended is None:
        _step(taken_up, now)
        now += 1
    taken_up.close()
    report = verify_log(path)
    assert report.ok and report.result.endswith("wins the match 1-0"), report.summary()
    assert report.records == len(taken_up.sessions[0].records)


def test_secrets_that_are_not_the_matchs_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.tablier"
    match = _match(path, resumable=True)
    _step(match, 1)
    match.close()
    stranger = LocalMatch.create("jacquet", {}, names=NAMES, now=0, resumable=True,
                                 random_source=seeded_source("stranger"))  # fmt: skip
    with pytest.raises(LocalProtocolError, match="keys are not those"):
        LocalMatch.resume(read_log(path), identities=stranger.identities, log_path=path,
                          chain_seeds=match.chain_seeds, renewal_secrets=match.renewal_secrets,
                          now=2)  # fmt: skip
    with pytest.raises(LocalProtocolError, match="dice chains are not those"):
        LocalMatch.resume(read_log(path), identities=match.identities, log_path=path,
                          chain_seeds=stranger.chain_seeds,
                          renewal_secrets=match.renewal_secrets, now=2)  # fmt: skip


def test_being_resumable_keeps_the_dice_of_a_seed() -> None:
    plain, resumable = _match(None, resumable=False), _match(None, resumable=True)
    for now in range(1, 30):
        _step(plain, now)
        _step(resumable, now)
    assert plain.log_bytes() == resumable.log_bytes()
    assert resumable.renewal_secrets and not plain.renewal_secrets
