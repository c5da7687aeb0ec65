"""Catching up can never be turned against the seat catching up (the attacks of stop 36).

Mallory is a seated peer whose hellos are signed by his own key, as a true client's are: he
says he holds records he never sends, and meets each claim with a chat line of his own before
he makes the next. Ada is an honest seat. Sans-I/O: a room in a list, the test's clock, 1 s
ticks (Ada's ticker runs every second).
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from client.game.turn import NotYourTurnError
from client.net.catchup import ACT_MARGIN_MS, BEHIND_LIMIT_MS
from client.net.game import NetworkGame
from client.net.link import LinkStatus, RelayLink
from client.net.match import NetMatch
from client.setup import SessionSettings
from engine.awaiting import ThrowDice
from protocol.clock import MIN_TIME_LIMIT_MS
from tests.client.net.loop import LoopRoom

LIMIT = MIN_TIME_LIMIT_MS  # the least time limit: the one a stall hurts most
ADA, MALLORY = 0, 1


class Unlinked:
    """What a NetworkGame asks of its relay link; the loop room does the sending."""

    status = LinkStatus("connected")

    def flush(self) -> None:
        pass


def game_of(room: LoopRoom, seat: int, tmp_path: Path) -> NetworkGame:
    """The game screen's driver for *seat*: what it refuses, the player cannot do."""
    settings = SessionSettings(animation=False, data_dir=tmp_path, computer_pause=0,
                               clock=lambda: room.now)  # fmt: skip
    return NetworkGame(room.matches[seat], cast(RelayLink, Unlinked()), settings)


def records(match: NetMatch) -> int:
    assert match.session is not None
    return len(match.session.records)


def chat(room: LoopRoom, seat: int) -> None:
    room.act_all(seat, "still there?")


def awaited(room: LoopRoom) -> int:
    session = room.matches[ADA].session
    assert session is not None and isinstance(session.awaiting, ThrowDice)
    return session.awaiting.seat


def throw(room: LoopRoom, game: NetworkGame) -> None:
    """The player throws, on the board his screen shows once it has shown every turn."""
    while game.pending_turns:
        asyncio.run(game.next_turn())
    game.throw()
    room.pump()


def to_mallorys_turn(room: LoopRoom, ada: NetworkGame) -> None:
    while awaited(room) == ADA:
        throw(room, ada)


@pytest.fixture
def duel(tmp_path: Path) -> Iterator[LoopRoom]:
    room = LoopRoom.meet(tmp_path, ["Ada", "Mallory"], time_limit_ms=LIMIT)
    yield room
    room.close()


def test_claims_met_by_the_claimants_chat_lines_hold_a_seat_back_the_bound_in_all(
    duel: LoopRoom, tmp_path: Path
) -> None:
    """stop36/01: a chat line met Mallory's claim and the next one started the behind time
    afresh, so Ada caught up for ever while her own turn's limit ran."""
    ada, mallory = duel.matches
    game = game_of(duel, ADA, tmp_path)
    assert awaited(duel) == ADA
    start = duel.now
    duel.hello(MALLORY, records(mallory) + 1)
    behind = 0
    while duel.now < start + LIMIT - ACT_MARGIN_MS:
        if (duel.now - start) % 15_000 == 14_000:  # every 15 s: met by a chat line, then again
            chat(duel, MALLORY)
            duel.hello(MALLORY, records(mallory) + 1)
        behind += 1_000 if ada.catching_up else 0
        duel.tick(1_000)
    assert behind == BEHIND_LIMIT_MS  # the attack held her back: for the bound, no more
    assert not ada.catching_up
    [named] = ada.offences
    assert named.who == "Mallory" and not named.fatal
    assert named.text.startswith("said it holds ") and "never sent" in named.text
    chat(duel, MALLORY)  # a new claim in the same turn holds her back no more
    duel.hello(MALLORY, records(mallory) + 1)
    assert not ada.catching_up and len(ada.offences) == 1
    throw(duel, game)  # her throw goes out, before anyone may claim her turn
    assert mallory.session is not None and mallory.session.turns == 1


