"""The sans-I/O core on its own: frames and a clock in, frames and closes out, no sockets."""

from __future__ import annotations

import pickle
from dataclasses import replace

import msgpack  # type: ignore[import-untyped]
import pytest

from relay.config import RelayConfig
from relay.core import RelayCore
from relay.envelope import (
    VERSION,
    Create,
    Created,
    Error,
    ErrorCode,
    Join,
    Kind,
    Message,
    Presence,
    PresenceEvent,
    RelayMessage,
    Send,
    Stamped,
    Welcome,
    decode_relay_frame,
    encode,
)
from relay.outputs import Close, Log, Output, Transmit
from relay.rooms import room_id_for

CONFIG = RelayConfig(seat_grace=10.0, room_idle=60.0, handshake_timeout=5.0, backlog=8)


class Harness:
    """Drives a core and sorts what it emits into per-connection inboxes."""

    def __init__(self, config: RelayConfig = CONFIG) -> None:
        self.core = RelayCore(config)
        self.now = 0.0
        self.inbox: dict[int, list[RelayMessage]] = {}
        self.closed: dict[int, int] = {}
        self._next = 0

    def apply(self, outputs: list[Output]) -> None:
        for output in outputs:
            if isinstance(output, Transmit):
                for conn in output.to:
                    self.inbox[conn].append(decode_relay_frame(output.data))
            elif isinstance(output, Close):
                self.closed[output.conn] = output.code

    def connect(self, ip: str = "10.0.0.1") -> int:
        self._next += 1
        self.inbox[self._next] = []
        self.apply(self.core.open(self._next, ip, self.now))
        return self._next

    def send(self, conn: int, message: Create | Join | Send) -> None:
        self.apply(self.core.receive(conn, encode(message), self.now))

    def drop(self, conn: int) -> None:
        self.apply(self.core.closed(conn, self.now))

    def advance(self, seconds: float) -> None:
        self.now += seconds
        self.apply(self.core.tick(self.now))

    def take(self, conn: int) -> list[RelayMessage]:
        messages, self.inbox[conn] = self.inbox[conn], []
        return messages

    def room(self, seats: int = 2) -> Created:
        conn = self.connect()
        self.send(conn, Create(seats))
        (created,) = self.take(conn)
        assert isinstance(created, Created)
        return created

    def join(self, room: Created, token: str, name: str, resume_from: int | None = None) -> int:
        conn = self.connect()
        self.send(conn, Join(room.room_id, token, name, resume_from))
        return conn

    def seat(self, room: Created, name: str) -> tuple[int, str]:
        """A new player's connection and seat token, its welcome already read."""
        conn = self.join(room, room.player_token, name)
        token = welcome(self.take(conn)).seat_token
        assert token is not None
        return conn, token

    def two_players(self) -> tuple[int, int]:
        """Two seated players of a new room, their inboxes emptied."""
        room = self.room()
        ada, _ = self.seat(room, "Ada")
        bob, _ = self.seat(room, "Bob")
        self.take(ada), self.take(bob)
        return ada, bob

    def error_code(self, conn: int) -> str:
        *_, last = self.take(conn)
        assert isinstance(last, Error), last
        return last.code


def welcome(messages: list[RelayMessage]) -> Welcome:
    assert isinstance(messages[0], Welcome), messages
    return messages[0]


def test_every_member_sees_one_numbered_stream_with_gaps_for_its_own_messages() -> None:
    h = Harness()
    room = h.room()
    ada = h.join(room, room.player_token, "Ada")
    bob = h.join(room, room.player_token, "Bob")
    eve = h.join(room, room.spectator_token, "Eve")
    h.send(ada, Send(b"one"))
    h.send(bob, Send(b"two"))
    h.send(ada, Send(b"three"))
    ada_stream = h.take(ada)
    assert welcome(ada_stream).seat == 0
    assert ada_stream[1:] == [
        Presence(0, 0, PresenceEvent.JOINED, "Ada"),
        Presence(1, 1, PresenceEvent.JOINED, "Bob"),
        Message(3, 1, b"two"),  # 2 and 4 are Ada's own: the gaps are her place
    ]
    assert h.take(bob)[2:] == [Message(2, 0, b"one"), Message(4, 0, b"three")]
    eve_stream = h.take(eve)
    assert welcome(eve_stream).seat is None and welcome(eve_stream).next_seq == 2
    assert eve_stream[1:] == [Message(2, 0, b"one"), Message(3, 1, b"two"), Message(4, 0, b"three")]


