"""The room screen and the join form, as a newcomer uses them at 80x24: the invites can be
taken whole (one line each, copied truthfully), a failure offers only what can still be
done, the join form's errors are read whole, and a host back in his seat is a host."""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from client import i18n
from client.app import NetworkApp, TablierApp
from client.net.plan import HostPlan, JoinPlan
from client.net.room import join_room
from client.screens.room import InviteLine, JoinScreen, RoomScreen
from client.setup import SessionSettings
from relay.config import RelayConfig
from relay.server import RelayServer
from tests.client.terminal import ROOT, environment
from tests.network.conftest import QUICK
from tests.network.test_ui_games import (
    SIZE,
    game_screen,
    hosted_room,
    shows_game,
    until,
)

NBSP = "\u00a0"


def screen_lines(app: App[None]) -> list[str]:
    """The text of every row of the screen, as the terminal shows it."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def prompt_of(app: App[None]) -> str:
    """The game screen's prompt line, in words (wrapped beside the board on screen)."""
    return " ".join(str(app.screen.query_one("#jacquet-message", Static).render()).split())


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def embedded_host(settings: SessionSettings) -> NetworkApp:
    return NetworkApp(HostPlan("jacquet", {"match_to": 1}, 2, "Ada"), settings)


async def test_at_100_columns_each_invite_is_one_unbroken_line(
    settings: Callable[[str], SessionSettings],
) -> None:
    app = embedded_host(settings("Ada"))
    async with app.run_test(size=(100, 30)) as pilot:
        room = await hosted_room(pilot, app)
        await pilot.pause()
        lines = screen_lines(app)
        for invite in (room.invite, room.spectator_invite):
            assert invite is not None
            assert any(invite.encode() in line for line in lines), "\n".join(lines)
        # The copy keys, offered once there is an invite to copy (not while it opens).
        await until(pilot, lambda: "c Copy invite" in " ".join(screen_lines(app)), "the keys")
        assert "Invite a player (c copies it):" in " ".join(lines)  # whole: nothing to say


async def test_at_80_columns_an_invite_scrolls_sideways_instead_of_breaking(
    settings: Callable[[str], SessionSettings],
) -> None:
    app = embedded_host(settings("Ada"))
    async with app.run_test(size=SIZE) as pilot:
        room = await hosted_room(pilot, app)
        await pilot.pause()
        text = room.invite.encode()
        lines = screen_lines(app)
        starts = [n for n, line in enumerate(lines) if text[:60] in line]
        assert len(starts) == 1  # the player invite's start, once
        assert text[-12:] not in lines[starts[0] + 1]  # and not its end broken onto the next
        assert app.focused is app.screen.query(InviteLine).first()  # the player invite's
        for _ in range(20):  # → steps along it (a step at a time: the scroll is animated)
            await pilot.press("right")
            await pilot.pause(0.05)
            if text[:60] not in screen_lines(app)[starts[0]]:
                break
        assert text[:60] not in screen_lines(app)[starts[0]]  # it moved along
        await pilot.press("end")  # scrolled to its end, the invite's end shows on its row
        await until(pilot, lambda: screen_lines(app)[starts[0]].rstrip().endswith(text[-40:]),
                    "the invite's end")  # fmt: skip


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_at_80_columns_the_footer_shows_every_key_of_the_room_in_both_languages(
    settings: Callable[[str], SessionSettings], language: str
) -> None:
    """The host's room offers copy, copy for spectators, leave and help: each is in the
    footer whole at 80x24, in French too (issue 29: its longer words pushed Échap out)."""
    i18n.use(language)
    try:
        app = embedded_host(settings("Ada"))
        async with app.run_test(size=SIZE) as pilot:
            await hosted_room(pilot, app)
            screen = app.screen

            def drawn() -> list[FooterKey]:
                return list(screen.query(FooterKey))

            offered = {binding.key for _, binding, enabled, _ in
                       screen.active_bindings.values() if binding.show and enabled}  # fmt: skip
            assert {"c", "w", "escape", "f1"} <= offered
            width = SIZE[0]

            def laid_out() -> bool:  # every offered key drawn, whole, within the width
                keys = [key for key in drawn() if key.key in offered]
                return {key.key for key in keys} >= offered and all(
                    0 < key.region.right <= width for key in keys
                )

            await until(pilot, laid_out, "every key laid out")  # (the footer re-fits once)
            await pilot.pause()
            footer = screen_lines(app)[-1]
            for key in drawn():  # each key's name and words, as the terminal shows them
                if key.key in offered:
                    assert f"{key.key_display} {key.description}" in footer, footer
    finally:
        i18n.use("en")


