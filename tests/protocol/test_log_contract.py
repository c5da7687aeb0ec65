"""docs/log-format.md is a contract for other log readers: the header's shape and what a
share's history covers, as the page states them, held against real logs.

A third party who wrote a log reader from the page alone took ``SETUP`` for the exchanged
bytes (it is a nested array whose encoding is those bytes) and could not tell whether "the
history up to the thrower's share" includes that share (it does).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import msgpack  # type: ignore[import-untyped]

from client.net import wire
from protocol.identity import seeded_source
from protocol.local import LocalMatch
from protocol.logfile import encode_header
from protocol.messages import Share, decode_message
from protocol.progress import next_digest

DOC = Path(__file__).resolve().parents[2] / "docs" / "log-format.md"


def three_seat_goose() -> LocalMatch:
    return LocalMatch.create(
        "goose", {}, names=("Ann", "Bob", "Cy"), now=0, random_source=seeded_source("contract")
    )


def test_the_header_s_setup_is_a_nested_array_whose_encoding_is_the_exchanged_setup() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "written as a **nested msgpack array**, not as a `bin` of its\n  bytes" in text
    assert "`[1, 12, PROPOSAL, [JOIN, …]]`" in text
    assert "`PROPOSAL = [1, 10, game, options, seats, time_limit_ms, start_time, nonce, dice]`" in (
        text
    )
    assert "`JOIN = [1, 11, proposal_digest, name, public_key, chain_tip, signature]`" in text
    match = three_seat_goose()
    setup = match.setup
    header = msgpack.unpackb(encode_header(setup), raw=False)
    assert header[:2] == ["tablier-log", 2] and len(header) == 4
    nested = header[2]
    assert isinstance(nested, list) and nested[:2] == [1, 12] and len(nested) == 4
    assert isinstance(nested[2], list) and nested[2][:2] == [1, 10] and len(nested[2]) == 9
    assert [join[:2] for join in nested[3]] == [[1, 11]] * 3
    assert all(len(join) == 7 for join in nested[3])
    exchanged = setup.encode()  # what the players sent each other
    assert msgpack.packb(nested, use_bin_type=True) == exchanged
    assert wire.decode(wire.encode(wire.SetupMsg(exchanged))) == wire.SetupMsg(exchanged)
    assert header[3] == hashlib.sha256(b"tablier-match/1\0" + exchanged).digest()
    match.close()


def test_a_non_thrower_s_share_carries_the_history_through_the_thrower_s_share() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "of the records up to **and including** the thrower's\nshare of that throw" in text
    match = three_seat_goose()
    match.throw(0, now=1_000)
    records = match.sessions[0].records
    decoded = [decode_message(record) for record in records]
    shares = [share for share in decoded if isinstance(share, Share)]
    assert len(shares) == len(decoded) == 3
    assert [share.seat for share in shares] == [0, 1, 2]
    start = hashlib.sha256(b"tablier-history/2\0" + match.setup.match_id).digest()
    assert shares[0].history == start  # the thrower's: the records before it (none)
    through_the_thrower = next_digest(start, records[0])
    assert [share.history for share in shares[1:]] == [through_the_thrower] * 2
    match.close()


def test_the_records_table_lists_every_kind_with_its_payload_s_fields() -> None:
    """Each row's kind and name are the protocol's, and its payload names the fields a record
    of that kind carries after ``[version, kind, seat, n, time]``, in their order."""
    from protocol.messages import KINDS, PROTOCOL_VERSION

    text = DOC.read_text(encoding="utf-8")
    assert "    [version, kind, seat, n, time, …payload, signature]" in text
    assert "`version` is the game messages' version (2)" in text and PROTOCOL_VERSION == 2
    rows = re.findall(r"^\| (\d) \| ([a-z]+)[^|]* \| [^|]+ \| (.+) \|$", text, re.M)
    assert {int(kind): name for kind, name, _ in rows} == {
        kind: KINDS[kind].__name__.lower() for kind in KINDS
    }
    for kind, _, payload in rows:
        while re.search(r"\([^()]*\)", payload):  # what the parentheses say of each field
            payload = re.sub(r"\([^()]*\)", "", payload)
        declared = [field.name for field in KINDS[int(kind)].PAYLOAD]
        assert re.findall(r"`(\w+)`", payload) == declared, payload
    match = three_seat_goose()
    match.throw(0, now=1_000)
    match.chat(1, "bonjour", now=2_000)
    match.resign(2, now=3_000)
    for record in match.sessions[0].records:
        fields = msgpack.unpackb(record)
        assert fields[0] == 2 and len(fields) == 5 + len(KINDS[fields[1]].PAYLOAD) + 1
    match.close()


def test_every_bound_the_page_states_is_the_one_in_force() -> None:
    from protocol import bounds, clock, codec, dice, logfile, setup

    text = DOC.read_text(encoding="utf-8")
    stated: list[tuple[str, object, object]] = [
        ("`seats` 2\u201315", (bounds.MIN_SEATS, bounds.MAX_SEATS), (2, 15)),
        ("`time_limit_ms` from 30,000 to 86,400,000", (clock.MIN_TIME_LIMIT_MS,
         clock.MAX_TIME_LIMIT_MS), (30_000, 86_400_000)),
        ("`nonce` 16 random bytes", setup.NONCE_BYTES, 16),
        ('`"tablier-dice/1"`', dice.DICE_DERIVATION, "tablier-dice/1"),
        ("`text` (printable, \u2264 500 characters, \u2264 1,000 terminal cells",
         (bounds.MAX_CHAT_CHARS, bounds.MAX_CHAT_CELLS), (500, 1000)),
        ("\u2264 3 on one character", bounds.MAX_MARKS_PER_BASE, 3),
        ("more than 5 s (the clock tolerance)", clock.CLOCK_TOLERANCE_MS, 5_000),
        ("`protocol.logfile.MAX_LOG_BYTES` (256 MiB)", logfile.MAX_LOG_BYTES, 256 << 20),
        ("`protocol.logfile.MAX_HEADER_BYTES` (16,432", logfile.MAX_HEADER_BYTES, 16_432),
        ("`protocol.codec.MAX_MESSAGE_BYTES` (16 KiB", codec.MAX_MESSAGE_BYTES, 16 << 10),
        ("`protocol.logfile.MAX_UNHANDLED_CHARS` (120)", logfile.MAX_UNHANDLED_CHARS, 120),
    ]  # fmt: skip
    for words, value, expected in stated:
        assert words in text, f"the page no longer says {words!r}"
        assert value == expected, f"the page says {words!r}, the protocol has {value!r}"


def test_a_log_read_with_the_page_s_recipes_alone_checks_out() -> None:
    """What a third party's reader does with docs/log-format.md and nothing of Tablier's: the
    header's digests and every signature, computed as the page writes them."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    text = DOC.read_text(encoding="utf-8")
    for recipe in (
        '`b"tablier-join/1\\0" ‖ msgpack(JOIN without signature)`',
        '`proposal_digest = SHA-256(b"tablier-proposal/1\\0" ‖ msgpack(PROPOSAL))`',
        '`MATCH_ID = SHA-256(b"tablier-match/1\\0" ‖ msgpack(SETUP))`',
        '`b"tablier-msg/2\\0" ‖ match_id ‖ msgpack(array without signature)`',
    ):
        assert recipe in text, recipe
    match = three_seat_goose()
    match.throw(0, now=1_000)
    match.chat(1, "bonjour", now=2_000)
    match.resign(2, now=3_000)
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(match.log_bytes())
    match.close()
    header, *records = list(unpacker)
    _, _, setup, match_id = header
    _, _, proposal, joins = setup
    digest = hashlib.sha256(b"tablier-proposal/1\0" + msgpack.packb(proposal)).digest()
    keys = []
    for join in joins:
        assert join[2] == digest
        key = Ed25519PublicKey.from_public_bytes(join[4])
        key.verify(join[6], b"tablier-join/1\0" + msgpack.packb(join[:6]))  # raises if not
        keys.append(key)
    assert match_id == hashlib.sha256(b"tablier-match/1\0" + msgpack.packb(setup)).digest()
    assert len(records) == 5 and all(isinstance(record, bytes) for record in records)
    for record in records:
        fields = msgpack.unpackb(record, raw=False)
        signed = b"tablier-msg/2\0" + match_id + msgpack.packb(fields[:-1])
        keys[fields[2]].verify(fields[-1], signed)  # raises if not