def test_who_receives_a_message_follows_arrivals_and_departures() -> None:
    """Each room keeps its audience per sender between changes: every change counts."""
    h = Harness()
    room = h.room()
    ada = h.join(room, room.player_token, "Ada")
    bob = h.join(room, room.player_token, "Bob")
    h.send(ada, Send(b"one"))
    eve = h.join(room, room.spectator_token, "Eve")
    h.send(ada, Send(b"two"))
    h.drop(bob)
    h.send(ada, Send(b"three"))
    payloads = {
        conn: [m.payload for m in h.take(conn) if isinstance(m, Message)]
        for conn in (ada, bob, eve)
    }
    assert payloads == {ada: [], bob: [b"one", b"two"], eve: [b"two", b"three"]}
    transmit = h.core.receive(ada, encode(Send(b"four")), h.now)
    assert [o.to for o in transmit if isinstance(o, Transmit)] == [(eve,)]


def test_a_sender_that_asks_is_told_its_number_at_once_and_only_then() -> None:
    h = Harness()
    ada, bob = h.two_players()
    h.send(ada, Send(b"one"))
    h.send(ada, Send(b"two", tell=True))  # numbers 2 and 3
    assert h.take(ada) == [Stamped(3)] and h.take(bob) == [
        Message(2, 0, b"one"),
        Message(3, 0, b"two"),
    ]
    h.send(ada, Send(b"three"))  # not asked: the next event of another member says it
    h.advance(5.0)
    assert h.take(ada) == []
    h.send(bob, Send(b"reply"))
    assert h.take(ada) == [Message(5, 1, b"reply")]  # 4, the gap, was Ada's "three"


def test_the_told_number_is_the_senders_own_even_when_others_sent_between() -> None:
    h = Harness()
    ada, bob = h.two_players()
    h.send(bob, Send(b"first"))
    h.send(ada, Send(b"resign", tell=True))
    h.send(bob, Send(b"after"))
    assert h.take(ada) == [Message(2, 1, b"first"), Stamped(3), Message(4, 1, b"after")]


def test_a_sender_is_never_told_what_it_did_not_ask() -> None:
    h = Harness()
    ada, bob = h.two_players()
    for word in (b"ping", b"again"):
        h.send(ada, Send(word))
        h.advance(1.0)
    h.drop(ada)  # a departure is an event too: Bob hears it after Ada's messages
    assert h.take(bob) == [
        Message(2, 0, b"ping"),
        Message(3, 0, b"again"),
        Presence(4, 0, PresenceEvent.LEFT, "Ada"),
    ]


def test_a_lone_sender_is_numbered_and_told() -> None:
    h = Harness()
    room = h.room()
    ada, _ = h.seat(room, "Ada")
    h.take(ada)
    h.send(ada, Send(b"alone", tell=True))
    assert h.core.stats.messages_forwarded == 0
    assert h.take(ada) == [Stamped(1)]
    bob = h.join(room, room.player_token, "Bob", resume_from=0)
    assert Message(1, 0, b"alone") in h.take(bob)  # kept for resumers all the same


def test_the_relay_keeps_only_hashes_of_tokens() -> None:
    h = Harness()
    room = h.room()
    _, seat_token = h.seat(room, "Ada")
    memory = pickle.dumps(h.core.rooms)
    for token in (room.player_token, room.spectator_token, seat_token):
        assert token.encode() not in memory