@pytest.mark.parametrize(
    ("language", "player_heading", "watch_heading"),
    [
        ("en", "Invite a player (c copies it whole; → shows the rest):",
         "Invite spectators (w copies it whole; tab then → shows the rest):"),
        ("fr", "Inviter un joueur (c la copie entière ; → montre la suite) :",
         "Inviter des spectateurs (w la copie entière ; tab puis → montre la suite) :"),
    ],
)  # fmt: skip
async def test_at_80_columns_a_cut_invite_says_so_and_how_to_see_the_rest(
    settings: Callable[[str], SessionSettings],
    language: str,
    player_heading: str,
    watch_heading: str,
) -> None:
    """An invite longer than the screen is scrolled, not broken: its heading says it goes on
    past the edge and which keys show the rest (issue 29: it looked whole, cut at 80x24),
    and those keys do, for the spectators' invite too."""
    i18n.use(language)
    try:
        app = embedded_host(settings("Ada"))
        async with app.run_test(size=SIZE) as pilot:
            room = await hosted_room(pilot, app)
            spectators = room.spectator_invite
            assert spectators is not None
            text = spectators.encode()

            def headings() -> list[str]:  # (French puts a no-break space before ; and :)
                return [line.strip().replace(NBSP, " ") for line in screen_lines(app)]

            await until(pilot, lambda: watch_heading in headings(), "the hint")
            lines = headings()
            assert player_heading in lines and watch_heading in lines, "\n".join(lines)
            row = next(n for n, line in enumerate(screen_lines(app)) if text[:60] in line)
            assert text[-12:] not in screen_lines(app)[row]  # cut indeed
            await pilot.press("tab", "end")  # as the heading says
            await until(pilot, lambda: screen_lines(app)[row].rstrip().endswith(text[-40:]),
                        "the spectators' invite's end")  # fmt: skip
    finally:
        i18n.use("en")