def test_a_claim_against_a_seat_past_its_limit_is_never_refused_for_its_word(
    duel: LoopRoom, tmp_path: Path
) -> None:
    """stop36/02: on his own turn Mallory kept Ada catching up, and her claim that he
    abandoned it was refused for ever."""
    ada, mallory = duel.matches
    game = game_of(duel, ADA, tmp_path)
    to_mallorys_turn(duel, game)
    session = ada.session
    assert session is not None
    deadline = session.claim_deadline()
    while duel.now < deadline - 5_000:
        duel.tick(1_000)
    duel.hello(MALLORY, records(mallory) + 1)  # just before his time is up
    while duel.now < deadline:
        duel.tick(1_000)
    assert ada.catching_up  # (what she sees is not known to be current: it may be)
    assert game.claimable(duel.now) == MALLORY  # ...but a claim is judged on signed times
    game.claim_abandonment(MALLORY)
    duel.pump()
    assert session.ended is not None and session.ended.winner == ADA
    theirs = mallory.session
    assert theirs is not None and theirs.ended is not None  # the same ending, for him too
    assert (theirs.ended.reason, theirs.ended.winner) == ("abandoned", ADA)


def test_a_resumed_seat_acts_before_its_own_limit_though_nobody_answers(tmp_path: Path) -> None:
    """stop36/08: back from a stopped app, a seat waited for every other seat's word a
    whole time limit from its return, while its own turn's limit had run from before the
    stop: a peer who never answered its hello won by claim."""
    room = LoopRoom.meet(tmp_path, ["Mallory", "Bob"], time_limit_ms=LIMIT)
    mallory, bob = room.matches
    mallorys, bobs = game_of(room, 0, tmp_path), game_of(room, 1, tmp_path)
    while awaited(room) == 0:
        throw(room, mallorys)
    session = bob.session  # Bob's turn: its limit runs from here
    assert session is not None
    deadline = session.deadline()
    mallory.play.hello = lambda *args, **kwargs: None  # type: ignore[method-assign]
    room.tick(3_000)
    room.leave(1)  # Bob's app stops...
    chat(room, 0)
    room.tick(3_000)
    bob.resumed, bob.in_relay_step = True, False  # ...he is back from his log, and the
    room.back(1)  # relay kept too little to replay: he waits for Mallory's word
    assert bob.catch_up.unheard == {0} and bob.catching_up
    acted = None
    while acted is None and room.now < deadline:
        try:
            throw(room, bobs)
            acted = room.now
        except NotYourTurnError:
            room.tick(1_000)
    assert acted == deadline - ACT_MARGIN_MS  # the margin before his limit is his
    assert mallorys.claimable(room.now) is None and session.ended is None
    room.close()


# ------------------------------------------------------------------------------ the property

Round = tuple[int, bool, int | None, bool]
rounds = st.lists(  # seconds waited; a chat line of his; a hello (his count + n); his throw
    st.tuples(st.integers(0, 15), st.booleans(), st.none() | st.integers(-1, 3), st.booleans()),
    max_size=12,
)


@settings(max_examples=20, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(rounds, st.booleans())
def test_whatever_one_peer_says_an_honest_seat_catches_up_the_bound_per_turn_and_may_claim(
    moves: list[Round], his_turn_first: bool
) -> None:
    """For any hellos, chat lines and throws of Mallory's: Ada is catching up at most
    BEHIND_LIMIT_MS while the match stands at one record, never in the last ACT_MARGIN_MS
    of her own limit, and may claim Mallory once his limit is past."""
    with tempfile.TemporaryDirectory() as tmp:
        room = LoopRoom.meet(Path(tmp), ["Ada", "Mallory"], time_limit_ms=LIMIT)
        try:
            ada, mallory = room.matches
            game = game_of(room, ADA, Path(tmp))
            mallorys = game_of(room, MALLORY, Path(tmp))
            if his_turn_first:
                to_mallorys_turn(room, game)
            session = ada.session
            assert session is not None
            behind: dict[int, int] = {}  # game records -> ms Ada caught up there

            def second() -> None:
                position = session.progress.position
                if ada.catching_up:
                    behind[position] = behind.get(position, 0) + 1_000
                    assert behind[position] <= BEHIND_LIMIT_MS, behind
                    if awaited(room) == ADA:
                        assert room.now < session.deadline() - ACT_MARGIN_MS
                room.tick(1_000)
                his = session.ended is None and awaited(room) == MALLORY
                if his and room.now >= session.claim_deadline():
                    assert game.claimable(room.now) == MALLORY

            for wait, chats, hello, throws in moves:
                for _ in range(wait):
                    second()
                if session.ended is not None:
                    break
                if chats:
                    chat(room, MALLORY)
                if hello is not None:
                    room.hello(MALLORY, max(0, records(mallory) + hello))
                if throws and awaited(room) == MALLORY:
                    throw(room, mallorys)
            if session.ended is None:  # to the end of the turn: Ada's, or his
                while room.now < session.claim_deadline():
                    second()
                if awaited(room) == MALLORY:
                    game.claim_abandonment(MALLORY)
                    room.pump()
                    assert session.ended is not None and session.ended.winner == ADA
        finally:
            room.close()