def test_spectators_cannot_send_but_stay_connected() -> None:
    h = Harness()
    room = h.room()
    ada = h.join(room, room.player_token, "Ada")
    eve = h.join(room, room.spectator_token, "Eve")
    h.take(ada)
    h.send(eve, Send(b"cheat"))
    assert h.error_code(eve) == ErrorCode.SPECTATOR_CANNOT_SEND
    assert eve not in h.closed
    assert h.take(ada) == []


def test_resume_replays_exactly_the_missed_events_then_goes_live() -> None:
    h = Harness()
    room = h.room()
    ada = h.join(room, room.player_token, "Ada")
    bob, bob_token = h.seat(room, "Bob")
    h.drop(bob)  # seq 2: Bob left
    h.send(ada, Send(b"while you were away"))  # seq 3
    bob = h.join(room, bob_token, "Bob", resume_from=2)
    h.send(ada, Send(b"welcome back"))
    stream = h.take(bob)
    assert welcome(stream).seat == 1 and welcome(stream).next_seq == 4
    assert stream[1:] == [
        Presence(2, 1, PresenceEvent.LEFT, "Bob"),
        Message(3, 0, b"while you were away"),
        Presence(4, 1, PresenceEvent.RECONNECTED, "Bob"),
        Message(5, 0, b"welcome back"),
    ]


def test_resume_from_beyond_the_backlog_asks_for_a_resync() -> None:
    h = Harness(replace(CONFIG, backlog=4))
    room = h.room()
    ada = h.join(room, room.player_token, "Ada")
    for i in range(10):
        h.send(ada, Send(bytes([i])))
    # Seq 0 is Ada's arrival, 1..10 her messages; a backlog of 4 still holds 7..10.
    eve = h.join(room, room.spectator_token, "Eve", resume_from=7)
    assert [m.seq for m in h.take(eve)[1:]] == [7, 8, 9, 10]  # type: ignore[union-attr]
    h.take(ada)
    late = h.join(room, room.spectator_token, "Late", resume_from=6)
    stream = h.take(late)
    assert welcome(stream).resync and welcome(stream).next_seq == 11 and len(stream) == 2
    # A spectator the backlog could not serve is announced, in the stream, to everyone (a
    # player sends him the match); Eve, served from the backlog, was not.
    watching = Presence(11, 0, PresenceEvent.WATCHING, "Late")
    assert stream[1] == watching and h.take(ada) == [watching] and h.take(eve) == [watching]
    future = h.join(room, room.spectator_token, "Eve", resume_from=13)
    assert h.error_code(future) == ErrorCode.BAD_RESUME


def test_the_backlog_is_bounded_in_bytes_too() -> None:
    h = Harness(replace(CONFIG, backlog=1024, max_frame=1024, backlog_bytes=4096))
    room = h.room()
    ada = h.join(room, room.player_token, "Ada")
    for _ in range(8):  # seq 1..8, about 1 KiB each: only the last 4 fit in 4 KiB
        h.send(ada, Send(bytes(1000)))
    kept = h.join(room, room.spectator_token, "Eve", resume_from=5)
    assert [m.seq for m in h.take(kept)[1:]] == [5, 6, 7, 8]  # type: ignore[union-attr]
    evicted = h.join(room, room.spectator_token, "Fay", resume_from=4)
    assert welcome(h.take(evicted)).resync


def test_a_seat_is_held_for_its_token_then_expires() -> None:
    h = Harness()
    room = h.room()
    ada, ada_token = h.seat(room, "Ada")
    bob, _ = h.seat(room, "Bob")
    h.drop(ada)
    # While Ada's seat is held for her, the invite finds the room full.
    assert h.error_code(h.join(room, room.player_token, "Mallory")) == ErrorCode.ROOM_FULL
    h.advance(9.0)
    assert h.take(bob)[-1] == Presence(2, 0, PresenceEvent.LEFT, "Ada")
    h.advance(1.5)
    assert h.take(bob) == [Presence(3, 0, PresenceEvent.SEAT_EXPIRED, "Ada")]
    assert h.error_code(h.join(room, ada_token, "Ada")) == ErrorCode.SEAT_EXPIRED
    newcomer = h.join(room, room.player_token, "Cyd")
    assert welcome(h.take(newcomer)).seat == 0  # the freed seat, under a new token


