"""A seat rebuilt from its log after its program stopped (``MatchSession.restore``): the same
game, and its dice chain where it was, past a renewal too."""

from __future__ import annotations

from itertools import count

import pytest

from engine.awaiting import ChoosePlay, Finished, ThrowDice
from protocol.chain import CHAIN_LINKS, HashChain
from protocol.errors import BadSignature, LocalProtocolError
from protocol.identity import Identity, RandomSource, seeded_source
from protocol.logfile import encode_log
from protocol.session import MatchSession
from protocol.setup import Join, MatchSetup, Proposal
from protocol.verify import verify_bytes

NAMES = ("Ann", "Bob")


def secret_source(seat: int) -> RandomSource:
    """Where a seat's chains come from (the committed one, then each renewal), as the
    client draws them from the secret its seat file keeps."""
    return seeded_source(f"restore-chain-{seat}")


def seat(setup: MatchSetup, index: int) -> MatchSession:
    source = secret_source(index)
    return MatchSession(setup, seat=index, identity=identity(index),
                        chain=HashChain.generate(source), random_source=source)  # fmt: skip


def identity(index: int) -> Identity:
    return Identity.generate(seeded_source(f"restore-key-{index}"))


def new_match() -> list[MatchSession]:
    proposal = Proposal.create("jacquet", {"match_to": 99}, seats=2, start_time=0,
                               random_source=seeded_source("restore"))  # fmt: skip
    tips = [HashChain.generate(secret_source(index)).tip for index in range(2)]
    joins = [Join.create(proposal, identity(i), NAMES[i], tips[i]) for i in range(2)]
    setup = MatchSetup.create(proposal, joins)
    return [seat(setup, index) for index in range(2)]


def play(sessions: list[MatchSession], throws: int, clock: count[int]) -> None:
    """*throws* throws (and their plays, the first legal one), every message delivered."""
    done = 0
    while done < throws and not isinstance(sessions[0].awaiting, Finished):
        awaiting = sessions[0].awaiting
        mover = sessions[awaiting.seat]
        if isinstance(awaiting, ThrowDice):
            mover.throw(next(clock))
            done += 1
        else:
            assert isinstance(awaiting, ChoosePlay)
            mover.play(mover.state.legal_plays()[0], next(clock))
        pending = True
        while pending:
            pending = False
            for sender in sessions:
                for data in sender.data_to_send():
                    pending = True
                    for receiver in sessions:
                        if receiver is not sender:
                            receiver.receive_bytes(data, next(clock))


def test_a_restored_seat_throws_on_from_its_chain_past_a_renewal() -> None:
    clock = count(1_000, 10)
    sessions = new_match()
    play(sessions, CHAIN_LINKS + 5, clock)  # every seat revealed its whole first chain
    assert sessions[0].throw_index == CHAIN_LINKS + 5
    back = seat(sessions[0].setup, 1)
    back.restore(sessions[1].records, next(clock))
    assert back.state == sessions[1].state and back.records == sessions[1].records
    sessions[1] = back
    play(sessions, 20, clock)  # its next shares follow from its renewed chain
    assert sessions[0].stopped is None and sessions[0].records == back.records
    report = verify_bytes(encode_log(back.setup, back.records))
    assert report.ok, report.error


def test_a_restore_refuses_what_is_not_this_seats_match() -> None:
    clock = count(1_000, 10)
    sessions = new_match()
    play(sessions, 6, clock)
    records = sessions[1].records
    with pytest.raises(LocalProtocolError, match="needs the chain it committed to"):
        MatchSession(sessions[0].setup, seat=1, identity=identity(1),
                     chain=HashChain.generate(seeded_source("another")))  # fmt: skip
    forged = [*records[:-1], records[-1][:-1] + bytes([records[-1][-1] ^ 1])]
    with pytest.raises(BadSignature):
        seat(sessions[0].setup, 1).restore(forged, next(clock))
    with pytest.raises(LocalProtocolError, match="fresh seated session"):
        sessions[1].restore(records, next(clock))
