"""The lobby: games start from it, bad settings are explained and nothing typed is lost."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, OptionList, Select, Static

from client.app import TablierApp
from client.game.replay import ReplayGame
from client.net.invite import Invite
from client.net.plan import HostPlan, JoinPlan
from client.net.seatfile import Seat, save_seat, seat_path
from client.screens.goose import GooseScreen
from client.screens.jacquet import JacquetScreen
from client.screens.lobby import (
    JacquetForm,
    LobbyScreen,
    SeatRow,
    host_plan,
    remote_computer_seats,
)
from client.screens.match_logs import ReplayForm
from client.screens.room import JoinScreen, RoomScreen
from client.setup import GooseSetup, JacquetSetup, SessionSettings, setup_for_match
from client.widgets.saved_seats import SavedSeats
from protocol.selfplay import selfplay
from tests.client.conftest import FIXED_TIME_MS, screen_text, seeded_settings


async def _choose_players(pilot: Pilot[None], players: Select[int], count: int) -> None:
    """Pick *count* players and wait until the seat rows show it (they mount on demand)."""
    players.value = count
    lobby = pilot.app.screen
    for _ in range(100):
        shown = [row for row in lobby.query(SeatRow) if row.display and row.is_mounted]
        if len(shown) == count:
            return
        await pilot.pause(0.02)
    raise AssertionError(f"{count} seat rows never showed")


async def test_lobby_starts_a_goose_game_with_the_chosen_players(
    settings: SessionSettings,
) -> None:
    app = TablierApp(settings=settings)
    async with app.run_test(size=(80, 30)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        players = lobby.query_one("#goose-players", Select)
        await _choose_players(pilot, players, 4)
        lobby.query_one("#seat-3 .name", Input).value = "Zoé"
        await _choose_players(pilot, players, 2)
        assert [row.display for row in lobby.query(SeatRow)] == [True, True, False, False]
        await _choose_players(pilot, players, 4)  # the name typed for seat 4 comes back
        await pilot.click("#seat-1 .computer")
        await pilot.press("f5")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GooseScreen)
        assert screen.game.names == ("Alice", "Bruno", "Chloé", "Zoé")
        assert screen.game.setup.computer_seats == {1}


async def test_bad_settings_are_explained_and_kept(settings: SessionSettings) -> None:
    app = TablierApp(settings=settings)
    async with app.run_test(size=(80, 30)) as pilot:
        lobby = app.screen
        lobby.query_one("#goose-fee", Input).value = "-2"
        lobby.query_one("#seat-1 .name", Input).value = "alice"
        await pilot.click("#play-goose")
        await pilot.pause()
        error = str(lobby.query_one("#goose-error", Static).render())
        assert error == "Two players are called 'alice': give each a different name"
        lobby.query_one("#seat-1 .name", Input).value = "Bruno"
        await pilot.press("f5")
        await pilot.pause()
        error = str(lobby.query_one("#goose-error", Static).render())
        assert error == "The fee cannot be negative (-2)"
        assert app.screen is lobby
        assert lobby.query_one("#goose-fee", Input).value == "-2"


async def test_a_recorded_match_opens_in_the_replay_screen(tmp_path: Path) -> None:
    (tmp_path / "matches").mkdir()
    selfplay("goose", {}, seed="lobby", start_time=FIXED_TIME_MS, names=("Ann", "Ben"),
             log_path=tmp_path / "matches" / "ann-ben.tablier")  # fmt: skip
    (tmp_path / "broken.tablier").write_bytes(b"not a log")
    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        lobby = app.screen
        lobby.query_one("#replay-path", Input).value = str(tmp_path / "broken.tablier")
        await pilot.press("f5")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen is lobby
        assert "broken.tablier" in str(lobby.query_one("#replay-error", Static).render())
        recent = lobby.query_one("#recent-logs", OptionList)
        assert recent.option_count == 1
        recent.focus()
        await pilot.press("down", "enter")
        for _ in range(500):  # verified in a thread, then opened on the game's own screen
            if isinstance(app.screen, GooseScreen):
                break
            await pilot.pause(0.01)
        assert isinstance(app.screen, GooseScreen) and isinstance(app.screen.game, ReplayGame)
        await pilot.press("escape")
        assert app.screen is lobby


async def test_lobby_starts_jacquet_against_the_computer(settings: SessionSettings) -> None:
    app = TablierApp(settings=settings)
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.press("f3")
        await pilot.pause()
        lobby = app.screen
        lobby.query_one("#jacquet-white", Input).value = "Hélène"
        lobby.query_one("#jacquet-level", Select).value = 2
        await pilot.press("f5")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, JacquetScreen)
        assert screen.game.setup == JacquetSetup(("Hélène", "Noir"), frozenset({1}), level=2)


async def test_hosting_and_joining_start_from_the_lobby(settings: SessionSettings) -> None:
    app = TablierApp(settings=settings)
    async with app.run_test(size=(80, 30)) as pilot:
        lobby = app.screen
        lobby.query_one("#goose-rules", Select).value = "1792"
        await pilot.click("#host-goose")
        room = app.screen
        assert isinstance(room, RoomScreen)
        assert room.plan == HostPlan("goose", {"rules": "1792", "ante": 4, "fee": 1}, 3, "Alice")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is lobby
        await pilot.press("f6")
        assert isinstance(app.screen, JoinScreen)


def test_a_jacquet_host_plan_carries_the_match_options() -> None:
    setup = JacquetSetup(("Hélène", "Noir"), match_to=5, bearoff="trictrac")
    plan = host_plan(setup)
    assert plan == HostPlan("jacquet", {"match_to": 5, "bearoff": "trictrac"}, 2, "Hélène")


def test_a_host_plan_allowing_hints_says_so_and_the_other_seats_read_it_back() -> None:
    setup = JacquetSetup(("Hélène", "Noir"), match_to=5, coach=True)
    options = host_plan(setup).options
    assert options == {"match_to": 5, "bearoff": "backgammon", "coach": 1}
    assert setup_for_match("jacquet", ("Hélène", "Noir"), options).coach  # type: ignore[union-attr]
    plain = setup_for_match("jacquet", ("Hélène", "Noir"), {"match_to": 5})
    assert isinstance(plain, JacquetSetup) and not plain.coach


def test_hosting_keeps_the_hosts_computer_tick_and_names_the_ticks_it_cannot_keep() -> None:
    jacquet = JacquetSetup(("Ada", "Bob"), computer_seats=frozenset({0}), level=3)
    assert (host_plan(jacquet).computer, host_plan(jacquet).level) == (True, 3)
    goose = GooseSetup(("Ada", "Bob", "Cleo"), computer_seats=frozenset({1, 2}))
    assert host_plan(goose).computer is False
    assert remote_computer_seats(goose) == ["Bob", "Cleo"]
    assert remote_computer_seats(jacquet) == []


async def test_the_tab_keys_work_while_a_field_of_the_open_tab_has_the_focus(
    settings: SessionSettings,
) -> None:
    from textual.widgets import TabbedContent

    app = TablierApp(settings=settings)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        tabs = lobby.query_one(TabbedContent)
        await pilot.press("tab", "tab", "tab")  # players, rules, then into the ante field
        assert app.focused is lobby.query_one("#goose-ante", Input)
        await pilot.press("f3")
        await pilot.pause()
        assert tabs.active == "jacquet"
        await pilot.press("tab")  # into the Jacquet form
        await pilot.press("f4")
        await pilot.pause()
        assert tabs.active == "replay"
        await pilot.press("f2")
        await pilot.pause()
        assert tabs.active == "goose"


def test_the_copy_invite_keys_are_only_the_hosts(settings: SessionSettings) -> None:
    from client.net.invite import parse_invite
    from client.net.plan import JoinPlan

    invite = parse_invite(
        "tablier://127.0.0.1:46859/lIH0jcvdU_XbNJWsvz9VPg?player=EXpPT10bHQSjQkLFzogjsiF5Zs53fBMJtv5peB22dpg"
    )
    joining = RoomScreen(JoinPlan(invite, "Bob"), settings)
    assert joining.check_action("copy", ("player",)) is False  # not in his footer at all
    hosting = RoomScreen(host_plan(JacquetSetup(("Ada", "Bob"))), settings)
    assert hosting.check_action("copy", ("player",)) is False  # nothing to copy until it opens


async def test_a_room_failure_is_told_once(settings: SessionSettings) -> None:
    from client.net.invite import parse_invite
    from client.net.plan import JoinPlan

    invite = parse_invite(
        "tablier://127.0.0.1:9/lIH0jcvdU_XbNJWsvz9VPg?player=EXpPT10bHQSjQkLFzogjsiF5Zs53fBMJtv5peB22dpg"
    )
    app = TablierApp(settings=settings)
    async with app.run_test(size=(80, 24)) as pilot:
        room = RoomScreen(JoinPlan(invite, "Bob"), settings)
        await app.push_screen(room)
        await pilot.pause()
        for _ in range(3):  # the room's failure, then each later update, then the link's end
            room._fail("Every seat in this room is taken.")
        await pilot.pause()
        told = [n for n in app._notifications if "Every seat" in n.message]
        assert len(told) == 1


async def test_the_network_tab_lists_matches_left_before_their_end(tmp_path: Path) -> None:
    """Seat files show as matches to go back into; a damaged one says why; delete forgets."""
    log = tmp_path / "matches" / "ada-bob.tablier"
    log.parent.mkdir()
    played = selfplay("jacquet", {}, seed="lobby", start_time=0, names=["Ada", "Bob"])
    log.write_bytes(played.log_bytes())
    seat = Seat("ws://127.0.0.1:9/", "R" * 22, "P" * 43, "S" * 43, "K" * 43, "Bob", "player",
                log, b"i" * 32, b"c" * 32)  # fmt: skip
    save_seat(seat_path(seat.room_id, bytes(32), tmp_path), seat)
    damaged = seat_path("D" * 22, bytes(32), tmp_path)
    damaged.write_bytes(b"not a seat file")
    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=(100, 30)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        lobby.action_show_tab("network")
        saved = lobby.query_one(SavedSeats)
        for _ in range(100):
            if saved.seats:
                break
            await pilot.pause(0.02)
        titles = [entry.title for entry in saved.seats]
        assert any(t.startswith("Jacquet with Ada, as Bob") for t in titles), titles
        assert any("cannot be resumed: " in t and "not a seat file" in t for t in titles)

        options = saved.query_one(OptionList)
        options.focus()
        options.highlighted = next(i for i, s in enumerate(saved.seats) if s.seat is None)
        await pilot.press("delete")
        await pilot.press("y")
        for _ in range(100):
            if len(saved.seats) == 1:
                break
            await pilot.pause(0.02)
        assert not damaged.exists() and [s.seat for s in saved.seats] == [seat]

        options.highlighted = 0
        await pilot.press("enter")
        await pilot.pause()
        room = app.screen
        assert isinstance(room, RoomScreen)
        assert room.plan == JoinPlan(Invite(seat.relay_url, "R" * 22, "P" * 43, "player"), "Bob")


LOBBY_KEYS = {"Goose", "Jacquet", "Replay", "Network", "Play", "Join", "Host", "Quit"}


async def test_every_lobby_key_is_in_the_footer_the_help_and_the_palette_in_one_order(
    settings: SessionSettings,
) -> None:
    from textual.widgets import TabbedContent

    from client.screens.help import HelpScreen

    app = TablierApp(settings=settings)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        for _ in range(200):  # the footer is drawn after the first paint
            footer = screen_text(app).splitlines()[-1]
            if footer.strip():
                break
            await pilot.pause(0.01)
        assert "f2 f3 f4 f7 Tabs  f5 Play  f6 Join  f8 Host  ^q Quit  f1 Help" in footer
        await pilot.press("f7")
        await pilot.pause()
        assert lobby.query_one(TabbedContent).active == "network"
        assert lobby.check_action("host", ()) is None  # shown, greyed: no game here
        assert "f8 Host" in screen_text(app).splitlines()[-1]
        palette = [command.title for command in app.get_system_commands(lobby)]
        assert list(dict.fromkeys(t for t in palette if t in LOBBY_KEYS)) == [
            "Goose", "Jacquet", "Replay", "Network", "Play", "Join", "Quit"]  # fmt: skip
        await pilot.press("f1")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        assert [key for key, _ in help_screen.keys] == [
            "f2", "f3", "f4", "f7", "f5", "f6", "f8", "^q", "f1", "^p"]  # fmt: skip
        await pilot.press("escape", "f2", "f8")  # host the Goose game set up in its tab
        await pilot.pause()
        room = app.screen
        assert isinstance(room, RoomScreen)
        assert room.plan == HostPlan("goose", {"rules": "daumont", "ante": 4, "fee": 1}, 3, "Alice")


async def test_an_app_started_on_a_game_builds_the_lobbys_other_tabs_once_it_shows_them(
    settings: SessionSettings,
) -> None:
    """The lobby under a game is never painted: its Jacquet and replay tabs are not built
    until it is shown (an app that quits from the game never pays for them), then they are."""
    app = TablierApp(GooseSetup(("Ada", "Bob")), settings)
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.pause(0.1)
        lobby = app.screen_stack[0]
        assert isinstance(app.screen, GooseScreen) and isinstance(lobby, LobbyScreen)
        assert not lobby.query(JacquetForm) and not lobby.query(ReplayForm)
        app.return_to_lobby()
        async with asyncio.timeout(60):  # (generous: the machine may be loaded)
            while not (lobby.query(JacquetForm) and lobby.query(ReplayForm)):
                await pilot.pause(0.01)
        await pilot.press("f3")
        lobby.query_one("#jacquet-white", Input).value = "Hélène"
        await pilot.press("f5")
        assert isinstance(app.screen, JacquetScreen)
        assert app.screen.game.setup.names[0] == "Hélène"


def _styles_in_force(screen: Screen[None]) -> list[tuple[str, object, object]]:
    """Every widget of *screen* with the styles its CSS gave it, its parts' included."""
    styles: list[tuple[str, object, object]] = []
    for node in screen.walk_children(with_self=True):
        parts = sorted(node._get_component_classes())
        styles.append((
            repr(node),
            node.styles.get_render_rules(),
            {part: node.get_component_styles(part).get_render_rules() for part in parts},
        ))  # fmt: skip
    return styles


async def test_the_lobby_is_painted_with_the_styles_a_whole_restyle_gives(
    settings: SessionSettings,
) -> None:
    """The lobby's first resume skips Textual's restyling of the whole screen (see
    ``LobbyScreen.on_screen_resume``): no widget may be left with other styles than that
    restyling gives."""
    app = TablierApp(settings=settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        painted = _styles_in_force(lobby)
        app.stylesheet.update(lobby)
        assert _styles_in_force(lobby) == painted
