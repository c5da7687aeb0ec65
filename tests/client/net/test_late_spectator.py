"""A spectator who came after the relay's backlog stopped reaching back to the match's start:
the players send him the match so far, and he checks it as they would. A room in a list (no
relay, no socket); each test fails on the behaviour its name denies."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import msgpack  # type: ignore[import-untyped]
import pytest

from client.net import wire
from client.net.match import NetMatch, Outgoing
from client.net.spectators import CATCH_UP_SPACING_MS
from tests.client.net.loop import LoopRoom


@pytest.fixture
def trio(tmp_path: Path) -> Iterator[LoopRoom]:
    room = LoopRoom.meet(tmp_path, ["Ada", "Bob", "Cy"])
    yield room
    room.close()


def throw(room: LoopRoom, *, pump: bool = True) -> None:
    """Whoever the match awaits throws."""
    session = room.matches[0].session
    assert session is not None and session.ended is None
    seat = session.awaiting.seat  # type: ignore[union-attr]
    room.matches[seat].act(lambda s: s.throw(room.now))
    if pump:
        room.pump()


def play_out(room: LoopRoom) -> None:
    for _ in range(5000):
        if room.matches[0].ended is not None:
            return
        throw(room)
    raise AssertionError("the match did not end")


def logs(matches: list[NetMatch]) -> list[bytes]:
    for match in matches:
        match.close()
    return [match.log_path.read_bytes() for match in matches if match.log_path is not None]


def test_a_late_spectator_gets_the_match_so_far_and_ends_with_the_players_log(
    trio: LoopRoom, tmp_path: Path
) -> None:
    for _ in range(6):
        throw(trio)
    trio.act_all(1, "bonsoir")
    eve = trio.watch_late("Eve", tmp_path, pump=False)
    ada = trio.matches[0]
    offer, ada.outbox[:] = list(ada.outbox), []
    assert offer, "Ada, the lowest seat here, sends Eve the match"
    assert not trio.matches[1].outbox and not trio.matches[2].outbox  # and nobody else
    throw(trio)  # a throw placed between Eve's arrival and the catch-up: she holds it
    trio.act_all(2, "salut")
    assert not eve.started and not eve.in_step
    assert eve.waiting_note(trio.now + 3_000) == (
        "The match began before you arrived and the relay no longer holds its start: "
        "waiting for Ada to send it (for 3 s)."
    )
    ada.outbox[:0] = offer
    trio.pump()
    assert eve.started and eve.in_step and not eve.offences
    assert eve.session is not None and ada.session is not None
    assert eve.session.records == ada.session.records
    play_out(trio)
    assert eve.ended == ada.ended
    contents = logs([*trio.matches, eve])
    assert all(data == contents[0] for data in contents), "Eve's log differs from the players'"


def test_a_spectator_announced_while_the_sender_has_a_record_on_its_way_gets_the_whole_match(
    trio: LoopRoom, tmp_path: Path
) -> None:
    """Ada's throw is sent, not placed yet, when Eve is announced: what Ada logged is all
    placed before Eve came, and her catch-up must hold all of it (it used to leave out as
    many logged records as Ada had on their way, and Eve, who cannot ask for a gap, was
    stopped a few turns later by a record that followed the missing one)."""
    ada = trio.matches[0]
    assert ada.session is not None
    for _ in range(3):
        throw(trio)
    while ada.session.awaiting.seat != 0:  # type: ignore[union-attr]
        throw(trio)
    throw(trio, pump=False)  # Ada's share: in effect for her, on its way to the relay
    assert ada.session.unlogged()
    logged = list(ada.session.records)
    eve = trio.watch_late("Eve", tmp_path, pump=False)
    assert not any(isinstance(wire.decode(sent.data), wire.Spectate) for sent in ada.outbox)
    trio.pump()  # her share placed, then the catch-up: the match up to Eve's arrival
    assert eve.in_step and not eve.offences
    assert eve.session is not None and eve.session.records[: len(logged)] == logged
    play_out(trio)
    assert eve.ended == ada.ended and not eve.offences
    contents = logs([*trio.matches, eve])
    assert all(data == contents[0] for data in contents), "Eve's log differs from the players'"


def test_one_catch_up_serves_every_spectator_announced_before_it_and_the_lowest_present_sends(
    trio: LoopRoom, tmp_path: Path
) -> None:
    throw(trio)
    start = len(trio.sent)
    trio.leave(0)  # Ada away: Bob is the lowest seat present
    eve = trio.watch_late("Eve", tmp_path, pump=False)
    fay = trio.watch_late("Fay", tmp_path, pump=False)
    trio.pump()
    assert trio.said(wire.Spectate, since=start) == [1]
    assert all(watcher.in_step and not watcher.offences for watcher in (eve, fay))


def test_a_spectator_announced_again_and_again_gets_one_catch_up_per_spacing(
    trio: LoopRoom, tmp_path: Path
) -> None:
    """A spectator token in a loop (reconnect, announced, reconnect…) cannot keep Ada sending
    the whole match: the next catch-up waits CATCH_UP_SPACING_MS after the last was placed,
    and the spectators announced meanwhile get one, then."""
    for _ in range(4):
        throw(trio)
    start = len(trio.sent)
    first = trio.watch_late("Eve", tmp_path / "1")
    assert trio.said(wire.Spectate, since=start) == [0] and first.in_step
    looping = [trio.watch_late(f"Eve{n}", tmp_path / f"{n + 2}") for n in range(5)]
    trio.tick(CATCH_UP_SPACING_MS - 1_000)
    assert trio.said(wire.Spectate, since=start) == [0]  # nothing more yet
    assert not any(watcher.in_step for watcher in looping)
    trio.tick(1_000)
    assert trio.said(wire.Spectate, since=start) == [0, 0]  # one more, for all of them
    assert all(watcher.in_step and not watcher.offences for watcher in looping)
    trio.tick(CATCH_UP_SPACING_MS)
    assert trio.said(wire.Spectate, since=start) == [0, 0]  # and none owed


def tampered(
    offer: list[Outgoing], change: Callable[[list[bytes]], list[bytes]]
) -> list[Outgoing]:
    """Ada's catch-up with the records of its transcripts changed by *change*."""
    header = wire.decode(offer[0].data)
    assert isinstance(header, wire.Spectate)
    records: list[bytes] = []
    for sent in offer[1:]:
        part = wire.decode(sent.data)
        assert isinstance(part, wire.Transcript)
        records += msgpack.unpackb(part.data)
    records = change(records)
    packed = msgpack.packb(records, use_bin_type=True)
    return [Outgoing(wire.encode(header)), Outgoing(wire.encode(wire.Transcript(0, packed)))]