def test_a_newer_connection_with_the_seat_token_replaces_the_old_one() -> None:
    h = Harness()
    room = h.room()
    ada, token = h.seat(room, "Ada")
    again = h.join(room, token, "Ada")
    assert h.error_code(ada) == ErrorCode.REPLACED and h.closed[ada] == 1008
    assert h.take(again)[1:] == [Presence(1, 0, PresenceEvent.RECONNECTED, "Ada")]
    h.drop(ada)  # the old socket finally closing does not free the seat
    h.send(again, Send(b"still here", tell=True))
    assert h.take(again) == [Stamped(2)]  # numbered: the seat is still its own


@pytest.mark.parametrize(
    ("message", "code"),
    [
        (Join("no-such-room", "x", "Ada"), ErrorCode.UNKNOWN_ROOM),
        (Send(b"x"), ErrorCode.NOT_JOINED),
        (Create(16), ErrorCode.BAD_SEATS),
        (Create(0), ErrorCode.BAD_SEATS),
    ],
)
def test_lobby_mistakes_are_refused_and_closed(message: Join | Send | Create, code: str) -> None:
    h = Harness()
    conn = h.connect()
    h.send(conn, message)
    assert h.error_code(conn) == code
    assert h.closed[conn] == 1008


def test_join_refusals() -> None:
    h = Harness(replace(CONFIG, max_spectators=1))
    room = h.room(seats=1)
    assert h.error_code(h.join(room, "forged", "Ada")) == ErrorCode.BAD_TOKEN
    assert h.error_code(h.join(room, room.player_token, "\x1b[2J")) == ErrorCode.BAD_NAME
    assert h.error_code(h.join(room, room.player_token, " " * 3)) == ErrorCode.BAD_NAME
    ada = h.join(room, room.player_token, "Ada")
    h.send(ada, Join(room.room_id, room.player_token, "Ada"))
    assert h.error_code(ada) == ErrorCode.ALREADY_JOINED
    assert h.error_code(h.join(room, room.player_token, "Bob")) == ErrorCode.ROOM_FULL
    h.join(room, room.spectator_token, "Eve")
    assert h.error_code(h.join(room, room.spectator_token, "Fay")) == ErrorCode.SPECTATORS_FULL


def test_failed_joins_from_one_address_are_throttled() -> None:
    h = Harness(replace(CONFIG, join_failures_per_minute=3))
    room = h.room()
    for _ in range(3):
        assert h.error_code(h.join(room, "guess", "Ada")) == ErrorCode.BAD_TOKEN
    # Even the right token is turned away now: the guess is never evaluated.
    assert h.error_code(h.join(room, room.player_token, "Ada")) == ErrorCode.TOO_MANY_FAILURES
    other = h.connect(ip="10.0.0.2")
    h.send(other, Join(room.room_id, room.player_token, "Bob"))
    assert isinstance(h.take(other)[0], Welcome)
    h.advance(20.0)  # one failure's worth of budget back (3 per minute)
    assert isinstance(h.take(h.join(room, room.player_token, "Ada"))[0], Welcome)


def test_flooding_past_the_rate_limit_is_refused_then_closed() -> None:
    h = Harness(replace(CONFIG, rate=10.0, burst=5))
    room = h.room()
    ada = h.join(room, room.player_token, "Ada")  # the join spends one token
    h.take(ada)
    for i in range(10):
        h.send(ada, Send(bytes([i])))
    (refusal,) = h.take(ada)
    assert refusal == Error(ErrorCode.RATE_LIMITED, refusal.text)  # type: ignore[union-attr]
    assert h.closed[ada] == 1008
    assert h.core.rooms[room.room_id].next_seq == 1 + 4  # her join, then four messages


