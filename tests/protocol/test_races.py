"""Messages that cross on their way: whatever order the relay puts them in, and whenever each
member reads it, every player and spectator reaches the same result and logs the same bytes.

Each race: two (or three) seats act at the same moment, each on its own view, before any has
seen the other's message; then the relay places the crossing messages in every order their
senders' connections allow, and the members read the room in two orders. The first placed
wins, everywhere: an abandonment claim placed before the accused's answer ends the match
(the answer never happened — on the accused's screen too), one placed after it is overtaken.
"""

from __future__ import annotations

from itertools import permutations

import pytest

from engine.awaiting import ChoosePlay, ThrowDice
from protocol.messages import Claim, Resign, decode_message
from protocol.session import MatchSession
from protocol.verify import verify_bytes
from tests.protocol.helpers import Room, seats

LIMIT = 60_000


def interleavings(queues: dict[int, int]) -> list[tuple[int, ...]]:
    """Every order in which the relay can take *queues* (seat -> messages waiting), each
    seat's own messages staying in the order it sent them."""
    pending = [seat for seat, count in sorted(queues.items()) for _ in range(count)]
    return sorted(set(permutations(pending)))


def reading_orders(members: int) -> list[tuple[int, ...]]:
    """The members read each placed message in seat order, or the other way round (who
    reads first decides which automatic reveals the relay receives first)."""
    forward = tuple(range(members))
    return [forward, forward[::-1]]


def opening(game: str, players: int):
    """A room where every member read everything, at the first throw (or play) awaited."""
    setup, sessions, _ = seats(game, players, echoed=True, time_limit_ms=LIMIT, seed=game)
    room = Room(sessions, spectators=[MatchSession(setup, seat=None)])
    now = 1_000
    while True:  # Jacquet: throw until a play is awaited (the opening may tie)
        awaiting = sessions[0].awaiting
        if game == "goose" or isinstance(awaiting, ChoosePlay):
            return room, now
        now += 1_000
        sessions[awaiting.seat].throw(now)
        room.settle(now)


def answer(session: MatchSession, now: int) -> None:
    """The awaited seat does what it is awaited for."""
    awaiting = session.awaiting
    if isinstance(awaiting, ThrowDice):
        session.throw(now)
    else:
        session.play(session.state.legal_plays()[0], now)


def race(room: Room, order: tuple[int, ...], readers: tuple[int, ...], now: int) -> None:
    """The relay places the waiting messages in *order*, the members read the room in
    *readers* order as they come, then everything settles."""
    for seat in order:
        room.place(seat)
        for member in readers:
            room.read(member, now, count=1)
    room.settle(now)


def agree(room: Room) -> tuple:
    """Every member's result and log, which must be one."""
    results = {(_end(member), member.throw_index, member.progress.position, member.state)
               for member in room.members}  # fmt: skip
    assert len(results) == 1, results
    logs = room.logs()
    assert len(logs) == 1
    log = logs.pop()
    report = verify_bytes(log)
    assert report.ok, report.error
    return results.pop()


def _end(member: MatchSession) -> tuple | None:
    ended = member.ended
    return None if ended is None else (ended.reason, ended.winner, ended.seat)


@pytest.mark.parametrize(("game", "players"), [("jacquet", 2), ("goose", 2), ("goose", 3)])
def test_an_abandonment_claim_crossing_the_answer_ends_the_match_only_if_placed_first(
    game: str, players: int
) -> None:
    room, _ = opening(game, players)
    accused = room.sessions[0].awaited_seats()[0]
    claimant = (accused + 1) % players
    late = room.sessions[0].deadline() + 1_000
    outcomes = {}
    queues = {accused: 1, claimant: 1}
    for order in interleavings(queues):
        for readers in reading_orders(len(room.members)):
            room, _ = opening(game, players)
            answer(room.sessions[accused], late)
            room.sessions[claimant].claim_abandonment(accused, late)
            assert room.sessions[claimant].ended is None  # in effect once the relay placed it
            race(room, order, readers, late + 100)
            ended, *_ = agree(room)
            outcomes[order[0]] = ended
    assert outcomes[claimant][0] == "abandoned" and outcomes[claimant][2] == accused
    assert outcomes[accused] is None  # the answer came first: the claim was overtaken


@pytest.mark.parametrize("game", ["jacquet", "goose"])
def test_a_resignation_crossing_a_move_ends_the_match_where_it_is_placed(game: str) -> None:
    """Bob resigns as Ann moves: placed first, Ann's move never happened (even on her
    screen); placed after it, the move counts and the resignation ends the match after it."""
    ends = {}
    for order in interleavings({0: 1, 1: 1}):
        for readers in reading_orders(3):
            room, now = opening(game, 2)
            mover = room.sessions[0].awaited_seats()[0]
            other = 1 - mover
            answer(room.sessions[mover], now + 500)
            room.sessions[other].resign(now + 500)
            race(room, tuple(mover if seat == 0 else other for seat in order), readers, now + 600)
            ended, _, position, _ = agree(room)
            assert ended == ("resigned", mover, other)
            last = decode_message(room.sessions[0].records[-1])
            assert isinstance(last, Resign)
            ends[order] = position
    assert len(set(ends.values())) == 2  # the move is in the log in one order, not the other


def test_two_claims_crossing_the_first_placed_ends_the_match() -> None:
    """Goose, three seats: Ann and Cy both claim Bob at once; whichever the relay puts
    first is the one every log holds, the other came after the end."""
    claims = set()
    for order in interleavings({0: 1, 2: 1}):
        for readers in reading_orders(4):
            room, now = opening("goose", 3)
            room.sessions[0].throw(now)  # Ann's lot; Bob and Cy reveal
            room.settle(now)
            late = room.sessions[0].deadline() + 1_000
            assert room.sessions[0].awaited_seats() == (1,)
            room.sessions[0].claim_abandonment(1, late)
            room.sessions[2].claim_abandonment(1, late)
            race(room, order, readers, late)
            ended, *_ = agree(room)
            assert ended[0] == "abandoned" and ended[2] == 1
            claim = decode_message(room.sessions[1].records[-1])
            assert isinstance(claim, Claim) and claim.seat == order[0]
            claims.add(claim.seat)
    assert claims == {0, 2}
