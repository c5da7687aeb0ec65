"""A key of small order signs nothing, yet with it (R = identity, S = 0) would verify as a
signature of any message: such a key is refused at the gate (a join, a log's header) and by
the signature check itself, so no log anyone wrote without a key proves what it says."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from client.cli import main
from protocol.chain import HashChain
from protocol.identity import (
    _P,
    _SMALL_ORDER_Y,
    Identity,
    _eight_times_is_identity,
    seeded_source,
    small_order,
    verify_signature,
)
from protocol.logfile import encode_log
from protocol.messages import Resign
from protocol.progress import first_digest
from protocol.setup import Join, MatchSetup, Proposal

IDENTITY_POINT = bytes([1]) + bytes(31)
UNIVERSAL = IDENTITY_POINT + bytes(32)  # R = the identity point, S = 0


def test_a_log_signed_by_a_small_order_key_proves_nothing(tmp_path, capsys) -> None:
    source = seeded_source("small-order")
    proposal = Proposal.create("goose", {}, seats=2, start_time=1_764_500_000_000,
                               random_source=source)  # fmt: skip
    ann = Join(proposal.digest, "Ann", IDENTITY_POINT, HashChain.generate(source).tip, UNIVERSAL)
    bob = Join.create(proposal, Identity.generate(source), "Bob", HashChain.generate(source).tip)
    setup = MatchSetup(proposal, (ann, bob))  # written by hand: create() would refuse it
    resign = Resign(0, 0, 1_764_500_010_000, UNIVERSAL, first_digest(setup.match_id))
    path = tmp_path / "ann-resigned.tablier"
    path.write_bytes(encode_log(setup, [resign.encode()]))
    capsys.readouterr()
    assert main(["verify", str(path)]) != 0
    out, err = capsys.readouterr()
    assert "the public key of Ann is a point of small order" in out + err
    assert "signed the resignation" not in out


@settings(max_examples=200)
@given(st.binary(min_size=32, max_size=32), st.binary())
def test_no_signature_with_a_small_order_r_or_key_verifies(point: bytes, data: bytes) -> None:
    y = int.from_bytes(point, "little") & ((1 << 255) - 1)
    assert small_order(point) == (y % _P in _SMALL_ORDER_Y)
    for small in _SMALL_ORDER_Y:
        encoded = (small | (point[31] & 0x80) << 248).to_bytes(32, "little")
        assert small_order(encoded)
        assert not verify_signature(encoded, encoded + bytes(32), data)
        assert not verify_signature(point, encoded + bytes(32), data)


def test_the_list_of_small_order_points_is_the_curve_s() -> None:
    """Every y listed has 8·P = identity; a y taken from a real key has not."""
    assert all(_eight_times_is_identity(y) for y in _SMALL_ORDER_Y)
    key = Identity.generate(seeded_source("big order")).public_key
    assert not _eight_times_is_identity(int.from_bytes(key, "little") & ((1 << 255) - 1))