def flip_a_signature(records: list[bytes]) -> list[bytes]:
    first = records[0]
    return [first[:-1] + bytes([first[-1] ^ 1]), *records[1:]]


def leave_one_out(records: list[bytes]) -> list[bytes]:
    return records[:2] + records[3:]


@pytest.mark.parametrize(
    ("change", "fault"),
    [
        (flip_a_signature, "sent a false catch-up:"),
        (leave_one_out, "sent a false catch-up: its record 3 does not follow"),
        (lambda records: records[:-1], "stopped its catch-up after"),
    ],
    ids=["a record not signed by its seat", "a record left out", "the last record kept back"],
)
def test_a_catch_up_that_is_not_the_match_is_named_by_the_spectator(
    trio: LoopRoom,
    tmp_path: Path,
    change: Callable[[list[bytes]], list[bytes]],
    fault: str,
) -> None:
    for _ in range(4):
        throw(trio)
    eve = trio.watch_late("Eve", tmp_path, pump=False)
    ada = trio.matches[0]
    ada.outbox[:] = tampered(ada.outbox, change)
    trio.act_all(0, "nothing to see")  # Ada goes on talking after her catch-up
    [offence] = eve.offences
    assert offence.who == "Ada" and offence.fatal, offence
    assert offence.text.startswith(fault), offence.text
    assert eve.in_step and eve.unfollowed  # she says so, and follows the room no further
    trio.act_all(1, "after the lie")
    assert eve.offences == [offence]  # (nothing more to refuse, nobody else to blame)


