"""A spectator's screen at 80x24: only the keys a spectator can use, no cursor to move, the
chat read-only and saying so, the story one line per turn as the players' live screens tell
it, and the dice thrown now. The player's side is played by typed entry, which a networked
game offers as a local one does."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from client.app import NetworkApp
from client.net.plan import HostPlan, JoinPlan
from client.screens.jacquet import JacquetScreen
from client.setup import SessionSettings
from client.widgets.chat import READ_ONLY_NOTE, ChatPanel
from client.widgets.jacquet_board import JacquetBoard
from client.widgets.jacquet_status import JacquetStatus
from client.widgets.narrative import NarrativeLog
from engine.awaiting import ChoosePlay, ThrowDice
from engine.jacquet import JacquetState, format_play, legal_plays
from relay.server import RelayServer
from tests.network.test_ui_games import SIZE, hosted_room, playing, shows_game, until

ADA = 0


def ada_hosts(relay: RelayServer, settings: Callable[[str], SessionSettings]) -> NetworkApp:
    """Ada's app, hosting a one-game Jacquet match that Bob's computer will join."""
    plan = HostPlan(
        "jacquet", {"match_to": 1, "bearoff": "backgammon"}, 2, "Ada", relay_url=relay.url
    )
    return NetworkApp(plan, settings("Ada"))


def dice_shown(app: NetworkApp) -> str:
    """The side panel's dice line ("Dice  4   2 "): what is on the table."""
    status = str(playing(app).query_one(JacquetStatus).render())
    return next((line for line in status.splitlines() if line.startswith("Dice")), "")


def dice_line(dice: tuple[int, ...]) -> str:
    return "Dice " + " ".join(f" {die} " for die in dice)


def app_is_game(app: NetworkApp) -> bool:
    return app.screen is playing(app)


def story_lines(app: NetworkApp) -> list[str]:
    return [line.text for line in playing(app).query_one(NarrativeLog).lines]


def footer_labels(app: NetworkApp) -> set[str]:
    footer = playing(app).query_one(Footer)
    return {str(key.description) for key in footer.query(FooterKey)}


def caught_up(app: NetworkApp) -> Callable[[], bool]:
    def done() -> bool:
        screen = playing(app)
        return not screen.game.pending_turns and not screen.busy

    return done


async def ada_plays(pilot: Pilot[None], app: NetworkApp, plays: int) -> None:
    """Ada throws and types her plays (the first legal one) until she has made *plays*,
    then throws once more: her play is awaited, with its dice on the table."""
    screen = playing(app)
    assert isinstance(screen, JacquetScreen)
    made = 0
    while True:
        await until(pilot, lambda: screen.game.awaiting.seat == ADA and caught_up(app)(), "Ada")
        awaiting, before = screen.game.awaiting, screen.game.state
        if isinstance(awaiting, ThrowDice):  # (an opening tie asks her the same again)
            await pilot.press("r")
            await until(pilot, lambda was=before: screen.game.state != was, "Ada's throw")
            continue
        assert isinstance(awaiting, ChoosePlay)
        if made == plays:
            return
        state = screen.game.state
        assert isinstance(state, JacquetState)
        play = legal_plays(state.position, awaiting.dice, state.options.bearoff)[0]
        await pilot.press("m", *format_play(play), "enter")
        await until(pilot, lambda was=before: screen.game.state != was, "Ada's play")
        made += 1


async def test_a_spectator_sees_the_story_and_the_dice_and_can_only_watch(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    host = ada_hosts(relay, settings)
    async with host.run_test(size=SIZE) as ada:
        room = await hosted_room(ada, host)
        assert room.spectator_invite is not None
        guest = NetworkApp(JoinPlan(room.invite, "Bob", computer=True), settings("Bob"))
        async with guest.run_test(size=SIZE) as bob:
            await until(ada, shows_game(host), "Ada's game")
            await until(bob, shows_game(guest), "Bob's game")
            await ada_plays(ada, host, plays=1)
            awaiting = playing(host).game.awaiting
            assert isinstance(awaiting, ChoosePlay)

            watcher = NetworkApp(JoinPlan(room.spectator_invite, "Eve"), settings("Eve"))
            async with watcher.run_test(size=SIZE) as eve:
                await until(eve, shows_game(watcher), "Eve's game")
                await until(eve, caught_up(watcher), "Eve's catching up")
                screen = playing(watcher)
                assert isinstance(screen, JacquetScreen)
                state = screen.game.state
                assert state == playing(host).game.state
                assert screen.game.awaiting == awaiting

                # Only what a spectator can do, and nothing typed or clicked moves anything.
                assert footer_labels(watcher) <= {"Lobby", "Quit", "Flip", "Help", "palette"}
                board = screen.query_one(JacquetBoard)
                assert board.marks.cursor is None
                await eve.press(*"hjklrumt1", "enter", "space")
                await eve.click(JacquetBoard, offset=(20, 3))
                assert board.marks.cursor is None and not board.has_focus
                assert screen.game.state == state and app_is_game(watcher)

                # The chat says it is read-only; the story is the players', line for line.
                panel = screen.query_one(ChatPanel)
                assert not panel.query("#chat-input")
                assert str(panel.query_one("#chat-note").render()) == READ_ONLY_NOTE
                assert story_lines(watcher) == story_lines(host)
                # The dice on the table: Ada's throw, none of it played yet.
                assert dice_shown(watcher).startswith(dice_line(awaiting.dice))


async def test_a_player_back_in_his_seat_sees_the_story_one_line_per_turn(
    relay: RelayServer, settings: Callable[[str], SessionSettings]
) -> None:
    host = ada_hosts(relay, settings)
    async with host.run_test(size=SIZE) as ada:
        room = await hosted_room(ada, host)
        guest = NetworkApp(JoinPlan(room.invite, "Bob", computer=True), settings("Bob"))
        async with guest.run_test(size=SIZE) as bob:
            await until(bob, shows_game(guest), "Bob's game")
            await ada_plays(ada, host, plays=1)
        # Bob's app quit while Ada's play is awaited; he runs `tablier join` again.
        again = NetworkApp(JoinPlan(room.invite, "Bob", computer=True), settings("Bob"))
        async with again.run_test(size=SIZE) as bob:
            await until(bob, shows_game(again), "Bob's board again")
            await until(
                bob,
                lambda: playing(again).game.state == playing(host).game.state,
                "the position where the match stands",
            )
            await until(bob, caught_up(again), "Bob's catching up")
            told = story_lines(again)
            assert told == story_lines(host) and len(told) >= 4, told
            awaiting = playing(host).game.awaiting
            assert isinstance(awaiting, ChoosePlay)
            assert dice_shown(again).startswith(dice_line(awaiting.dice))
