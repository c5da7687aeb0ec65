"""docs/relay-protocol.md is a contract for other implementations: each number and shape it
states, held against the relay's encoder and against a real ``python -m relay`` process.

A third party wrote a client from the page alone; every place where the page and the relay
parted (a welcome shown with fewer fields than sent, an envelope size true only from message
256 on, a plain ``GET /`` answered otherwise than the page said, ...) is a test here, and the
page's own words are read where they state the number, so that the one cannot change without
the other.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import re
from collections.abc import Iterator
from pathlib import Path

import msgpack  # type: ignore[import-untyped]
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosedError

from relay.client import RoomConnection, create_room
from relay.envelope import (
    VERSION,
    ClientMessage,
    Create,
    Created,
    EnvelopeError,
    Error,
    ErrorCode,
    Join,
    Kind,
    Member,
    Message,
    Notice,
    Presence,
    PresenceEvent,
    RelayMessage,
    Send,
    Stamped,
    Welcome,
    decode_client_frame,
    decode_relay_frame,
    encode,
    pack_payload,
    stamp,
)
from relay.refusals import REFUSALS
from relay.rooms import new_token, room_id_for
from tests.relay.conftest import RelayProcess, spawn_relay

DOC = Path(__file__).resolve().parents[2] / "docs" / "relay-protocol.md"


def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def section(title: str) -> str:
    """The text of one ``##``/``###`` section of the page."""
    text = doc()
    start = text.index(title)
    end = text.find("\n#", start + len(title))
    return text[start : len(text) if end < 0 else end]


def top_level(array: str) -> list[str]:
    """The elements of one written array ``[a, [b, c], "d, e"]``, split at its own commas."""
    assert array.startswith("[") and array.endswith("]"), array
    parts, depth, quoted, current = [], 0, False, ""
    for char in array[1:-1]:
        if char == '"':
            quoted = not quoted
        elif not quoted and char == "[":
            depth += 1
        elif not quoted and char == "]":
            depth -= 1
        elif not quoted and depth == 0 and char == ",":
            parts.append(current.strip())
            current = ""
            continue
        current += char
    return [*parts, current.strip()] if current.strip() else parts


# --- the messages table and the worked session -----------------------------------------


def table_fields() -> dict[int, int]:
    """For each kind of the *Messages* table, how many fields it lists after ``[5, kind]``
    (each written as a backticked ``name: type``; create lists its re-create's four)."""
    fields = {}
    for line in section("## Messages").splitlines():
        if found := re.match(r"\| (\d+) \| (\w+) \|[^|]*\| (.*) \|$", line):
            fields[int(found.group(1))] = len(re.findall(r"`\w+: [^`]+`", found.group(3)))
    return fields


SAMPLES: dict[Kind, ClientMessage | RelayMessage] = {
    Kind.CREATE: Create(2, Created("r" * 22, "p" * 43, "s" * 43)),
    Kind.CREATED: Created("r" * 22, "p" * 43, "s" * 43),
    Kind.JOIN: Join("r" * 22, "p" * 43, "Ada", 4, 77),
    Kind.WELCOME: Welcome(1, "k" * 43, 2, 1, False, (Member(0, "Ada", True),), 77, 1200, 40),
    Kind.SEND: Send(b"x"),
    Kind.MESSAGE: Message(2, 0, b"x"),
    Kind.PRESENCE: Presence(1, 1, PresenceEvent.JOINED, "Bob"),
    Kind.ERROR: Error("bad_token", "That token does not open this room; check the invite."),
    Kind.NOTICE: Notice("relay_restarting", "The relay is restarting."),
    Kind.STAMPED: Stamped(3),
    Kind.SEND_TELL: Send(b"x", tell=True),
}


def test_the_messages_table_lists_every_kind_with_the_fields_the_relay_encodes() -> None:
    listed = table_fields()
    assert sorted(listed) == sorted(int(kind) for kind in Kind)
    for kind, message in SAMPLES.items():
        fields = msgpack.unpackb(encode(message))
        assert fields[:2] == [VERSION, kind]
        assert len(fields) - 2 == listed[kind], (kind.name, fields)
    assert len(msgpack.unpackb(encode(Create(2)))) - 2 == 1  # a create without a re-create