def test_a_connection_that_never_joins_is_closed_after_the_handshake_timeout() -> None:
    h = Harness()
    idle = h.connect()
    h.advance(4.0)
    assert idle not in h.closed
    h.advance(1.5)
    assert h.error_code(idle) == ErrorCode.HANDSHAKE_TIMEOUT and h.closed[idle] == 1008


def test_connections_per_address_and_rooms_are_capped() -> None:
    h = Harness(replace(CONFIG, max_connections_per_ip=2, max_rooms=1))
    first, second = h.connect(), h.connect()
    third = h.connect()
    assert h.error_code(third) == ErrorCode.TOO_MANY_CONNECTIONS and h.closed[third] == 1013
    h.drop(third)
    h.drop(second)
    assert h.take(h.connect()) == []  # a slot was freed
    h.send(first, Create(2))
    elsewhere = h.connect(ip="10.0.0.9")
    h.send(elsewhere, Create(2))
    assert h.error_code(elsewhere) == ErrorCode.TOO_MANY_ROOMS and h.closed[elsewhere] == 1013


def test_one_address_cannot_hold_every_room() -> None:
    h = Harness(replace(CONFIG, max_rooms_per_ip=2))
    first = h.room()
    h.room()
    refused = h.connect()
    h.send(refused, Create(2))
    assert h.error_code(refused) == ErrorCode.TOO_MANY_ROOMS
    elsewhere = h.connect(ip="10.0.0.2")
    h.send(elsewhere, Create(2))
    assert isinstance(h.take(elsewhere)[0], Created)
    h.advance(61.0)  # nobody joined: the first two rooms expire and free the address's quota
    assert first.room_id not in h.core.rooms
    h.room()


def test_an_empty_room_expires_after_the_idle_time() -> None:
    h = Harness()
    room = h.room()
    ada = h.join(room, room.player_token, "Ada")
    h.drop(ada)
    h.advance(59.0)
    assert room.room_id in h.core.rooms
    h.advance(2.0)
    assert room.room_id not in h.core.rooms
    assert h.error_code(h.join(room, room.player_token, "Ada")) == ErrorCode.UNKNOWN_ROOM


def test_a_room_id_is_made_from_its_seats_and_tokens() -> None:
    room = Harness().room(seats=3)
    assert room.room_id == room_id_for(3, room.player_token, room.spectator_token)
    assert len(room.room_id) == 22


def test_a_lost_room_comes_back_under_its_old_secrets() -> None:
    lost = Harness().room()  # as handed out by a relay that has since restarted
    h = Harness()
    for _ in range(2):  # two members race to bring it back: both get the same answer
        conn = h.connect()
        h.send(conn, Create(2, lost))
        assert h.take(conn) == [lost]
    ada = h.join(lost, lost.player_token, "Ada")
    assert welcome(h.take(ada)).seat == 0
    eve = h.join(lost, lost.spectator_token, "Eve")
    assert welcome(h.take(eve)).seat is None


def test_knowing_a_room_id_is_not_enough_to_take_the_room() -> None:
    """A spectator (or anyone shown an invite's room id) cannot squat a lost room by bringing
    it back first under tokens of his own, and trying does not lock honest players out."""
    lost = Harness().room()
    h = Harness(replace(CONFIG, join_failures_per_minute=2))
    squats = [
        replace(lost, player_token="m" * 43),  # his own player token, the real spectator's
        replace(lost, spectator_token="m" * 43),
        Created(lost.room_id, lost.spectator_token, lost.player_token),  # swapped
    ]
    for attempt in squats * 2:  # more attempts than the failure limit allows guesses
        conn = h.connect()
        h.send(conn, Create(2, attempt))
        assert h.error_code(conn) == ErrorCode.BAD_TOKEN and h.closed[conn] == 1008
    conn = h.connect()
    h.send(conn, Create(3, lost))  # the right tokens, but not the room's seat count
    assert h.error_code(conn) == ErrorCode.BAD_TOKEN
    assert lost.room_id not in h.core.rooms
    conn = h.connect()  # the same address: a failed proof was never counted as a guess
    h.send(conn, Create(2, lost))
    assert h.take(conn) == [lost]
    assert welcome(h.take(h.join(lost, lost.player_token, "Ada"))).seat == 0


