"""No silent death (issue 28): whatever another machine's data makes this app fail with — a
type nobody foresaw — ends in a named state on screen and in the link's status, naming the
sender with his seat, the log kept; never a task dead behind a "connected" line.

"A bug nobody knows yet" is stood in for by one function of the receive path made to raise
(an arbitrary type) only while it takes the hostile peer's message.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from client.app import NetworkApp
from client.net.plan import HostPlan
from client.net.room import Room, host_room, join_room
from client.screens.end import EndScreen
from client.setup import SessionSettings
from engine.awaiting import ThrowDice
from protocol.logfile import read_log
from protocol.messages import decode_message
from protocol.session import MatchSession
from relay.server import RelayServer
from tests.network.conftest import QUICK, PlayersClock
from tests.network.hostile import Hostile
from tests.network.players import TIMEOUT, autoplay, meet
from tests.network.test_seat_resume import crash
from tests.network.test_ui_games import SIZE, hosted_room, playing, shows_game, until

ERRORS: list[type[Exception]] = [RuntimeError, OverflowError, KeyError]


def break_on(monkeypatch: pytest.MonkeyPatch, victim: Callable[[], Any], seat: int,
             error: type[Exception]) -> list[int]:  # fmt: skip
    """Make the *victim* session's receive path raise *error* on a message from match seat
    *seat* (and only there, only for it); returns the list of times it did."""
    raised: list[int] = []
    receive = MatchSession.receive_bytes

    def failing(self: MatchSession, data: bytes, now: int, *, sender: int | None = None) -> Any:
        if self is victim() and sender == seat:
            raised.append(now)
            raise error("a bug nobody knows yet")
        return receive(self, data, now, sender=sender)

    monkeypatch.setattr(MatchSession, "receive_bytes", failing)
    return raised


@pytest.mark.parametrize("error", ERRORS)
async def test_what_the_app_cannot_handle_stops_the_match_on_screen_naming_the_sender(
    relay: RelayServer,
    settings: Callable[[str], SessionSettings],
    monkeypatch: pytest.MonkeyPatch,
    error: type[Exception],
) -> None:
    plan = HostPlan("goose", {"rules": "daumont", "ante": 4, "fee": 1}, 2, "Ada",
                    relay_url=relay.url)  # fmt: skip
    host = NetworkApp(plan, settings("Ada"))
    async with host.run_test(size=SIZE) as ada:
        room = await hosted_room(ada, host)
        raised = break_on(monkeypatch, lambda: room.match.session, 1, error)
        mallory = Hostile(room.invite, settings("Mallory"))
        await mallory.enter()
        follower = asyncio.create_task(mallory.follow(lambda: False))
        try:
            await until(ada, shows_game(host), "the game screen")
            await ada.press("space")  # Ada throws for the lots; Mallory's share answers
            await until(ada, lambda: room.link.status.state == "failed", "the link to fail")
        finally:
            follower.cancel()
        assert len(raised) == 1  # it was his message, and nothing was taken after it
        stopped = "the match stopped: Mallory (seat 2): sent something this app cannot handle"
        assert room.link.status.detail.startswith(stopped), room.link.status.detail
        assert error.__name__ in room.link.status.detail
        assert room.failure == room.link.status.detail
        # The room's task ended on it, said: not dead, not still "connected".
        assert room.task is not None and room.task.done()
        assert not room.task.cancelled() and room.task.exception() is None
        await until(ada, lambda: isinstance(host.screen, EndScreen), "the end screen")
        end = host.screen
        assert isinstance(end, EndScreen)
        assert end.summary.title == "The match was stopped."
        assert end.summary.lines[0] == room.link.status.detail.removeprefix("the match stopped: ")
        connection = playing(host).query_one("#connection")
        # The bar is redrawn on the link's news, a message behind the one that opened the end
        # screen: wait for it (on a busy machine it is read before it is drawn otherwise).
        await until(ada, lambda: "✖ left the room" in str(connection.render()), "the bar to say so")
        bar = str(connection.render())
        assert "connected" not in bar
        assert "match stopped: Mallory (seat 2): sent something this app cannot handle" in bar
        # The log holds every record the match took, made durable before the stop.
        session = room.match.session
        assert session is not None and session.ended is not None
        assert session.ended.reason == "stopped" and session.ended.seat == 1
        assert room.match.log_path is not None
        assert list(read_log(room.match.log_path).records) == session.records
        assert session.records  # (Ada's share, at least, was taken)


async def test_a_spectator_s_link_fails_naming_the_sender(
    relay: RelayServer,
    settings: Callable[[str], SessionSettings],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same on a spectator's link: his app stops following the room and says who."""

    host = await host_room(relay.url, "jacquet", {"match_to": 1}, seats=2, name="Ada",
                           settings=settings("Ada"), backoff=QUICK)  # fmt: skip
    mallory = Hostile(host.invite, settings("Mallory"))
    watcher: Room | None = None
    try:
        async with asyncio.timeout(TIMEOUT):
            await mallory.enter()
            await mallory.follow(lambda: mallory.match.started)
            await host.wait_started()
            assert host.spectator_invite is not None
            watcher = await join_room(host.spectator_invite, name="Eve",
                                      settings=settings("Eve"), backoff=QUICK)  # fmt: skip
            await watcher.wait_started()
            eve = watcher
            raised = break_on(monkeypatch, lambda: eve.match.session, 1, OverflowError)
            game = host.game(settings("Ada"))
            player = asyncio.create_task(autoplay(game))
            follower = asyncio.create_task(mallory.follow(lambda: eve.failure is not None))
            try:
                while eve.failure is None:  # (until it fails: the test's timeout says if not)
                    await asyncio.sleep(0.01)
            finally:
                player.cancel()
                follower.cancel()
                await asyncio.wait({player, follower})
        assert raised
        assert eve.failure.startswith("the match stopped: Mallory (seat 2): ")
        assert eve.link.status.state == "failed" and eve.link.status.joined
        assert "sent something this app cannot handle (OverflowError)" in eve.link.status.detail
        assert eve.task is not None and eve.task.done() and eve.task.exception() is None
        session = eve.match.session
        assert session is not None and eve.match.log_path is not None
        assert list(read_log(eve.match.log_path).records) == session.records
    finally:
        if watcher is not None:
            await watcher.close()
        await host.close()


