"""A hostile host and a hostile player against the client's real match core (NetMatch: the
meeting, the session, catch-ups, spectators' catch-ups, rematches) in the relay's order.
The four invariants of :mod:`tests.adversarial.invariants` hold after every payload.
"""

from __future__ import annotations

from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import given
from hypothesis import strategies as st

from client.net import wire
from protocol.bounds import CHAT_AHEAD, HELD_PER_SEAT
from protocol.clock import MAX_TIME_LIMIT_MS, MIN_TIME_LIMIT_MS
from protocol.codec import pack
from protocol.messages import MAX_TIME, Chat, seal
from protocol.setup import DEFAULT_TIME_LIMIT_MS, NONCE_BYTES, Proposal
from tests.adversarial.invariants import CLAIM_SLACK_MS
from tests.adversarial.profiles import bounded, figures
from tests.adversarial.room import HostileRoom, raw_payload
from tests.adversarial.values import ACCEPTED_INTS, REFUSED_INTS, TEN_YEARS_MS, names, odd_text
from tests.client.conftest import FIXED_TIME_MS

HONEST = ["Ada", "Bob", "Cy"]
small = st.integers(0, 12)
option_ints = st.one_of(small, st.sampled_from(ACCEPTED_INTS), st.sampled_from((2**63 // 3,)))
goose_options = st.fixed_dictionaries(
    {"rules": st.sampled_from(("daumont", "1792"))},
    optional={"ante": option_ints, "fee": option_ints},
)
jacquet_options = st.fixed_dictionaries(
    {}, optional={"match_to": option_ints, "bearoff": st.sampled_from(("backgammon", "x"))}
)
start_times = st.sampled_from((
    0, FIXED_TIME_MS - TEN_YEARS_MS, FIXED_TIME_MS - 1, FIXED_TIME_MS,
    FIXED_TIME_MS + CLAIM_SLACK_MS, FIXED_TIME_MS + CLAIM_SLACK_MS + 1,
    FIXED_TIME_MS + DEFAULT_TIME_LIMIT_MS, FIXED_TIME_MS + TEN_YEARS_MS, MAX_TIME,
))  # fmt: skip
limits = st.sampled_from((MIN_TIME_LIMIT_MS, DEFAULT_TIME_LIMIT_MS, MAX_TIME_LIMIT_MS))


@st.composite
def proposals(draw: st.DrawFn) -> Proposal:
    """What a hostile host proposes: shapes the decoder takes, values at their extremes."""
    game = draw(st.sampled_from(("goose", "jacquet")))
    seats = 2 if game == "jacquet" else draw(st.integers(2, 3))
    options = draw(goose_options if game == "goose" else jacquet_options)
    return Proposal(game, tuple(sorted(options.items())), seats, draw(limits),
                    draw(start_times), bytes(NONCE_BYTES))  # fmt: skip


@bounded(30)
@given(proposal=proposals(), rounds=st.integers(0, 40), host=names)
def test_a_hostile_host_is_refused_or_named_and_cannot_stall(
    proposal: Proposal, rounds: int, host: str
) -> None:
    """The host proposes extreme options and times (ante 2^63, a start ten years ahead…):
    each joiner refuses the proposal naming him, or plays a match in which nothing escapes,
    any fault names him, and he can be claimed abandoned in time."""
    with figures("room: hostile host") as count, TemporaryDirectory() as folder:
        if host in HONEST:
            host = "Mallory"
        room = HostileRoom(Path(folder), [host, *HONEST[: proposal.seats - 1]], attacker=0)
        try:
            room.propose(proposal)
            room.rounds(rounds)
            room.finish()
        finally:
            room.close()
        count()


# ------------------------------------------------------------------------- a hostile player

HAVE = st.one_of(st.integers(-1, 40), st.sampled_from((2**31 - 1, 2**31, 2**63 - 1)))
SEAT = st.sampled_from((0, 1, 2, 3, 15, 255, 2**31 - 1, -1))


@st.composite
def injections(draw: st.DrawFn, records: int = 0) -> tuple:
    """One payload (or room event) a hostile player makes, with extreme fields."""
    kind = draw(st.sampled_from(("hello", "reconnect", "transcript", "spectate", "rematch",
                                 "withdraw", "proposal", "join", "setup", "game", "raw",
                                 "rounds", "tick", "ahead")))  # fmt: skip
    if kind == "ahead":  # signed chat lines numbered past his next: a few, or far
        first = draw(st.sampled_from((1, CHAT_AHEAD, CHAT_AHEAD + 1, 2**31)))
        return (kind, first, draw(st.integers(1, 3 * HELD_PER_SEAT)))
    if kind == "hello":
        return (kind, draw(SEAT), draw(HAVE))
    if kind == "transcript":
        how = draw(st.sampled_from(("real", "garbage", "others", "empty", "nested")))
        return (kind, draw(HAVE), how, draw(st.integers(0, 40)))
    if kind == "spectate":
        return (kind, draw(st.sampled_from(("ours", "garbage"))), draw(HAVE))
    if kind in ("rematch", "withdraw"):
        return (kind, draw(st.sampled_from(("ours", "zero"))))
    if kind == "proposal":
        return (kind, draw(proposals()), draw(odd_text))
    if kind in ("join", "setup", "game"):
        return (
            kind,
            draw(st.sampled_from(("replay", "garbage", "others"))),
            draw(st.integers(0, 99)),
        )
    if kind == "raw":
        values = st.one_of(st.sampled_from(ACCEPTED_INTS + REFUSED_INTS), odd_text,
                           st.binary(max_size=40))  # fmt: skip
        return (kind, draw(st.integers(-1, 10)), draw(st.lists(values, max_size=3)))
    if kind == "rounds":
        return (kind, draw(st.integers(1, 6)))
    if kind == "tick":
        return (kind, draw(st.sampled_from((1, CLAIM_SLACK_MS + 1, MIN_TIME_LIMIT_MS))))
    return (kind,)


def run_injection(room: HostileRoom, step: tuple) -> None:
    kind = step[0]
    mallory = room.mallory
    session = room.matches[room.honest[0]].session
    records = [] if session is None else list(session.records)
    setup = mallory.setup or room.matches[room.honest[0]].setup
    match kind:
        case "hello":
            _, seat, have = step
            room.inject(raw_payload(wire.HELLO, seat, have))
        case "reconnect":
            room.reconnect(room.attacker)
        case "transcript":
            _, start, how, pick = step
            if how == "real":
                data = pack(records[pick % len(records) :] if records else [])
            elif how == "others":
                data = pack([r[:-1] + bytes([r[-1] ^ 1]) for r in records[-3:]])
            elif how == "nested":
                data = pack([pack([b"\x00" * 10] * 30)] * 30)
            elif how == "empty":
                data = pack([])
            else:
                data = b"\xc1" * 10
            room.inject(raw_payload(wire.TRANSCRIPT, start, data))
        case "spectate":
            _, which, have = step
            data = setup.encode() if which == "ours" and setup is not None else b"\x93\x01"
            room.inject(raw_payload(wire.SPECTATE, data, have))
        case "rematch" | "withdraw":
            _, which = step
            match_id = setup.match_id if which == "ours" and setup is not None else bytes(32)
            room.inject(raw_payload(wire.REMATCH if kind == "rematch" else wire.WITHDRAW, match_id))
        case "proposal":
            _, proposal, token = step
            room.inject(raw_payload(wire.PROPOSAL, proposal.encode(), token[:200]))
        case "join" | "setup" | "game":
            _, how, pick = step
            code = {"join": wire.JOIN, "setup": wire.SETUP, "game": wire.GAME}[kind]
            if how == "replay" and records:
                data = records[pick % len(records)]
            elif how == "others" and setup is not None:
                data = setup.encode() if kind != "game" else bytes(pick)
            else:
                data = bytes([0x90 + pick % 16]) + bytes(pick % 7)
            room.inject(raw_payload(code, data))
        case "raw":
            _, code, fields = step
            room.inject(raw_payload(code, *fields))
        case "ahead":
            _, first, count = step
            seat, mine = mallory.seat, mallory.session
            if seat is not None and mine is not None:
                start = mine.next_chat(seat) + first
                lines = [seal(Chat(seat, start + n, room.now, "x", b""), mallory.identity,
                              mine.match_id).encode() for n in range(count)]  # fmt: skip
                room.inject(*(raw_payload(wire.GAME, line) for line in lines))
        case "rounds":
            room.rounds(step[1])
        case "tick":
            room.tick(step[1])


def honest_room(folder: Path, players: int, attacker: int, mallory: str) -> HostileRoom:
    """An honest host (Ada) proposes a plain match; the attacker is one of the players."""
    names = HONEST[:players]
    names[attacker] = mallory
    room = HostileRoom(folder, names, attacker=attacker)
    game = "goose" if players == 3 else "jacquet"
    options = {"rules": "daumont"} if game == "goose" else {"match_to": 1}
    from protocol.identity import seeded_source

    room.propose(Proposal.create(game, options, seats=players, start_time=room.now,
                                 random_source=seeded_source("room"),
                                 time_limit_ms=MIN_TIME_LIMIT_MS))  # fmt: skip
    return room


@bounded(40)
@given(players=st.integers(2, 3), seat=st.integers(1, 2), before=st.integers(0, 12),
       plan=st.lists(injections(), min_size=1, max_size=12), mallory=names)  # fmt: skip
def test_a_hostile_player_is_named_paced_and_claimable(
    players: int, seat: int, before: int, plan: list[tuple], mallory: str
) -> None:
    """A player sends hellos, transcripts, catch-ups, rematch asks, proposals, joins and
    game records with extreme fields, reconnects, or waits: nothing escapes an honest
    client, every fault names him, his traffic costs each honest client at most the stated
    multiple (plus one catch-up), and he can be claimed abandoned in time."""
    with figures("room: hostile player") as count, TemporaryDirectory() as folder:
        if mallory in HONEST:
            mallory = "Mallory"
        # any seat but the host's: first after the thrower in the share order, or last
        room = honest_room(Path(folder), players, 1 + (seat - 1) % (players - 1), mallory)
        try:
            room.rounds(before)
            for step in plan:
                run_injection(room, step)
            room.finish()
        finally:
            room.close()
        count()


@bounded(15)
@given(players=st.integers(2, 3), before=st.integers(2, 12), loops=st.integers(2, 30),
       have=st.sampled_from((0, 1)), hello=st.booleans())  # fmt: skip
def test_a_reconnection_loop_costs_an_honest_client_one_catch_up(
    players: int, before: int, loops: int, have: int, hello: bool
) -> None:
    """A player reconnects again and again, each time saying he holds nothing: an honest
    client sends the match at most once more than the stated multiple of what he sent."""
    with figures("room: reconnection loop") as count, TemporaryDirectory() as folder:
        room = honest_room(Path(folder), players, players - 1, "Mallory")
        try:
            room.rounds(before)
            for _ in range(loops):
                room.reconnect(room.attacker)
                if hello:
                    room.inject(raw_payload(wire.HELLO, room.mallory.seat or 0, have))
        finally:
            room.close()
        count()


@bounded(10)
@given(players=st.integers(2, 3), before=st.integers(0, 8), victim=st.integers(0, 1))
def test_a_hello_in_another_seats_name_does_not_make_it_the_culprit(
    players: int, before: int, victim: int
) -> None:
    """The attacker says hello as another (honest) seat, then sends a forged record: the
    fault is his, not that seat's (a hello is not signed; only signed data binds a seat)."""
    with figures("room: hello as another") as count, TemporaryDirectory() as folder:
        room = honest_room(Path(folder), players, players - 1, "Mallory")
        try:
            room.rounds(before)
            records = room.matches[0].session.records  # type: ignore[union-attr]
            forged = records[-1][:-1] + bytes([records[-1][-1] ^ 1]) if records else b"\x90"
            room.inject(raw_payload(wire.HELLO, victim, 0), raw_payload(wire.GAME, forged))
            room.finish()
        finally:
            room.close()
        count()
