"""What a log proves, and what it cannot: ``tablier verify`` never calls a result valid that
the seats it goes against did not sign, and two players' logs of one match show who lied."""

from __future__ import annotations

import hashlib
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from client.cli import main
from engine.awaiting import ChoosePlay, ThrowDice
from protocol.identity import Identity, seeded_source
from protocol.local import LocalMatch
from protocol.logfile import encode_log, parse_log
from protocol.messages import Claim, Resign, decode_message, seal
from protocol.selfplay import first_legal
from protocol.session import MatchSession
from protocol.setup import MatchSetup
from protocol.verify import verify_bytes

NAMES = ("Anne", "Bastien")


def played_out(seed: str) -> tuple[LocalMatch, list[Identity]]:
    source = seeded_source(seed)
    keys = [Identity.generate(source) for _ in NAMES]
    match = LocalMatch.create("jacquet", {"match_to": 1}, names=NAMES, random_source=source,
                              now=0, identities=keys)  # fmt: skip
    now = 0
    while match.ended is None:
        now += 1_000
        awaiting = match.awaiting
        if isinstance(awaiting, ThrowDice):
            match.throw(awaiting.seat, now)
        else:
            assert isinstance(awaiting, ChoosePlay)
            match.play(awaiting.seat, first_legal(match.state, awaiting.dice), now)
    return match, keys