async def test_the_other_players_can_still_claim_against_the_player_whose_app_stopped(
    relay: RelayServer,
    settings: Callable[[str], SessionSettings],
    clock: PlayersClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three at the table: Mallory's message stops Bob's app (which names him); the match
    then waits on Bob, and Ada, once the time limit has passed, claims it — the stop is a
    named state, never a stall nobody can end."""
    ada = await host_room(relay.url, "goose", {"rules": "daumont"}, seats=3, name="Ada",
                          settings=settings("Ada"), backoff=QUICK)  # fmt: skip
    bob = await join_room(ada.invite, name="Bob", settings=settings("Bob"), backoff=QUICK)
    mallory = Hostile(ada.invite, settings("Mallory"))
    follower: asyncio.Task[None] | None = None
    try:
        async with asyncio.timeout(TIMEOUT):
            await mallory.enter()
            await mallory.follow(lambda: mallory.match.started)
            await asyncio.gather(ada.wait_started(), bob.wait_started())
            # (who sits where is the order the joins came in)
            mallory_seat, bob_seat = mallory.match.seat, bob.match.seat
            assert mallory_seat is not None and bob_seat is not None
            raised = break_on(monkeypatch, lambda: bob.match.session, mallory_seat, RuntimeError)
            follower = asyncio.create_task(mallory.follow(lambda: False))
            game = ada.game(settings("Ada"))
            game.throw()  # Ada's share, then Bob's and Mallory's answers: Bob stops on his
            while bob.failure is None:
                await asyncio.sleep(0.01)
            named = f"the match stopped: Mallory (seat {mallory_seat + 1}): "
            assert raised and bob.failure.startswith(named), bob.failure
            session = ada.match.session
            assert session is not None
            while bob_seat not in session.awaited_seats():  # until the match waits on Bob
                awaiting = session.awaiting  # (Ada throws when it is hers to, as she would)
                if isinstance(awaiting, ThrowDice) and session.awaited_seats() == (0,):
                    ada.match.act(lambda s: s.throw(clock.now))
                    ada.link.flush()
                await asyncio.sleep(0.01)
            assert game.claimable(clock.now) is None
            clock.advance(session.deadline() - clock.now)
            assert game.claimable(clock.now) == bob_seat
            game.claim_abandonment(bob_seat)
            while session.ended is None:
                await asyncio.sleep(0.01)
            assert (session.ended.reason, session.ended.seat) == ("abandoned", bob_seat)
    finally:
        if follower is not None:
            follower.cancel()
            await asyncio.wait({follower})
        await bob.close()
        await ada.close()


@pytest.mark.parametrize("where", ["log", "relay"])
async def test_a_seat_taken_back_from_its_file_names_what_it_cannot_handle(
    relay: RelayServer,
    settings: Callable[[str], SessionSettings],
    monkeypatch: pytest.MonkeyPatch,
    where: str,
) -> None:
    """Bob's app stopped mid-match; run again, it takes his seat back from his seat file:
    replaying his log (``log``), or the room the relay replays him (``relay``), a record of
    Ada's makes it fail. The first is named (the record, the error) and the join goes on
    without the seat; the second stops the match naming Ada, as a live message would."""
    rooms = await meet(relay.url, "jacquet", {"match_to": 1}, ["Ada", "Bob"], settings)
    ada, bob = (room.game(settings(name)) for room, name in zip(rooms, ["Ada", "Bob"], strict=True))
    live = [rooms[0]]
    following = asyncio.create_task(autoplay(ada))
    try:
        async with asyncio.timeout(TIMEOUT):
            await autoplay(bob, stop_after=6)
            await crash(rooms[1])
            receive = MatchSession.receive_bytes

            def failing(
                self: MatchSession, data: bytes, now: int, *, sender: int | None = None
            ) -> Any:
                restoring = getattr(self, "_restoring", False)  # (replaying its log)
                wanted = (where == "log") == restoring and (restoring or sender == 0)
                if wanted and self.seat == 1 and decode_message(data).seat == 0:
                    raise OverflowError("a bug nobody knows yet")
                return receive(self, data, now, sender=sender)

            monkeypatch.setattr(MatchSession, "receive_bytes", failing)
            back = await join_room(rooms[0].invite, name="Bob", settings=settings("Bob"),
                                   backoff=QUICK)  # fmt: skip
            live.append(back)
            if where == "log":
                assert back.notice is not None
                assert back.notice.startswith(
                    "Your saved seat in this room cannot be used: the match log does not "
                    "replay: its record "
                ), back.notice
                assert "is something this app cannot handle (OverflowError)" in back.notice
                return
            while back.failure is None:
                await asyncio.sleep(0.01)
            assert back.failure.startswith("the match stopped: Ada (seat 1): sent something "
                                           "this app cannot handle (OverflowError)")  # fmt: skip
            assert back.link.status.state == "failed"
            assert back.task is not None and back.task.exception() is None
            session = back.match.session
            assert session is not None and back.match.log_path is not None
            assert list(read_log(back.match.log_path).records) == session.records
    finally:
        following.cancel()
        await asyncio.wait({following})
        await asyncio.gather(*(room.close() for room in live))