def test_every_frame_of_the_worked_session_has_its_kind_s_fields() -> None:
    """The session written out frame by frame holds frames of exactly the table's shape (the
    guest's welcome was written with 9 elements where the relay sends 11)."""
    listed = table_fields()
    frames = re.findall(r"(\[5, \d+, .*?\])\s{2,}|(\[5, \d+, .*\])$", section("## A session"), re.M)
    written = [first or last for first, last in frames]
    assert len(written) >= 15
    for frame in written:
        elements = top_level(frame)
        kind = int(elements[1])
        allowed = {2 + listed[kind]} | ({3} if kind == Kind.CREATE else set())
        assert len(elements) in allowed, frame


# --- sizes -----------------------------------------------------------------------------


ENVELOPE_BYTES = {0: 7, 1: 7, 127: 7, 128: 8, 255: 8, 256: 9, 65_535: 9, 65_536: 11}


def test_a_message_s_envelope_costs_what_the_page_says_at_every_number() -> None:
    assert (
        "costs 7 bytes of envelope\nfor messages 0 to 127, 8 up to 255, 9 up to 65,535 and 11 "
        "up to 2³² \u2212 1"
    ) in doc()
    for seq, size in ENVELOPE_BYTES.items():
        frame = stamp(seq, 0, pack_payload(b"x" * 100))
        assert frame == encode(Message(seq, 0, b"x" * 100))
        assert len(frame) - 100 == size, seq
    assert len(stamp(2**32, 0, pack_payload(b"x" * 100))) - 100 == 15
    assert len(stamp(1, 0, pack_payload(b"x" * 256))) - 256 == 8  # a bin 16 header


# --- room ids and tokens ---------------------------------------------------------------


def documented_room_id(seats: int, player_token: str, spectator_token: str) -> str:
    """The room id made as the page's recipe says, written from the page alone."""
    data = b"tablier relay room id\0" + bytes([seats])
    for token in (player_token.encode(), spectator_token.encode()):
        data += len(token).to_bytes(2, "big") + token
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()[:16]).decode().rstrip("=")


def test_the_room_id_is_made_as_the_page_s_recipe_says() -> None:
    assert 'SHA-256(b"tablier relay room id\\0" ‖ one byte: seats' in doc()
    assert "make the room id\n  `4bLUyknlGJQxTMiNxwsjLw`" in doc()
    assert documented_room_id(2, "p" * 43, "s" * 43) == "4bLUyknlGJQxTMiNxwsjLw"
    assert room_id_for(2, "p" * 43, "s" * 43) == "4bLUyknlGJQxTMiNxwsjLw"
    for seats in range(1, 16):
        tokens = new_token(), new_token()
        assert room_id_for(seats, *tokens) == documented_room_id(seats, *tokens)
        assert re.fullmatch(r"[A-Za-z0-9_-]{22}", room_id_for(seats, *tokens))


def test_a_token_is_43_characters_of_url_safe_base64_without_padding() -> None:
    assert "URL-safe base64 without `=` padding: 43 characters" in doc()
    for _ in range(100):
        token = new_token()
        assert re.fullmatch(r"[A-Za-z0-9_-]{43}", token)
        assert len(base64.urlsafe_b64decode(token + "=")) == 32


@pytest.mark.parametrize(
    ("length", "taken"), [(15, False), (16, True), (22, True), (64, True), (65, False)]
)
def test_a_recreate_s_id_and_tokens_are_16_to_64_characters(length: int, taken: bool) -> None:
    assert "a re-create's\n  room id and both tokens 16 to 64 characters each" in doc()
    for place in range(3):
        secrets = ["a" * 22, "p" * 43, "s" * 43]
        secrets[place] = "x" * length
        frame = msgpack.packb([VERSION, Kind.CREATE, 2, *secrets])
        if taken:
            assert decode_client_frame(frame) == Create(2, Created(*secrets))
        else:
            with pytest.raises(EnvelopeError) as refused:
                decode_client_frame(frame)
            assert refused.value.code == ErrorCode.BAD_ENVELOPE


@pytest.mark.parametrize(("length", "taken"), [(1, True), (64, True), (65, False)])
def test_a_join_s_room_id_and_token_are_at_most_64_characters(length: int, taken: bool) -> None:
    assert "A join's room id and token are at most 64 characters each" in doc()
    for join in (Join("r" * length, "t" * 43, "Ada"), Join("r" * 22, "t" * length, "Ada")):
        if taken:
            assert decode_client_frame(encode(join)) == join
        else:
            with pytest.raises(EnvelopeError) as refused:
                decode_client_frame(encode(join))
            assert refused.value.code == ErrorCode.BAD_ENVELOPE