def test_a_failed_proof_says_nothing_about_the_room() -> None:
    """The refusal is the same whether the room exists or not: it is the id and the tokens
    that disagree, which anyone can compute without asking."""
    h = Harness()
    live = h.room()
    gone = Harness().room()
    answers = []
    for room in (live, gone):
        conn = h.connect()
        h.send(conn, Create(2, replace(room, player_token="m" * 43)))
        answers.append(h.take(conn))
    assert answers[0] == answers[1]


def test_half_open_connections_are_counted_per_address() -> None:
    h = Harness(replace(CONFIG, max_connections_per_ip=1))
    core = h.core
    assert core.admit("10.0.0.1") is None and core.admit("10.0.0.1") is None  # 1, and 1 over
    refusal = core.admit("10.0.0.1")
    assert refusal is not None and refusal.details["code"] == ErrorCode.TOO_MANY_CONNECTIONS
    assert refusal.details["ip"] == "10.0.0.1"
    assert core.admit("10.0.0.2") is None  # another address is not affected
    core.upgraded_or_gone("10.0.0.1")
    assert core.admit("10.0.0.1") is None
    assert core.stats.refusals[ErrorCode.TOO_MANY_CONNECTIONS] == 1


def test_half_open_and_upgraded_connections_of_an_address_count_together() -> None:
    """An address holds at most --max-connections-per-ip connections, whether they finished
    their HTTP upgrade or not (not that many of each), and one more, which is refused in
    words if it upgrades."""
    h = Harness(replace(CONFIG, max_connections_per_ip=3))
    core = h.core
    for _ in range(2):  # two connections upgrade, as the shell tells it: admit, then open
        assert core.admit("10.0.0.1") is None
        core.upgraded_or_gone("10.0.0.1")
        h.connect("10.0.0.1")
    assert core.admit("10.0.0.1") is None  # the third, still in its upgrade
    assert core.admit("10.0.0.1") is None  # one over: held, to be told why
    refusal = core.admit("10.0.0.1")
    assert refusal is not None and refusal.details["code"] == ErrorCode.TOO_MANY_CONNECTIONS
    assert refusal.details["ip"] == "10.0.0.1"
    core.upgraded_or_gone("10.0.0.1")  # the third upgrades: three open, none refused
    third = h.connect("10.0.0.1")
    assert third not in h.closed
    core.upgraded_or_gone("10.0.0.1")  # the one over upgrades: refused, in words
    over = h.connect("10.0.0.1")
    assert h.error_code(over) == ErrorCode.TOO_MANY_CONNECTIONS and h.closed[over] == 1013


def test_half_open_connections_are_capped_in_all() -> None:
    """--max-half-open counts every connection still in its upgrade, from every address,
    and behind a trusted proxy (whose connections all come from one address) too."""
    h = Harness(replace(CONFIG, max_half_open=3, max_connections_per_ip=2))
    core = h.core
    assert core.admit("10.0.0.1") is None and core.admit("10.0.0.2") is None
    assert core.admit("127.0.0.1", per_address=False) is None
    for ip, per_address in (("10.0.0.3", True), ("127.0.0.1", False)):
        refusal = core.admit(ip, per_address=per_address)
        assert refusal is not None and refusal.details["ip"] == ip
        assert refusal.details["code"] == ErrorCode.TOO_MANY_CONNECTIONS
    core.upgraded_or_gone("127.0.0.1", per_address=False)
    assert core.admit("10.0.0.3") is None