def test_a_catch_up_whose_setup_is_forged_is_named_and_a_true_one_is_still_taken(
    trio: LoopRoom, tmp_path: Path
) -> None:
    throw(trio)
    eve = trio.watch_late("Eve", tmp_path, pump=False)
    ada = trio.matches[0]
    header = wire.decode(ada.outbox[0].data)
    assert isinstance(header, wire.Spectate)
    forged = header.setup[:-1] + bytes([header.setup[-1] ^ 1])  # the last join's signature
    for watcher_or_player in (eve, trio.matches[1]):  # the relay's order: both hear it
        watcher_or_player.receive(0, wire.encode(wire.Spectate(forged, header.have)), trio.now)
    [offence] = eve.offences
    assert offence.who == "Ada" and "match setup does not hold" in offence.text
    [seen] = trio.matches[1].offences  # the players see her lying too
    assert seen.who == "Ada" and "another match than ours" in seen.text
    assert not eve.started
    trio.pump()  # the true catch-up
    assert eve.in_step and eve.session is not None and ada.session is not None
    assert eve.session.records == ada.session.records


def test_a_spectator_the_relay_replayed_everything_to_needs_no_catch_up(
    trio: LoopRoom, tmp_path: Path
) -> None:
    throw(trio)
    start = len(trio.sent)
    eve = NetMatch("spectator", "Eve", random_source=lambda n: bytes(n), data_dir=tmp_path)
    eve.caught_up(trio.now, complete=True)
    assert eve.arrival is None and eve.in_step
    trio.pump()
    assert trio.said(wire.Spectate, since=start) == []


def test_a_spectator_announced_while_a_rematch_is_set_up_gets_the_rematch(
    trio: LoopRoom, tmp_path: Path
) -> None:
    trio.matches[2].act(lambda session: session.resign(trio.now))
    trio.pump()
    for seat in (1, 2):
        trio.matches[seat].ask_rematch(trio.now)
        trio.pump()
    ada = trio.matches[0]
    ada.ask_rematch(trio.now)  # the last to ask: the host proposes the rematch
    assert ada.rematching
    eve = trio.watch_late("Eve", tmp_path, pump=False)  # nothing more is said in the old one
    trio.pump()
    assert all(match.setup == ada.setup and not match.rematching for match in trio.matches)
    assert eve.in_step and eve.setup == ada.setup and not eve.offences
    play_out(trio)
    contents = logs([*trio.matches, eve])
    assert all(data == contents[0] for data in contents), "Eve's log differs from the players'"


def cut_short(offer: list[Outgoing], kept_back: int) -> list[Outgoing]:
    """Ada's catch-up as a lying sender makes it: all genuine, in place, announced as what it
    holds — the match minus its last *kept_back* records."""
    header = wire.decode(offer[0].data)
    assert isinstance(header, wire.Spectate)
    whole = tampered(offer, lambda records: records)
    part = wire.decode(whole[1].data)
    assert isinstance(part, wire.Transcript)
    records = msgpack.unpackb(part.data)[:-kept_back]
    packed = msgpack.packb(records, use_bin_type=True)
    short = wire.Spectate(header.setup, len(records))
    return [Outgoing(wire.encode(short)), Outgoing(wire.encode(wire.Transcript(0, packed)))]


@pytest.mark.parametrize("kept_back", [1, 3, 5])
def test_a_catch_up_short_of_the_match_names_its_sender_never_an_honest_signer(
    trio: LoopRoom, tmp_path: Path, kept_back: int
) -> None:
    """Stop36 09: every record of Ada's catch-up is genuine and in place, but the last ones
    are kept back. The live records that follow them used to stop Eve's match, naming Cy
    ("a share for throw 5, far ahead of 3"). Now nobody is named for records Eve may lack
    but Ada: her own record after her catch-up does not follow it."""
    for _ in range(4):
        throw(trio)
    eve = trio.watch_late("Eve", tmp_path, pump=False)
    ada = trio.matches[0]
    ada.outbox[:] = cut_short(ada.outbox, kept_back)
    trio.pump()
    assert eve.in_step and not eve.offences  # the catch-up alone cannot tell
    for _ in range(6):
        throw(trio)
    assert eve.session is not None and eve.session.stopped is None
    [offence] = eve.offences
    assert offence.who == "Ada" and offence.fatal, offence
    assert offence.text.startswith("sent a catch-up short of the match"), offence.text
    assert eve.unfollowed
    assert all(not match.offences for match in trio.matches)  # the players saw nothing amiss
