"""A seat back in a match shows "catching up" and acts on nothing until its board is where the
match stands (issue 29, item 7).

Bob's app dies mid-match and the end of his log is lost with it; the relay freed his seat
and kept too little to replay, so the records he lacks can only come from Ada. Ada is a
real client in this process whose answers to Bob's hello the test holds back until it lets
them go — so the time Bob spends catching up is the test's to end, not the machine's. Bob
comes back as the real app (``tablier join``'s), on a real relay.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import Static

from client.app import NetworkApp
from client.net import wire
from client.net.plan import JoinPlan
from client.net.playing import Playing
from client.setup import SessionSettings
from client.widgets.connection import ConnectionBar
from client.widgets.play_input import PlayInput
from protocol.events import Event
from protocol.logfile import encode_log, read_log
from protocol.session import MatchSession
from relay.config import RelayConfig
from relay.server import RelayServer
from tests.network.players import TIMEOUT, autoplay, meet
from tests.network.test_seat_resume import Crash, crash, crash_after
from tests.network.test_ui_games import SIZE, network_game, playing, shows_game, until


class HeldHellos:
    """Ada's answers to hellos, held until :meth:`let_go` (then she answers as ever)."""

    def __init__(self, play: Playing) -> None:
        self.held: list[tuple[int, wire.Hello, int, bool]] = []
        self._answer = play.hello
        self._holding = True
        play.hello = self._hello  # type: ignore[method-assign]

    def _hello(self, relay_seat: int, said: wire.Hello, now: int, *, rematching: bool) -> None:
        if self._holding:
            self.held.append((relay_seat, said, now, rematching))
        else:
            self._answer(relay_seat, said, now, rematching=rematching)

    def let_go(self) -> None:
        self._holding = False
        for relay_seat, said, now, rematching in self.held:
            self._answer(relay_seat, said, now, rematching=rematching)


def prompt(app: NetworkApp) -> str:
    return str(playing(app).query_one("#jacquet-message", Static).render())


def connection(app: NetworkApp) -> str:
    return str(playing(app).query_one(ConnectionBar).render())


def cut_log(path: Path, records: int) -> None:
    """The log as if the app had died before its last *records* were written."""
    contents = read_log(path)
    path.write_bytes(encode_log(contents.setup, contents.records[:-records]))


async def test_a_seat_back_shows_catching_up_and_takes_no_action_until_it_has(
    settings: Callable[[str], SessionSettings],
) -> None:
    config = RelayConfig(
        port=0, rate=2000, burst=2000, backlog=8, seat_grace=0.2, max_bytes_per_ip=1 << 30
    )
    async with RelayServer(config) as relay:
        rooms = await meet(relay.url, "jacquet", {"match_to": 1}, ["Ada", "Bob"], settings)
        ada, bob = (room.game(settings(name)) for room, name in zip(rooms, ["Ada", "Bob"],
                                                                     strict=True))  # fmt: skip
        following = asyncio.create_task(autoplay(ada))
        try:
            with pytest.raises(Crash):
                async with asyncio.timeout(TIMEOUT):
                    await autoplay(bob, acted=crash_after(4))
            await crash(rooms[1])
            assert bob.log_path is not None
            cut_log(bob.log_path, 6)  # Bob's board from his log is some turns behind
            held = HeldHellos(rooms[0].match.play)
            # The relay frees Bob's seat once its grace is over (0.2 s), and tells Ada.
            roster = rooms[0].match.roster
            async with asyncio.timeout(TIMEOUT):
                while not any(member.expired for member in roster.members.values()):
                    await asyncio.sleep(0.01)

            again = NetworkApp(JoinPlan(rooms[0].invite, "Bob"), settings("Bob"))
            async with again.run_test(size=SIZE, notifications=True) as pilot:
                await until(pilot, shows_game(again), "Bob's board")
                back = network_game(again)
                await until(pilot, lambda: bool(held.held), "Bob's hello, held at Ada's")
                # Caught up: not yet. The board is his log's, and says it is catching up.
                assert back.catching_up
                await until(
                    pilot,
                    lambda: prompt(again).startswith("Catching up with the match…"),
                    "the catching-up prompt",
                )  # (drawn a message after the state)
                assert "waiting for Ada" in prompt(again)  # whom for, and what he can do
                assert "Waiting for Ada to" not in prompt(again)  # nothing from the stale board
                await until(pilot, lambda: "catching up…" in connection(again), "the link line")
                # Every action is refused, saying why; nothing is done on the stale board.
                session, ada_session = back.match.session, rooms[0].match.session
                assert session is not None and ada_session is not None
                assert len(session.records) < len(ada_session.records)  # stale: Bob lacks some
                acted: list[object] = []
                act = back.match.act

                def spied(action: Callable[[MatchSession], list[Event]]) -> None:
                    acted.append(action)
                    act(action)

                back.match.act = spied  # type: ignore[method-assign]
                for key in ("r", "ctrl+r", "m"):
                    again.clear_notifications()
                    await pilot.press(key)
                    await pilot.pause()
                    refusals = [n.message for n in again._notifications if n.title == "Not now"]
                    if key != "m":  # (m, the typed play, is not even there: no play is entered)
                        assert refusals == [
                            "Catching up with the match: your board is not yet where it stands."
                        ], key
                assert not any(field.display for field in playing(again).query(PlayInput))
                assert acted == [] and back.catching_up

                held.let_go()  # Ada answers: her transcript brings what Bob lacked
                await until(pilot, lambda: back.state == ada_session.state and
                            not back.catching_up, "Bob's board where the match stands")  # fmt: skip
                await until(pilot, lambda: not prompt(again).startswith("Catching up"),
                            "the prompt on the true board")  # fmt: skip
                assert session.records == ada_session.records
                await until(pilot, lambda: "catching up" not in connection(again), "the link")
        finally:
            following.cancel()
            await rooms[0].close()