def test_an_array_of_more_than_16_or_a_map_is_refused() -> None:
    assert "an\narray longer than 16 is refused as `bad_envelope`" in doc()
    roster = [[seat, f"P{seat}", True] for seat in range(16)]
    welcome = [VERSION, Kind.WELCOME, 0, "k", 16, 0, False, roster, 1, 1200, 40]
    assert len(decode_relay_frame(msgpack.packb(welcome)).members) == 16  # type: ignore[union-attr]
    welcome[7] = [*roster, [16, "P16", True]]
    for frame in (msgpack.packb(welcome), msgpack.packb([VERSION, Kind.CREATE, {"seats": 2}])):
        with pytest.raises(EnvelopeError) as refused:
            decode_relay_frame(frame) if frame[1] == Kind.WELCOME else decode_client_frame(frame)
        assert refused.value.code == ErrorCode.BAD_ENVELOPE


# --- the limits the page states -------------------------------------------------------


def stated_limits() -> list[tuple[str, object, object]]:
    """(the page's words, the value in force, the value the words give), for every bound
    the page states as a number."""
    from relay import limits, logs
    from relay.backplane_rooms import room_bytes
    from relay.config import MAX_SEATS_PER_ROOM, RelayConfig
    from relay.envelope import MAX_NAME_CHARS
    from relay.rooms import EXPIRED_TOKEN_SECONDS, EXPIRED_TOKENS
    from relay.server import SLOW_READER_FRAMES

    c = RelayConfig()
    return [
        ("A frame may be at most **16 KiB**", c.max_frame, 16 * 1024),
        ("`seats: int` (1..15", MAX_SEATS_PER_ROOM, 15),
        ("1\u201332 printable\n  characters", MAX_NAME_CHARS, 32),
        ("handshake timeout (10 s)", c.handshake_timeout, 10),
        ("Each room keeps the last **1,024** events", c.backlog, 1024),
        ("(and at most 256 KiB of them", c.backlog_bytes, 256 * 1024),
        ("held** for the grace period (5 minutes)", c.seat_grace, 5 * 60),
        ("newest 32 expired seat tokens", EXPIRED_TOKENS, 32),
        ("none for more\n  than an hour", EXPIRED_TOKEN_SECONDS, 3600),
        ("deleted after 15 minutes (`--room-idle`)", c.room_idle, 15 * 60),
        ("(20/s, bursts of 40", (c.rate, c.burst), (20, 40)),
        ('77, 1200, 40]', (c.rate * 60, c.burst), (1200, 40)),
        ("the relay holds 64 full frames (1 MiB)", SLOW_READER_FRAMES * c.max_frame, 1 << 20),
        ("(32, open and still in their HTTP upgrade", c.max_connections_per_ip, 32),
        ("(60 a minute, 60 at once;", c.joins_per_minute, 60),
        ("for every 64 frames replayed", limits.REPLAYED_FRAMES_PER_JOIN, 64),
        ("while 1024 connections from every address", c.max_half_open, 1024),
        ("rooms created from this address (16", c.max_rooms_per_ip, 16),
        ("too many failed joins from this address (10/minute)", c.join_failures_per_minute, 10),
        ("at most one watching event in 5 s", limits.WATCHING_EVERY, 5),
        ("read up to 4 KiB in all", limits.UPGRADE_REQUEST_BYTES, 4 * 1024),
        ("each\ncounted 64 bytes more", limits.EARLY_FRAME_COST, 64),
        ("at\nmost 30 lines naming one address a minute", (logs.LINES_PER_ADDRESS, logs.WINDOW),
         (30, 60)),
        ("beyond 10,000 addresses in a minute", logs.ADDRESSES, 10_000),
        ("(`--backplane-lease`, 10 s)", c.backplane_lease, 10),
        ("**392 KiB** at the defaults", room_bytes(c) // 1024, 392),
    ]  # fmt: skip


def test_every_limit_the_page_states_is_the_one_in_force() -> None:
    text = doc()
    for words, value, stated in stated_limits():
        assert words in text, f"the page no longer says {words!r}"
        assert value == stated, f"the page says {words!r}, the relay has {value!r}"


# --- the refusals table ----------------------------------------------------------------


def test_every_refusal_closes_with_the_code_the_table_gives() -> None:
    rows = re.findall(r"^\| `(\w+)` \|.*\| ([^|]+) \|$", section("### Refusals"), re.M)
    closes: dict[str, set[str]] = {}
    for code, close in rows:
        closes.setdefault(code, set()).add(close.strip())
    assert set(closes) == {str(code) for code in ErrorCode}
    for code, (close_code, _) in REFUSALS.items():
        written = closes[code] - {"socket closed at once"}  # no websocket to close yet
        if close_code is None:
            assert written <= {"— (stays open)", "connection dropped"}, code
        else:
            assert written == {str(close_code)}, code


# --- against a real relay --------------------------------------------------------------


def relay_for_the_test(*args: str) -> Iterator[RelayProcess]:
    """A relay process started with *args*, killed after the test if it still runs."""
    proc = spawn_relay(*args)
    yield proc
    if proc.process.poll() is None:
        proc.process.kill()
        proc.process.wait()


@pytest.fixture(scope="module")
def relay_here() -> Iterator[RelayProcess]:
    """One relay process for the module's tests, its rooms in memory, sending as fast as the
    tests do (the rate's own test has a relay of its own)."""
    yield from relay_for_the_test("--handshake-timeout", "5", "--rate", "1000", "--burst", "1000")


async def raw(url: str) -> ClientConnection:
    """A websocket to the relay that sends no keepalive ping (a ping costs a frame)."""
    return await connect(url, ping_interval=None, compression=None)


async def reply(websocket: ClientConnection) -> object:
    return decode_relay_frame(await asyncio.wait_for(websocket.recv(decode=False), 30))


async def refusal(websocket: ClientConnection) -> tuple[str, int, str]:
    """The refusal's code, then the close's code and reason."""
    error = await reply(websocket)
    assert isinstance(error, Error), error
    with pytest.raises(ConnectionClosedError) as closed:
        await asyncio.wait_for(websocket.recv(), 30)
    assert closed.value.rcvd is not None
    return error.code, closed.value.rcvd.code, closed.value.rcvd.reason


async def http_get(url: str, path: str) -> tuple[int, str, str]:
    """Status, head and body of a plain HTTP/1.1 GET, the way a browser or a probe asks."""
    host, port = url.removeprefix("ws://").rstrip("/").rsplit(":", 1)
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(f"GET {path} HTTP/1.1\r\nHost: relay\r\nConnection: close\r\n\r\n".encode())
    answer = (await asyncio.wait_for(reader.read(), 30)).decode()
    writer.close()
    head, _, body = answer.partition("\r\n\r\n")
    return int(head.split()[1]), head, body


async def test_plain_http_answers_426_on_the_websocket_path_and_404_elsewhere(
    relay_here: RelayProcess,
) -> None:
    status, head, body = await http_get(relay_here.url, "/")
    assert status == 426 and "\r\nUpgrade: websocket" in head
    assert "/healthz" in body  # the relay's own answer: where its plain HTTP is
    assert (await http_get(relay_here.url, "/healthz"))[0] == 200
    assert (await http_get(relay_here.url, "/index.html"))[0] == 404
    assert "`GET /` without an `Upgrade` header" in doc() and "`426 Upgrade Required`" in doc()


async def test_a_created_room_is_made_of_tokens_and_an_id_as_the_page_says(
    relay_here: RelayProcess,
) -> None:
    for seats in (1, 2, 15):
        room = await create_room(relay_here.url, seats=seats)
        assert re.fullmatch(r"[A-Za-z0-9_-]{43}", room.player_token)
        assert re.fullmatch(r"[A-Za-z0-9_-]{43}", room.spectator_token)
        assert room.room_id == documented_room_id(seats, room.player_token, room.spectator_token)


async def test_a_second_create_on_one_connection_is_refused_and_makes_no_room(
    relay_process: RelayProcess,
) -> None:
    websocket = await raw(relay_process.url)
    await websocket.send(encode(Create(2)))
    first = await reply(websocket)
    assert isinstance(first, Created)
    await websocket.send(encode(Create(2)))
    assert await refusal(websocket) == ("already_joined", 1008, "already_joined")
    joined = await RoomConnection.join(relay_process.url, first.room_id, first.player_token, "A")
    assert joined.seat == 0  # the first room is there, whole
    await joined.close()


async def test_a_watching_event_is_numbered_with_the_spectator_s_next_seq(
    relay_process: RelayProcess,
) -> None:
    room = await create_room(relay_process.url, seats=2)
    ada = await RoomConnection.join(relay_process.url, room.room_id, room.player_token, "Ada")
    assert isinstance(joined := await ada.receive(), Presence) and joined.seq == 0
    websocket = await raw(relay_process.url)
    # A resume counted in an epoch the room never had: the backlog cannot serve it.
    await websocket.send(encode(Join(room.room_id, room.spectator_token, "Sam", 1, 12_345)))
    welcome = await reply(websocket)
    assert isinstance(welcome, Welcome) and welcome.resync and welcome.seat is None
    announced = await ada.receive()
    assert announced == Presence(welcome.next_seq, 0, PresenceEvent.WATCHING, "Sam")
    assert welcome.next_seq == 1
    await websocket.close()
    await ada.close()


@pytest.mark.parametrize(
    ("frame", "code", "close"),
    [
        (b"\x92\x05", "bad_envelope", 1008),  # an array whose elements are missing
        (msgpack.packb([4, Kind.JOIN, "r", "t", "n", None, None]), "unsupported_version", 1008),
        ("text", "text_frame", 1003),
    ],
)
async def test_a_refusal_closes_with_its_close_code_and_its_code_as_the_reason(
    relay_here: RelayProcess, frame: bytes | str, code: str, close: int
) -> None:
    websocket = await raw(relay_here.url)
    await websocket.send(frame)
    assert await refusal(websocket) == (code, close, code)


async def test_a_negative_resume_is_refused_before_the_token_is_looked_at(
    relay_here: RelayProcess,
) -> None:
    assert "A negative `n` is refused `bad_resume` to anyone" in doc()
    websocket = await raw(relay_here.url)
    await websocket.send(encode(Join("r" * 22, "not a token of any room", "Eve", -1)))
    assert await refusal(websocket) == ("bad_resume", 1008, "bad_resume")


async def test_a_frame_too_large_closes_1009_with_the_websocket_layer_s_sentence(
    relay_here: RelayProcess,
) -> None:
    """No error frame: the websocket layer refuses the frame before the relay reads it, and
    its close's reason is its own sentence, not the code (the page says so)."""
    websocket = await raw(relay_here.url)
    await websocket.send(encode(Send(b"x" * 16 * 1024)))
    with pytest.raises(ConnectionClosedError) as closed:
        await asyncio.wait_for(websocket.recv(), 30)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1009
    assert closed.value.rcvd.reason not in {str(code) for code in ErrorCode}
    assert "16384" in closed.value.rcvd.reason  # the limit it names


async def test_a_message_s_frame_from_the_relay_has_the_stated_size(
    relay_here: RelayProcess,
) -> None:
    """The frames a member receives, at the numbers where msgpack's int grows."""
    room = await create_room(relay_here.url, seats=2)
    ada = await RoomConnection.join(relay_here.url, room.room_id, room.player_token, "Ada")
    websocket = await raw(relay_here.url)
    await websocket.send(encode(Join(room.room_id, room.player_token, "Bob")))
    assert isinstance(await reply(websocket), Welcome)
    sizes: dict[int, int] = {}
    for _ in range(258):
        await ada.send(b"x" * 100)
    while len(sizes) < 258:
        frame = await asyncio.wait_for(websocket.recv(decode=False), 30)
        event = decode_relay_frame(frame)
        if isinstance(event, Message):
            sizes[event.seq] = len(frame) - 100
    expected = {2: 7, 127: 7, 128: 8, 255: 8, 256: 9, 257: 9}
    assert {seq: sizes[seq] for seq in expected} == expected
    await websocket.close()
    await ada.close()


@pytest.fixture
def slow_relay() -> Iterator[RelayProcess]:
    """A relay whose bucket refills one frame in a thousand seconds: what a connection may
    send is its burst, exactly, whatever the machine's pace."""
    yield from relay_for_the_test("--rate", "0.001", "--burst", "5", "--handshake-timeout", "5")


async def test_the_create_and_the_join_count_against_the_burst(slow_relay: RelayProcess) -> None:
    """A connection that created its room and joined it has burst - 2 frames left; one that
    only joined, burst - 1 (the page's words, the welcome's ``burst``)."""
    assert "has `burst` \u2212 1 frames left at once when its welcome comes" in doc()
    ada = await raw(slow_relay.url)
    await ada.send(encode(Create(2)))
    room = await reply(ada)
    assert isinstance(room, Created)
    await ada.send(encode(Join(room.room_id, room.player_token, "Ada")))
    welcome = await reply(ada)
    assert isinstance(welcome, Welcome) and welcome.burst == 5
    bob = await raw(slow_relay.url)
    await bob.send(encode(Join(room.room_id, room.player_token, "Bob")))
    assert isinstance(await reply(bob), Welcome)
    for n in range(3):  # burst - 2
        await ada.send(encode(Send(b"ada %d" % n)))
    for n in range(4):  # burst - 1
        await bob.send(encode(Send(b"bob %d" % n)))
    payloads: list[bytes] = []
    while len(payloads) < 3:  # Bob receives Ada's three (after the presences)
        if isinstance(event := await reply(bob), Message):
            payloads.append(event.payload)
    assert payloads == [b"ada 0", b"ada 1", b"ada 2"]
    await ada.send(encode(Send(b"one too many")))
    code, close, _ = await refusal_after_events(ada)
    assert (code, close) == ("rate_limited", 1008)
    await bob.send(encode(Send(b"one too many")))
    code, close, _ = await refusal_after_events(bob)
    assert (code, close) == ("rate_limited", 1008)


async def refusal_after_events(websocket: ClientConnection) -> tuple[str, int, str]:
    """The refusal that comes after whatever events were still on their way."""
    while not isinstance(error := await reply(websocket), Error):
        pass
    with pytest.raises(ConnectionClosedError) as closed:
        while True:
            await asyncio.wait_for(websocket.recv(), 30)
    assert closed.value.rcvd is not None
    return error.code, closed.value.rcvd.code, closed.value.rcvd.reason


@pytest.fixture
def default_relay() -> Iterator[RelayProcess]:
    """A relay with every default the page states (the worked session's welcome shows them)."""
    yield from relay_for_the_test()


async def test_the_worked_session_played_with_plain_msgpack(default_relay: RelayProcess) -> None:
    """*A session, frame by frame*, played as a client written from the page alone would:
    plain msgpack arrays over a websocket, nothing of the relay's own code."""

    async def said(websocket: ClientConnection) -> list[object]:
        frame = await asyncio.wait_for(websocket.recv(decode=False), 30)
        fields: list[object] = msgpack.unpackb(frame, raw=False)
        return fields

    def pack(*fields: object) -> bytes:
        packed: bytes = msgpack.packb([5, *fields], use_bin_type=True)
        return packed

    host = await raw(default_relay.url)
    await host.send(pack(1, 2))
    _, _, room_id, player, spectator = await said(host)
    assert isinstance(player, str) and isinstance(spectator, str) and isinstance(room_id, str)
    await host.send(pack(3, room_id, player, "Ada", None, None))
    welcome = await said(host)
    assert welcome[:8] == [5, 4, 0, welcome[3], 2, 0, False, []]
    assert welcome[9:] == [1200, 40] and isinstance(welcome[8], int)
    epoch = welcome[8]
    assert await said(host) == [5, 7, 0, 0, 0, "Ada"]
    guest = await raw(default_relay.url)
    await guest.send(pack(3, room_id, player, "Bob", None, None))
    welcome = await said(guest)
    seat_token = welcome[3]
    assert welcome == [5, 4, 1, seat_token, 2, 1, False, [[0, "Ada", True]], epoch, 1200, 40]
    assert await said(host) == await said(guest) == [5, 7, 1, 1, 0, "Bob"]
    await host.send(pack(5, b"share"))
    assert await said(guest) == [5, 6, 2, 0, b"share"]
    await guest.send(pack(11, b"answer"))
    assert await said(host) == [5, 6, 3, 1, b"answer"]
    assert await said(guest) == [5, 10, 3]
    await guest.close()
    assert await said(host) == [5, 7, 4, 1, 1, "Bob"]
    guest = await raw(default_relay.url)
    await guest.send(pack(3, room_id, seat_token, "Bob", 4, epoch))
    welcome = await said(guest)
    assert welcome[:7] == [5, 4, 1, seat_token, 2, 5, False] and welcome[8:] == [epoch, 1200, 40]
    assert await said(guest) == [5, 7, 4, 1, 1, "Bob"]  # the replay of #4
    assert await said(host) == await said(guest) == [5, 7, 5, 1, 2, "Bob"]
    await guest.close()
    await host.close()