@pytest.mark.parametrize(
    "frame",
    [
        encode(Message(9, 0, b"forged")),  # a relay message, as if stamped for seat 0
        msgpack.packb([VERSION, Kind.SEND, b"x", 0]),  # a send naming a seat
        msgpack.packb([VERSION, Kind.SEND, 0, b"x"]),
    ],
    ids=["message envelope", "seat after", "seat before"],
)
def test_a_frame_claiming_a_seat_is_refused(frame: bytes) -> None:
    h = Harness()
    ada, bob = h.two_players()
    h.apply(h.core.receive(bob, frame, h.now))
    assert h.error_code(bob) == ErrorCode.BAD_ENVELOPE and h.closed[bob] == 1008
    assert h.take(ada) == []


def test_the_seat_stamped_on_a_message_is_its_senders() -> None:
    """Whatever a player puts in a send, the relay stamps the seat of the connection it came
    on: the payload is opaque, and the envelope has no field for a seat."""
    h = Harness()
    room = h.room()
    ada, _ = h.seat(room, "Ada")
    bob, bob_token = h.seat(room, "Bob")
    looks_like_seat_0 = encode(Message(9, 0, b"forged"))
    non_canonical = b"\xdc\x00\x03" + bytes((VERSION, Kind.SEND)) + msgpack.packb(b"slow path")
    h.send(bob, Send(looks_like_seat_0))
    h.apply(h.core.receive(bob, non_canonical, h.now))
    h.drop(bob)
    bob = h.join(room, bob_token, "Bob")  # back in his seat
    h.take(bob)
    h.send(bob, Send(b"after a reconnect"))
    messages = [m for m in h.take(ada) if isinstance(m, Message)]
    assert [(m.seat, m.payload) for m in messages] == [
        (1, looks_like_seat_0),
        (1, b"slow path"),
        (1, b"after a reconnect"),
    ]


@pytest.mark.parametrize(
    "frame",
    [
        bytes((0x93, VERSION, Kind.SEND, 0xC5, 0, 2)) + b"hi",  # bin 16 for two bytes
        bytes((0x93, VERSION, Kind.SEND, 0xC6, 0, 0, 0, 2)) + b"hi",  # bin 32
        bytes((0x93, 0xCC, VERSION, 0xCD, 0, Kind.SEND, 0xC4, 2)) + b"hi",  # long ints
        b"\xdc\x00\x03" + bytes((VERSION, Kind.SEND)) + bytes((0xC5, 0, 2)) + b"hi",
    ],
    ids=["bin16", "bin32", "uint8 and uint16", "array16 and bin16"],
)
def test_a_long_encoding_is_forwarded_in_canonical_form(frame: bytes) -> None:
    """The relay forwards a payload under its shortest header, whatever the sender wrote:
    every member gets the very frame the relay would have made of a canonical send."""
    h = Harness()
    room = h.room()
    ada, _ = h.seat(room, "Ada")
    bob, _ = h.seat(room, "Bob")
    h.take(ada)
    frames: list[bytes] = []
    for output in h.core.receive(bob, frame, h.now):
        assert isinstance(output, Transmit) and output.to == (ada,)
        frames.append(output.data)
    assert frames == [msgpack.packb([VERSION, Kind.MESSAGE, 2, 1, b"hi"], use_bin_type=True)]


@pytest.mark.parametrize("code", [ErrorCode.TOO_SLOW, ErrorCode.FRAME_TOO_LARGE])
def test_a_refusal_by_the_transport_names_the_address(code: ErrorCode) -> None:
    h = Harness()
    conn = h.connect("203.0.113.9")
    (line,) = h.core.refused_by_transport(conn, code)
    assert isinstance(line, Log) and line.details == {"code": code, "ip": "203.0.113.9"}
    closing = [out for out in h.core.closed(conn, h.now) if isinstance(out, Log)]
    assert closing[0].event == "close" and closing[0].details["ip"] == "203.0.113.9"