async def test_copying_where_no_clipboard_answers_does_not_claim_it_worked(
    settings: Callable[[str], SessionSettings], monkeypatch: pytest.MonkeyPatch
) -> None:
    for variable in ("TMUX", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(variable, raising=False)
    app = embedded_host(settings("Ada"))
    async with app.run_test(size=SIZE) as pilot:
        room = await hosted_room(pilot, app)
        await pilot.press("c")
        await until(pilot, lambda: bool(app._notifications), "the copy's notification")
        told = [notification.message for notification in app._notifications]
        assert app.clipboard == room.invite.encode()  # sent to the terminal (OSC 52)…
        assert told == ["The player invite was sent to the terminal's clipboard, which cannot "
                        "say whether it took it. Nothing to paste? Start with "
                        "--invite-file PATH."]  # fmt: skip
        assert not any("copied" in message.lower() for message in told)


def test_under_tmux_c_puts_the_invite_in_tmuxs_paste_buffer(tmp_path: Path) -> None:
    assert shutil.which("tmux"), "this test needs tmux (.ci/run installs it)"
    server = f"tablier-clip-{free_port()}"
    invites = tmp_path / "invites.txt"
    env = environment(tmp_path)
    places = [f"{key}={env[key]}" for key in ("HOME", "XDG_DATA_HOME")]
    command = " ".join(
        [f"cd {ROOT} &&", "exec", "env", *places, sys.executable, "-m", "client.cli", "host",
         "jacquet", "--name", "Ada", "--invite-file", str(invites)]
    )  # fmt: skip

    def tmux(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["tmux", "-L", server, "-f", "/dev/null", *args],
                              capture_output=True, text=True, timeout=30)  # fmt: skip

    try:
        assert tmux("new-session", "-d", "-x", "80", "-y", "24", command).returncode == 0
        deadline = time.monotonic() + 60
        while not invites.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        player = invites.read_text().splitlines()[0]
        tmux("send-keys", "c")
        while tmux("show-buffer").stdout != player and time.monotonic() < deadline:
            time.sleep(0.05)
        assert tmux("show-buffer").stdout == player
        while "pastes it" not in (shown := tmux("capture-pane", "-p").stdout):
            assert time.monotonic() < deadline, shown
            time.sleep(0.05)
        words = " ".join(shown.replace("▌", " ").split())
        assert "The player invite is copied to tmux's paste buffer (prefix then ] pastes it)" in (
            words
        )
    finally:
        tmux("kill-server")


async def test_a_room_that_cannot_open_offers_only_what_can_be_done(tmp_path: Path) -> None:
    """From the lobby (the app goes on): the sentence, and no invite to copy."""
    url = f"ws://127.0.0.1:{free_port()}/"
    app = TablierApp(settings=SessionSettings(data_dir=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        room = RoomScreen(HostPlan("goose", {}, 3, "Ada", relay_url=url), app.settings)
        await app.push_screen(room)
        await until(pilot, lambda: room.failure is not None, "the room's failure")
        await pilot.pause()
        words = " ".join(" ".join(screen_lines(app)).split())
        assert f"✖ no relay answers at {url} (nothing listens there)" in words
        assert "Copy invite" not in words and "Errno" not in words
        assert "esc Leave" in words
        assert app.is_running and app.screen is room


async def test_the_join_forms_error_is_shown_whole(tmp_path: Path) -> None:
    app = TablierApp(settings=SessionSettings(data_dir=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(JoinScreen(app.settings, "Bob"))
        await pilot.click("#join-invite")
        await pilot.press(*"garbage", "enter")
        await pilot.pause()
        words = " ".join(" ".join(screen_lines(app)).split())
        assert ("An invite starts with tablier:// (or tabliers:// for a TLS relay), not "
                "'garbage'") in words  # fmt: skip


async def test_a_host_back_through_join_catches_up_on_her_board_with_the_invites_at_hand(
    settings: Callable[[str], SessionSettings],
) -> None:
    """Ada's app quit mid-match and the relay restarted: back with her player invite, her
    board waits for Bob's word, catching up and saying so whole — as its host, her invites
    one key away."""
    config = RelayConfig(port=free_port(), rate=2000, burst=2000, max_bytes_per_ip=1 << 30)
    relay = RelayServer(config)
    await relay.start()
    plan = HostPlan("jacquet", {"match_to": 1}, 2, "Ada", relay_url=relay.url)
    host = NetworkApp(plan, settings("Ada"))
    async with host.run_test(size=SIZE) as ada:
        room = await hosted_room(ada, host)
        bob = await join_room(room.invite, name="Bob", settings=settings("Bob"), backoff=QUICK)
        await until(ada, shows_game(host), "Ada's game screen")
    await bob.close()  # Bob has gone too: only he could say where the match stands
    await relay.close()
    relay = RelayServer(config)  # the relay restarted: the room is gone
    await relay.start()
    try:
        back = NetworkApp(JoinPlan(room.invite, "Ada"), settings("Ada"))
        async with back.run_test(size=SIZE) as ada:
            await until(ada, shows_game(back), "Ada's board")
            screen = game_screen(back)
            assert screen is not None and screen.extras.invites is not None
            # Her board opens on her log, catching up: waiting for Bob's word, and told so.
            # (how long she has waited is left out: on a busy machine it is past 0 s when read)
            told = "Back in your seat: waiting for Bob to say how far the match went (for "
            await until(ada, lambda: told in prompt_of(back), "whom she waits for")
            assert prompt_of(back).startswith("Catching up with the match…")
            assert "if nobody answers within 20 s" in prompt_of(back)  # (BEHIND_LIMIT_MS)
            # Whole, down to its last words, beside the board: nothing cut at 80x24.
            rows = screen_lines(back)
            assert any(row.rstrip().endswith("log stops.") for row in rows), rows
            assert any("catching up…" in row for row in rows)  # the connection line too
            await ada.press("i")  # as its host, her invites at hand
            await until(ada, lambda: room.invite.encode()[:60] in " ".join(screen_lines(back)),
                        "the invites")  # fmt: skip
    finally:
        await relay.close()
        await asyncio.sleep(0)


def port_is_free(port: int) -> bool:
    """Nothing listens on *port* (a relay could start there again, as relays do, with
    ``SO_REUSEADDR``: the connections it closed may wait out their TIME_WAIT)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


@pytest.mark.parametrize("moment", range(8))
async def test_leaving_a_room_while_it_opens_leaves_nothing_running(
    tmp_path: Path, moment: int
) -> None:
    """``esc`` at any moment of the opening (the embedded relay starting, the room being
    created, its first refresh): back in the lobby, no traceback, and the relay this terminal
    started no longer listens."""
    port = free_port()
    app = TablierApp(settings=SessionSettings(data_dir=tmp_path, animation=False))
    async with app.run_test(size=SIZE) as pilot:
        lobby = app.screen
        plan = HostPlan("goose", {}, 3, "Ada", listen=("127.0.0.1", port))
        await app.push_screen(RoomScreen(plan, app.settings))
        for _ in range(moment):
            await asyncio.sleep(0.003 * moment)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby, "the lobby")
        await until(pilot, lambda: port_is_free(port), f"the relay on port {port} closed")
        await pilot.pause()
        assert app.is_running