def forge_abandonment(match: LocalMatch, keys: list[Identity], *, last: bool) -> bytes:
    """The loser cuts his log where the winner is awaited — her last move (*last*), or one
    in the middle of the match — and appends his own claim that she abandoned, dated at the
    limit: all it takes is his own key."""
    winner = match.ended.winner
    loser = 1 - winner
    records = match.sessions[0].records
    spectator = MatchSession(match.setup, seat=None, strict=True)
    cuts = []
    for k, record in enumerate(records):
        if spectator.awaited_seats() == (winner,):
            cuts.append((k, spectator.progress.position, spectator.progress.digest,
                         spectator.deadline()))  # fmt: skip
        spectator.receive_bytes(record, 0)
    k, position, history, deadline = cuts[-1 if last else len(cuts) // 2]
    claim = seal(Claim(loser, position, deadline, winner, b"", history), keys[loser],
                 match.setup.match_id)  # fmt: skip
    return encode_log(match.setup, [*records[:k], claim.encode()])


def test_a_forged_abandonment_is_not_called_valid_and_the_winners_log_refutes_it(
    tmp_path, capsys
) -> None:
    match, keys = played_out("forged-abandonment")
    winner, loser = NAMES[match.ended.winner], NAMES[1 - match.ended.winner]
    forged, honest = tmp_path / "loser.tablier", tmp_path / "winner.tablier"
    forged.write_bytes(forge_abandonment(match, keys, last=False))
    honest.write_bytes(match.log_bytes())
    capsys.readouterr()
    assert main(["verify", str(forged)]) == 3  # consistent, but one player's word
    out = capsys.readouterr().out
    assert f"result:  {winner} abandoned the match" in out
    assert f"proof:   {loser}'s word alone: {loser} signed" in out
    assert "NOT a proven result" in out and "\nvalid" not in out
    assert main(["verify", str(honest)]) == 0
    out = capsys.readouterr().out
    assert "proof:   ended in play: every move is signed by its player" in out
    assert f"sha256:  {hashlib.sha256(honest.read_bytes()).hexdigest()}" in out
    assert main(["verify", str(forged), str(honest)]) == 1
    out = capsys.readouterr().out
    assert "the logs part at record" in out
    assert f"first:  {loser}'s claim that {winner} abandoned" in out
    assert f"\n{loser} signed both: {loser}'s claim that {winner} abandoned" in out
    # Cut at her very last move, nothing of his follows it in her log: no proof either way,
    # but the dates say what each side claims.
    forged.write_bytes(forge_abandonment(match, keys, last=True))
    assert main(["verify", str(forged), str(honest)]) == 1
    out = capsys.readouterr().out
    assert "no player signed both sides, so neither log proves the other wrong" in out
    assert f"{winner}'s record there is dated 4 min 59 s before the time {loser} says" in out


def test_a_resignation_is_proven_by_the_resigners_signature() -> None:
    resigning = LocalMatch.create("jacquet", {}, names=NAMES, now=0,
                                  random_source=seeded_source("resign"))  # fmt: skip
    resigning.throw(0, 1_000)
    resigning.resign(1, 2_000)
    report = verify_bytes(resigning.log_bytes())
    assert report.ok and report.proven
    assert report.proof == "Bastien resigned, and signed the resignation"
    cut = verify_bytes(resigning.log_bytes()[: parse_log(resigning.log_bytes()).offsets[1]])
    assert cut.ok and cut.proven and cut.proof.startswith("no result: the log ends after record 0")


def test_copies_that_agree_part_only_over_chat_or_are_of_another_match(tmp_path, capsys) -> None:
    match, _ = played_out("agree")
    whole = match.log_bytes()
    short = whole[: parse_log(whole).offsets[10]]
    paths = [tmp_path / "a.tablier", tmp_path / "b.tablier"]
    paths[0].write_bytes(short)
    paths[1].write_bytes(whole)
    capsys.readouterr()
    assert main(["verify", *map(str, paths)]) == 0
    assert "agree: the second log is the first with" in capsys.readouterr().out
    talk = LocalMatch.create("goose", {}, names=NAMES, now=0, random_source=seeded_source("c"))
    talk.chat(1, "bonne chance", 500)
    talk.throw(0, 1_000)
    chat, *shares = talk.sessions[0].records
    moved = encode_log(talk.setup, [shares[0], chat, *shares[1:]])  # where a relay put it
    paths[0].write_bytes(talk.log_bytes())
    paths[1].write_bytes(moved)
    assert verify_bytes(moved).ok
    assert main(["verify", *map(str, paths)]) == 1
    assert "only chat lines sit in other places" in capsys.readouterr().out
    other, _ = played_out("another match")
    paths[1].write_bytes(other.log_bytes())
    assert main(["verify", *map(str, paths)]) == 1
    assert "logs of two different matches" in capsys.readouterr().out


def resigned_back(
    seed: str, *, players: int = 2, throws: int = 3, back: int = 2, resigner: int = 1
) -> tuple[MatchSetup, list[bytes]]:
    """A Goose match's records after *throws* throws, then *resigner*'s resignation dated
    *back* records back (a resignation is never stale: it counts where it comes)."""
    source = seeded_source(seed)
    names = (*NAMES, *(f"P{seat}" for seat in range(2, players)))
    keys = [Identity.generate(source) for _ in names]
    match = LocalMatch.create("goose", {}, names=names, random_source=source, now=0,
                              identities=keys)  # fmt: skip
    now = 0
    for _ in range(throws):
        now += 1_000
        match.throw(match.awaiting.seat, now)
    records = list(match.sessions[0].records)
    spectator = MatchSession(match.setup, seat=None, strict=True)
    for record in records:
        spectator.receive_bytes(record, now)
    place = max(0, spectator.progress.position - back)
    resign = seal(Resign(resigner, place, now, b"", spectator.progress.digest_at(place)),
                  keys[resigner], match.setup.match_id)  # fmt: skip
    return match.setup, [*records, resign.encode()]


def retimed(record: bytes, delta: int) -> bytes:
    """*record* dated *delta* ms later under its old signature, as whoever holds a log can."""
    message = decode_message(record)
    return replace(message, time=message.time + delta).encode()


def backdated_resignation(seed: str) -> tuple[bytes, bytes, int]:
    """Bastien's resignation dated back two records, the last of which is his own share; and
    the same log with that share's time changed under its signature, by whoever holds the
    log. Nothing Bastien signed after his last share commits to it: his resignation's history
    stops before it. Returns (honest, forged, the forged record's index)."""
    throws = 3
    while True:  # until the last share before the resignation is Bastien's
        setup, records = resigned_back(seed, throws=throws)
        if decode_message(records[-2]).seat == 1:
            break
        throws += 1
    altered = len(records) - 2
    forged = [*records[:altered], retimed(records[altered], 1), records[-1]]
    return encode_log(setup, records), encode_log(setup, forged), altered


def test_a_record_no_later_signature_covers_has_its_own_checked(tmp_path, capsys) -> None:
    """Verify checked each seat's last signature only: a resignation dated back covers none
    of its signer's records after the place it names, so a broken signature there passed as
    valid — and two logs compared then named the seat whose record was altered as the liar.
    Now a record no later valid signature of its signer covers has its own checked, and
    compare blames only on records whose signature holds and whose history is the log's."""
    honest, forged, altered = backdated_resignation("backdated")
    report = verify_bytes(honest)
    assert report.ok and report.proven
    assert report.proof == "Bastien resigned, and signed the resignation"
    report = verify_bytes(forged)
    assert not report.ok and report.bad_record == altered
    assert "claiming to be Bastien's is not signed by their key" in (report.error or "")
    paths = [tmp_path / "anne.tablier", tmp_path / "bastien.tablier"]
    paths[0].write_bytes(forged)
    paths[1].write_bytes(honest)
    capsys.readouterr()
    assert main(["verify", *map(str, paths)]) == 1
    out = capsys.readouterr().out
    assert f"the logs part at record {altered}:" in out
    assert "Bastien signed both" not in out and "Anne signed both" not in out
    assert "no player signed both sides" in out


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(1, 5), st.integers(0, 8), st.data())
def test_no_record_retimed_under_its_signature_passes_verification(
    players: int, throws: int, back: int, data: st.DataObject
) -> None:
    """Whatever resignation ends the log, dated back as far as it may be, a record whose time
    was changed under its old signature is named as the first bad record."""
    resigner = data.draw(st.integers(0, players - 1), label="resigner")
    setup, records = resigned_back("retimed", players=players, throws=throws,
                                   back=min(back, 2 * players), resigner=resigner)  # fmt: skip
    assert verify_bytes(encode_log(setup, records)).ok
    index = data.draw(st.integers(0, len(records) - 1), label="record")
    delta = data.draw(st.sampled_from([-1, 1, 1_000]), label="delta")
    forged = [*records[:index], retimed(records[index], delta), *records[index + 1 :]]
    report = verify_bytes(encode_log(setup, forged))
    assert not report.ok and report.bad_record == index, report.error
