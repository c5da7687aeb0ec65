"""Seats that share nothing but bytes: the setup handshake, then a whole match where every
seat acts on its own view and messages reach each seat at its own pace (a relay orders them
globally; each client reads its inbox whenever it gets to it)."""

from __future__ import annotations

import random
from collections import deque

import pytest

from engine.awaiting import ThrowDice
from protocol.chain import HashChain
from protocol.identity import Identity, seeded_source
from protocol.logfile import encode_log
from protocol.messages import Chat, decode_message
from protocol.session import MatchSession
from protocol.setup import Join, MatchSetup, Proposal, decode_setup_message
from protocol.verify import verify_bytes


def handshake(game: str, options: dict, names: list[str], seed: str,
              echoed: bool = False) -> list[MatchSession]:  # fmt: skip
    """Host proposes; each player joins over bytes; the host's setup bytes start everyone."""
    host_source = seeded_source(f"{seed}-host")
    proposal_bytes = Proposal.create(game, options, seats=len(names), start_time=0,
                                     random_source=host_source).encode()
    players = []
    for name in names:  # each player's own machine, own randomness
        source = seeded_source(f"{seed}-{name}")
        identity, chain = Identity.generate(source), HashChain.generate(source)
        proposal = decode_setup_message(proposal_bytes)
        assert isinstance(proposal, Proposal)
        join_bytes = Join.create(proposal, identity, name, chain.tip).encode()
        players.append((identity, chain, source, join_bytes))
    joins = [decode_setup_message(join_bytes) for *_, join_bytes in players]
    setup_bytes = MatchSetup.create(decode_setup_message(proposal_bytes), joins).encode()
    sessions = []
    for seat, (identity, chain, source, _) in enumerate(players):
        setup = MatchSetup.decode(setup_bytes)
        sessions.append(MatchSession(setup, seat=seat, identity=identity, chain=chain,
                                     random_source=source, echoed=echoed))
    assert len({s.match_id for s in sessions}) == 1
    return sessions


def move(session: MatchSession, now: int) -> None:
    """The seat whose move it is, by its own view, throws or makes its last legal play."""
    if isinstance(session.awaiting, ThrowDice):
        session.throw(now)
    else:
        session.play(session.state.legal_plays()[-1], now)


@pytest.mark.parametrize(
    ("game", "options", "names"),
    [("goose", {"rules": "1792"}, ["Ann", "Bob", "Cy"]), ("jacquet", {}, ["Ann", "Bob"])],
)
def test_independent_seats_end_with_identical_verified_logs(game, options, names) -> None:
    sessions = handshake(game, options, names, seed=game)
    rng = random.Random(1)
    inboxes = [deque() for _ in sessions]
    now = 0
    for _ in range(200_000):
        if all(s.ended for s in sessions) and not any(inboxes):
            break
        now += 10
        # Whoever's own view says it is their move acts (maybe not yet: they are slow too).
        for seat, session in enumerate(sessions):
            if session.awaited_seats() == (seat,) and rng.random() < 0.5:
                move(session, now)
        for seat, session in enumerate(sessions):
            for data in session.data_to_send():
                for other in range(len(sessions)):
                    if other != seat:
                        inboxes[other].append(data)
        # Each seat reads a random number of its pending messages.
        for seat, inbox in enumerate(inboxes):
            for _ in range(rng.randrange(0, 3)):
                if inbox:
                    sessions[seat].receive_bytes(inbox.popleft(), now)
    assert all(s.ended is not None and s.ended.reason == "finished" for s in sessions)
    logs = {encode_log(s.setup, s.records) for s in sessions}
    assert len(logs) == 1
    report = verify_bytes(logs.pop())
    assert report.ok and report.turns == sessions[0].turns


@pytest.mark.parametrize(
    ("game", "options", "names", "seed"),
    [
        ("goose", {"rules": "daumont"}, ["Ann", "Bob", "Cy"], 2),
        ("goose", {"rules": "1792"}, ["Ann", "Bob", "Cy", "Dee"], 3),
        ("jacquet", {}, ["Ann", "Bob"], 4),
    ],
)
def test_chat_racing_the_game_through_a_relay_lands_at_one_place_in_every_log(
    game, options, names, seed
) -> None:
    """A relay puts every message in one order and delivers it to everyone, the sender too;
    each client reads that stream at its own pace, acts on its own view, and chats at random
    moments (while shares and plays are on their way). Every seat's log is the one a
    spectator of the stream writes, byte for byte."""
    sessions = handshake(game, options, names, seed=f"{game}-echo", echoed=True)
    watcher = MatchSession(sessions[0].setup, seat=None)
    readers = [*sessions, watcher]
    stream: list[bytes] = []
    read = [0] * len(readers)
    rng = random.Random(seed)
    now, chats = 0, 0

    def send(session: MatchSession) -> None:
        stream.extend(session.data_to_send())

    for _ in range(200_000):
        if all(s.ended for s in sessions) and all(n == len(stream) for n in read):
            break
        now += 10
        for seat, session in enumerate(sessions):
            if session.awaited_seats() == (seat,) and rng.random() < 0.5:
                move(session, now)
                send(session)
            if chats < 120 and rng.random() < 0.15:
                chats += 1
                session.chat(f"{names[seat]} {chats}", now)
                send(session)
        for reader, session in enumerate(readers):
            for _ in range(rng.randrange(0, 3)):
                if read[reader] < len(stream):
                    session.receive_bytes(stream[read[reader]], now)
                    read[reader] += 1
                    send(session)
    assert all(s.ended is not None and s.ended.reason == "finished" for s in sessions)
    assert all(s.unlogged() == 0 for s in sessions)
    logs = {encode_log(s.setup, s.records) for s in readers}
    assert len(logs) == 1
    log = logs.pop()
    report = verify_bytes(log)
    assert report.ok and report.records == len(watcher.records)
    assert sum(isinstance(decode_message(r), Chat) for r in watcher.records) == chats > 20
