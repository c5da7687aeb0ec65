"""Two logs of one match compared: ``compare`` names exactly the seats that signed two
different records the match cannot both hold — never a seat whose one record two logs hold in
different places, never one whose record was altered by whoever holds a log.

Hypothesis generates the pair: one honest log of a 2-4 seat Goose match with chat lines, and
a second copy of it cut short, with chat lines and a back-dated resignation placed where
another relay order could put them, records altered under their signature, and some seats
re-signing one of their numbered records (a dice share or a chat line) differently.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.compare import compare
from protocol.identity import Identity, seeded_source
from protocol.local import LocalMatch
from protocol.logfile import encode_log, parse_log
from protocol.messages import Chat, Resign, Share, decode_message, seal
from protocol.session import MatchSession

NAMES = ("Ann", "Bob", "Carl", "Dora")


def _honest(players: int, throws: int, chats: list[int], back: int | None):
    """An honest Goose match of *players* seats: *throws* throws, a chat line by seat
    ``chats[k] % players`` after throw k, and — if *back* is not None — a resignation by
    the last seat dated *back* game records back. Returns (match, keys, records)."""
    source = seeded_source(f"compare-{players}-{throws}")
    keys = [Identity.generate(source) for _ in NAMES[:players]]
    match = LocalMatch.create("goose", {}, names=NAMES[:players], random_source=source,
                              now=0, identities=keys)  # fmt: skip
    now = 0
    for turn in range(throws):
        now += 1_000
        match.throw(match.awaiting.seat, now)
        if turn < len(chats):
            match.chat(chats[turn] % players, f"line {turn}", now + 1)
    records = list(match.sessions[0].records)
    if back is not None:
        spectator = MatchSession(match.setup, seat=None, strict=True)
        for record in records:
            spectator.receive_bytes(record, now)
        place = max(0, spectator.progress.position - back)
        resign = seal(Resign(players - 1, place, now + 2, b"",
                             spectator.progress.digest_at(place)),
                      keys[players - 1], match.setup.match_id)  # fmt: skip
        records.append(resign.encode())
    return match, keys, records


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 4),
    st.integers(2, 7),
    st.lists(st.integers(0, 3), max_size=7),
    st.one_of(st.none(), st.integers(0, 8)),
    st.data(),
)
def test_compare_names_exactly_the_seats_that_signed_two_different_records(
    players: int, throws: int, chats: list[int], back: int | None, data: st.DataObject
) -> None:
    match, keys, honest = _honest(players, throws, chats, back)
    setup, other = match.setup, list(honest)
    # another relay order: a chat line or the resignation one or more places later
    for _ in range(data.draw(st.integers(0, 2), label="moves")):
        movable = [k for k, raw in enumerate(other)
                   if isinstance(decode_message(raw), Chat | Resign)]  # fmt: skip
        if not movable:
            break
        k = data.draw(st.sampled_from(movable), label="moved")
        to = data.draw(st.integers(k, len(other) - 1), label="to")
        other.insert(to, other.pop(k))
    # equivocations: some seats sign a second, different version of one numbered record
    liars: set[int] = set()
    for _ in range(data.draw(st.integers(0, 2), label="equivocations")):
        k = data.draw(st.integers(0, len(other) - 1), label="re-signed")
        message = decode_message(other[k])
        if isinstance(message, Share | Chat) and message.seat not in liars:
            twin = seal(replace(message, time=message.time + 1, signature=b""),
                        keys[message.seat], setup.match_id)  # fmt: skip
            other[k] = twin.encode()
            liars.add(message.seat)
    # whoever holds the log alters a record under its old signature: proves nothing
    if data.draw(st.booleans(), label="altered"):
        k = data.draw(st.integers(0, len(other) - 1), label="altered at")
        message = decode_message(other[k])
        if message.seat not in liars:
            other[k] = replace(message, time=message.time + 7).encode()
    # the second writer may have left early
    other = other[: data.draw(st.integers(1, len(other)), label="kept")]
    liars = {seat for seat in liars if any(
        decode_message(raw).seat == seat and raw not in honest for raw in other)}  # fmt: skip
    first, second = parse_log(encode_log(setup, honest)), parse_log(encode_log(setup, other))
    for a, b in ((first, second), (second, first)):
        result = compare(a, b)
        assert set(result.liars) == liars, result.summary()
        for seat in liars:
            assert f"{NAMES[seat]} signed two different records for one place" in result.summary()


def test_a_resignation_two_logs_hold_in_different_places_names_nobody() -> None:
    """Ann resigns; Bob's log has his share before her resignation (a resignation is never
    stale). The one resignation, byte for byte the same in both, is no lie."""
    match, _keys, honest = _honest(2, 3, [], back=0)
    share = honest[-2]
    assert isinstance(decode_message(share), Share)
    moved = [*honest[:-2], honest[-1], share]
    result = compare(parse_log(encode_log(match.setup, honest)),
                     parse_log(encode_log(match.setup, moved)))  # fmt: skip
    assert not result.agree and result.liars == (), result.summary()
    assert "no player signed both sides" in result.summary()


def test_two_chat_lines_ann_signed_as_her_line_0_name_her(tmp_path, capsys) -> None:
    """The live session stops the match on a second, different chat line with one index: two
    logs that hold one each name its signer, not the relay's order."""
    from client.cli import main

    match, keys, records = _honest(2, 1, [], None)
    paths = []
    for text in ("I resign, well played", "you cheated, I will claim"):
        line = seal(Chat(0, 0, 5_000, text, b""), keys[0], match.setup.match_id).encode()
        paths.append(tmp_path / f"{len(paths)}.tablier")
        paths[-1].write_bytes(encode_log(match.setup, [*records, line]))
    capsys.readouterr()
    assert main(["verify", *map(str, paths)]) == 1
    out = capsys.readouterr().out
    assert "Ann signed two different records for one place: Ann's chat line 0" in out
    assert "the relay gave the two players different orders" not in out


def test_records_naming_seats_the_match_has_not_are_no_crash(tmp_path, capsys) -> None:
    """Two damaged copies: a claim against seat 14 in one, a record of seat 14 at the same
    place in the other. Compare names no seat from them, and says no 'cannot handle'."""
    from client.cli import main
    from protocol.messages import Claim, Seen

    match, keys, records = _honest(2, 2, [], None)
    spectator = MatchSession(match.setup, seat=None, strict=True)
    for record in records:
        spectator.receive_bytes(record, 3_000)
    position, digest = spectator.progress.position, spectator.progress.digest
    claim = seal(Claim(0, position, 900_000, 14, b"", digest), keys[0], match.setup.match_id)
    stranger = Seen(14, position, 4_000, bytes(64), digest)
    paths = [tmp_path / "a.tablier", tmp_path / "b.tablier"]
    paths[0].write_bytes(encode_log(match.setup, [*records, claim.encode()]))
    paths[1].write_bytes(encode_log(match.setup, [*records, stranger.encode()]))
    capsys.readouterr()
    assert main(["verify", *map(str, paths)]) == 1
    out, err = capsys.readouterr()
    assert "cannot handle" not in out + err and "IndexError" not in out + err
    assert "no player signed both sides" in out
