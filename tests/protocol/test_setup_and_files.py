"""Setup and match id, persistent identities, dice, and the log file on disk."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from protocol.chain import CHAIN_LINKS, HashChain, link_follows
from protocol.codec import pack
from protocol.dice import derive_dice
from protocol.errors import BadSignature, LocalProtocolError, MalformedMessage, VersionMismatch
from protocol.identity import Identity, seeded_source
from protocol.logfile import LogWriter, default_log_path, encode_header, encode_record, read_log
from protocol.setup import Join, MatchSetup, Proposal


def make_setup(game="goose", options=None, names=("Anne", "Bob"), seed="x"):
    source = seeded_source(seed)
    proposal = Proposal.create(game, options or {}, seats=len(names), start_time=1_764_500_000_000,
                               random_source=source)
    joins = [Join.create(proposal, Identity.generate(source), name,
                         HashChain.generate(source).tip) for name in names]
    return proposal, joins


def test_everyone_derives_the_same_match_id_from_the_exchanged_bytes() -> None:
    proposal, joins = make_setup("jacquet", {"match_to": 5, "bearoff": "trictrac"})
    received = Proposal.decode(proposal.encode())
    assert received == proposal and received.digest == proposal.digest
    joins = [Join.decode(join.encode()) for join in joins]
    setup = MatchSetup.create(received, joins)
    again = MatchSetup.decode(setup.encode())
    assert again.match_id == setup.match_id and len(setup.match_id) == 32
    assert again.proposal.engine_options().match_to == 5
    reseated = MatchSetup.create(received, list(reversed(joins)))
    assert reseated.match_id != setup.match_id


def test_bad_setups_say_what_is_wrong() -> None:
    source = seeded_source(1)
    with pytest.raises(LocalProtocolError, match="2 to 15 players, not 16"):
        Proposal.create("goose", {}, seats=16, start_time=0, random_source=source)
    with pytest.raises(LocalProtocolError, match="jacquet is played by 2 players, not 3"):
        Proposal.create("jacquet", {}, seats=3, start_time=0, random_source=source)
    with pytest.raises(LocalProtocolError, match="no option 'pot'"):
        Proposal.create("goose", {"pot": 3}, seats=2, start_time=0, random_source=source)
    with pytest.raises(LocalProtocolError, match="unknown rule set"):
        Proposal.create("goose", {"rules": "1999"}, seats=2, start_time=0, random_source=source)
    with pytest.raises(LocalProtocolError, match="unknown game"):
        Proposal.create("chess", {}, seats=2, start_time=0, random_source=source)
    proposal, joins = make_setup()
    with pytest.raises(LocalProtocolError, match="name"):
        Join.create(proposal, Identity.generate(source), "\x1b[31mred", bytes(32))
    with pytest.raises(LocalProtocolError, match=r"2 seats but not as many joins \(1\)"):
        MatchSetup.create(proposal, joins[:1])
    with pytest.raises(MalformedMessage, match="share one key"):
        MatchSetup.create(proposal, [joins[0], joins[0]])
    _, other_joins = make_setup(seed="y")
    with pytest.raises(MalformedMessage, match="joined a different proposal"):
        MatchSetup.create(proposal, [joins[0], other_joins[1]])
    forged = Join(proposal.digest, "Bob", joins[1].public_key, bytes(32), joins[1].signature)
    with pytest.raises(BadSignature, match="not signed by its key") as caught:
        MatchSetup.create(proposal, [joins[0], forged])
    assert caught.value.seat == 1
    with pytest.raises(VersionMismatch, match="version 3, expected 1"):
        MatchSetup.decode(b"\x94\x03\x0c\x90\x90")



def test_hints_allowed_is_in_what_every_player_signs_and_never_reaches_the_engine() -> None:
    from protocol.games import coach_allowed

    allowed, joins = make_setup("jacquet", {"match_to": 3, "coach": 1})
    plain, _ = make_setup("jacquet", {"match_to": 3})
    assert coach_allowed(dict(Proposal.decode(allowed.encode()).options))
    assert not coach_allowed(dict(plain.options))
    assert allowed.digest != plain.digest  # the joins sign the digest: the option with it
    assert MatchSetup.create(allowed, joins).proposal.engine_options() == plain.engine_options()
    forged = [Join(plain.digest, j.name, j.public_key, j.tip, j.signature) for j in joins]
    with pytest.raises(BadSignature):  # a join for "allowed" does not sign "not allowed"
        MatchSetup.create(plain, forged)
    source = seeded_source(2)
    for bad, says in ((0, "1 .hints allowed. or absent"), ("yes", "must be a whole number")):
        with pytest.raises(LocalProtocolError, match=says):
            Proposal.create("jacquet", {"coach": bad}, seats=2, start_time=0, random_source=source)

def test_chain_links_follow_from_the_tip() -> None:
    chain = HashChain.generate(seeded_source("c"))
    assert len(chain) == CHAIN_LINKS
    previous = chain.tip
    for index in range(CHAIN_LINKS):
        link = chain.link(index)
        assert link_follows(link, previous)
        previous = link
    assert hashlib.sha256(chain.hashes[0]).digest() == chain.hashes[1]
    with pytest.raises(LocalProtocolError):
        chain.link(CHAIN_LINKS)
    with pytest.raises(LocalProtocolError, match="at least 1024"):
        HashChain.generate(seeded_source("c"), 10)


def test_dice_derivation_is_exact_and_uniform() -> None:
    match_id = hashlib.sha256(b"m").digest()
    links = (hashlib.sha256(b"a").digest(), hashlib.sha256(b"b").digest())
    block = hashlib.sha256(match_id + (7).to_bytes(8, "big") + b"".join(links)).digest()
    kept = [b % 6 + 1 for b in block if b < 252]
    assert derive_dice(match_id, 7, links, 2) == tuple(kept[:2])
    swapped = [derive_dice(match_id, t, links[::-1], 2) for t in range(20)]
    assert swapped != [derive_dice(match_id, t, links, 2) for t in range(20)]  # seat order counts
    faces = Counter(
        die for t in range(3000) for die in derive_dice(match_id, t, links, 2)
    )
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(abs(count - 1000) < 120 for count in faces.values())  # 6000 dice, ~4 sigma


def test_log_writer_appends_durably_and_never_overwrites(tmp_path) -> None:
    proposal, joins = make_setup()
    setup = MatchSetup.create(proposal, joins)
    path = default_log_path(setup, tmp_path)
    assert path.parent == tmp_path / "matches"
    assert path.name == "2025-11-30T105320-goose-anne-bob.tablier"
    with LogWriter(path, setup) as log:
        assert path.read_bytes() == encode_header(setup)
        log.append(b"record one")
        assert path.read_bytes() == encode_header(setup) + encode_record(b"record one")
    with pytest.raises(LocalProtocolError, match="never overwritten"):
        LogWriter(path, setup)
    assert default_log_path(setup, tmp_path).name.endswith("-anne-bob-2.tablier")
    contents = read_log(path)
    assert contents.setup.match_id == setup.match_id and contents.records == (b"record one",)


def test_setup_messages_decode_by_kind_and_game_messages_do_not() -> None:
    from protocol.setup import decode_setup_message

    proposal, joins = make_setup()
    setup = MatchSetup.create(proposal, joins)
    for message in (proposal, joins[1], setup):
        assert decode_setup_message(message.encode()) == message
    share = pack([2, 1, 0, 0, 0, bytes(32), None, None, bytes(32), bytes(64)])
    with pytest.raises(MalformedMessage, match="unknown kind"):
        decode_setup_message(share)
