# ruff: noqa: RUF001 -- the multiplication signs of 80 by 24 and French apostrophes are meant
"""Small terminals (issue 29, item 4): below 80x24 every screen shows one sentence saying how
big the terminal must be, and nothing of the screen under it; growing the terminal brings the
screen back as it was. At 80x24, in English and French, nothing that matters is cut.

The real app, driven by Pilot; what is "shown" is read from the screen's rendered lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Button, Input, OptionList, Static

from client import i18n
from client.app import ReplayApp, TablierApp
from client.game.driver import PeerLine
from client.game.link_status import LinkStatus
from client.game.replay import load_replay
from client.screens.confirm import ConfirmScreen
from client.screens.end import EndScreen
from client.screens.goose import GooseScreen
from client.screens.help import HelpScreen
from client.screens.jacquet import JacquetScreen
from client.screens.lobby import LobbyScreen
from client.setup import GooseSetup
from client.widgets.connection import ConnectionBar
from client.widgets.play_input import PlayInput
from client.widgets.too_small import MIN_HEIGHT, MIN_WIDTH, TooSmall, minimum_size
from engine.awaiting import ChoosePlay
from engine.jacquet import WHITE
from protocol.selfplay import selfplay
from tests.client.conftest import screen_text, seeded_settings, until
from tests.client.test_jacquet_screen import jacquet_app, offered, press_when_offered
from tests.client.test_replay import JACQUET_THROWS, record_match

ROOT = Path(__file__).resolve().parents[2]
SMALL = (60, 20)
MINIMUM = (MIN_WIDTH, MIN_HEIGHT)


@pytest.fixture(params=["en", "fr"])
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    i18n.use(request.param)
    yield request.param
    i18n.use("en")


def sentence(lang: str, width: int, height: int) -> str:
    if lang == "fr":
        return (f"Tablier demande un terminal d'au moins 80×24 (celui-ci fait {width}×{height})"
                "\u00a0: agrandissez-le.")  # fmt: skip
    return (f"Tablier needs a terminal of at least 80×24 (this one is {width}×{height}): "
            "make it bigger.")  # fmt: skip


def words(pilot: Pilot[None]) -> str:
    """The screen's text with its line breaks and runs of spaces made single spaces."""
    return " ".join(screen_text(pilot.app).split())


def lines(pilot: Pilot[None]) -> list[str]:
    return screen_text(pilot.app).splitlines()


async def resize(pilot: Pilot[None], width: int, height: int) -> None:
    await pilot.resize_terminal(width, height)
    app = pilot.app
    await until(pilot, lambda: app.size == (width, height), "the new size")
    await pilot.pause()
    await pilot.pause()


async def covered(pilot: Pilot[None], lang: str, width: int, height: int) -> str:
    """The screen as shown while too small: the one sentence (waited for), all of it."""
    said = " ".join(sentence(lang, width, height).split())
    await until(pilot, lambda: said in words(pilot), "the too-small sentence")
    return words(pilot)


# -- below the minimum ------------------------------------------------------------------------


async def test_below_the_minimum_the_board_gives_way_to_one_sentence_and_comes_back_whole(
    tmp_path: Path, lang: str
) -> None:
    """Jacquet, a play half typed: at 60x20 the sentence, no board, keys do nothing; back at
    80x24 the board, the typed text and the focus are as they were."""
    app = jacquet_app(tmp_path)
    async with app.run_test(size=MINIMUM) as pilot:
        screen = app.screen
        assert isinstance(screen, JacquetScreen)
        await press_when_offered(pilot, "r", "r", "r")  # a tie, then white's 5-6
        await offered(pilot, "type_play")
        await pilot.press("m", "1", "slash")
        typed = screen.query_one(PlayInput)
        assert typed.value == "1/" and app.focused is typed
        board_rows = [line for line in lines(pilot) if "13 14 15" in line]
        assert board_rows

        await resize(pilot, *SMALL)
        shown = await covered(pilot, lang, *SMALL)
        assert shown == " ".join(sentence(lang, *SMALL).split())  # that, and nothing else
        await pilot.press("7", "enter", "escape", "f1")  # blind keys: nothing acts
        await pilot.pause()
        assert app.screen is screen and typed.value == "1/"
        assert screen.game.awaiting == ChoosePlay(WHITE, (5, 6))

        await resize(pilot, *MINIMUM)
        await until(pilot, lambda: app.focused is typed, "the focus back on the typed play")
        assert typed.value == "1/" and typed.display
        assert any("13 14 15" in line for line in lines(pilot))
        assert "80×24" not in words(pilot)
        await pilot.press("7")  # typing goes on where it stopped
        assert typed.value == "1/7"


async def test_one_row_or_one_column_short_is_too_small(tmp_path: Path, lang: str) -> None:
    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=(MIN_WIDTH - 1, MIN_HEIGHT)) as pilot:
        await covered(pilot, lang, MIN_WIDTH - 1, MIN_HEIGHT)
        await resize(pilot, MIN_WIDTH, MIN_HEIGHT - 1)
        await covered(pilot, lang, MIN_WIDTH, MIN_HEIGHT - 1)
        await resize(pilot, *MINIMUM)
        await until(pilot, lambda: "Jacquet F3" in words(pilot), "the lobby's tabs")
        assert "80×24" not in words(pilot)


async def test_the_lobby_goose_and_dialogs_opened_meanwhile_are_covered_too(
    tmp_path: Path, lang: str
) -> None:
    """Started too small: the lobby is covered; a game started and a dialog pushed while it
    is (the game's end screen, say) are covered as they open; grown, all is there."""
    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=SMALL) as pilot:
        shown = await covered(pilot, lang, *SMALL)
        assert "F3" not in shown and "f1" not in shown  # no tabs, no footer
        app.start_game(GooseSetup(("Alice", "Bruno")))
        await until(pilot, lambda: isinstance(app.screen, GooseScreen), "the Goose screen")
        goose = app.screen
        shown = await covered(pilot, lang, *SMALL)
        assert "Alice" not in shown  # neither the board nor the ledger
        app.push_screen(ConfirmScreen("Leave?"))
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the dialog")
        await until(pilot, lambda: bool(app.screen.query(TooSmall)), "the dialog covered")
        shown = await covered(pilot, lang, *SMALL)
        assert "Leave?" not in shown
        await resize(pilot, *MINIMUM)
        await until(pilot, lambda: "Leave?" in words(pilot), "the dialog back")
        assert "Alice" in words(pilot)  # the board under it shows again
        await pilot.press("escape")  # the dialog's own keys act again
        await until(pilot, lambda: app.screen is goose, "the Goose screen on top")
        assert "80×24" not in words(pilot)


async def test_the_replay_is_covered_and_comes_back_at_the_same_step(
    tmp_path: Path, lang: str
) -> None:
    app = recorded_replay(tmp_path)
    async with app.run_test(size=MINIMUM) as pilot:
        await until(pilot, lambda: bool(app.screen.query("#replay-bar")), "the replay")
        await pilot.press("right", "right", "right")
        bar = app.screen.query_one("#replay-bar", Static)
        await until(pilot, lambda: " 3/" in str(bar.render()), "step 3")
        at = str(bar.render())
        await resize(pilot, *SMALL)
        await covered(pilot, lang, *SMALL)
        await pilot.press("right")  # unseen: no step
        await resize(pilot, *MINIMUM)
        await until(pilot, lambda: at in words(pilot), "the same step shown")
        assert str(bar.render()) == at


def recorded_replay(tmp_path: Path) -> ReplayApp:
    """The replay of a short Jacquet match recorded for the test."""
    path = tmp_path / "jacquet.tablier"
    record_match(path, "jacquet", ("Blanc", "Noir"), JACQUET_THROWS)
    return ReplayApp(load_replay(path))


# -- at the minimum: nothing that matters is cut ----------------------------------------------


async def test_at_the_minimum_the_typed_play_placeholder_is_whole(
    tmp_path: Path, lang: str
) -> None:
    app = jacquet_app(tmp_path)
    async with app.run_test(size=MINIMUM) as pilot:
        await press_when_offered(pilot, "r", "r", "r")
        await offered(pilot, "type_play")
        await pilot.press("m")
        placeholder = app.screen.query_one(PlayInput).placeholder
        assert placeholder == i18n._("e.g. 1/7 7/12, then enter")
        await until(pilot, lambda: placeholder in screen_text(app), "the placeholder whole")


async def test_at_the_minimum_the_replays_title_and_footer_are_whole(
    tmp_path: Path, lang: str
) -> None:
    app = recorded_replay(tmp_path)
    async with app.run_test(size=MINIMUM) as pilot:
        await until(pilot, lambda: bool(app.screen.query("#replay-bar")), "the replay")
        help_key = "f1 Aide" if lang == "fr" else "f1 Help"
        await until(pilot, lambda: lines(pilot)[-1].rstrip().endswith(help_key), "F1 whole")
        shown = lines(pilot)
        assert "Tablier" in shown[0]  # the title on the first row: the screen not scrolled
        assert any("13 14 15" in line for line in shown)  # the board whole
        assert any(line.lstrip().startswith(("Step 0/", "Pas 0/")) for line in shown)


async def test_at_the_minimum_the_replays_coach_keys_stay_in_its_footer(
    tmp_path: Path, lang: str
) -> None:
    # The replay's own keys came first and took the row: b (best) and n (next marked play)
    # were left out, in English and in French. The speed and a throw's number go first.
    app = recorded_replay(tmp_path)
    async with app.run_test(size=MINIMUM) as pilot:
        await until(pilot, lambda: bool(app.screen.query("#replay-bar")), "the replay")
        screen = app.screen
        assert isinstance(screen, JacquetScreen)
        await until(pilot, lambda: bool(screen.coach.marks), "the replay analysed")
        await pilot.press("right", "right", "right")
        best, mistake, help_key = (
            ("b Meilleur", "n Erreur", "f1 Aide") if lang == "fr"
            else ("b Best", "n Mistake", "f1 Help")
        )  # fmt: skip

        def footer() -> str:
            return " ".join(lines(pilot)[-1].split())

        await until(pilot, lambda: best in footer() and mistake in footer(), "b and n shown")
        await until(pilot, lambda: footer().endswith(help_key), "F1 whole")
        assert footer().startswith("←→")  # stepping, first


async def test_at_the_minimum_the_running_score_is_whole_in_the_title(
    tmp_path: Path, lang: str
) -> None:
    settings = seeded_settings(tmp_path, seed=9)  # two short games
    app = TablierApp(GooseSetup(("Alice", "Bruno"), computer_seats=frozenset({1})), settings)
    async with app.run_test(size=MINIMUM) as pilot:
        # Alice throws whenever she may until the first game ends; the second then waits for
        # her, so its title is read on a board that stays (two computers could end it first).
        while not isinstance(app.screen, EndScreen):
            screen = app.screen
            if isinstance(screen, GooseScreen) and screen.check_action("throw", ()):
                await pilot.press("space")
            await pilot.pause(0.01)
        first = app.screen_stack[-2]
        await pilot.press("a")  # play again: a session, with its score in the title
        await until(pilot, lambda: game_screen(app) is not first, "the second game")
        second = game_screen(app)
        assert second.extras.score is not None
        score = second.extras.score.line()
        await until(pilot, lambda: score in lines(pilot)[0], "the score in the title row")


def game_screen(app: TablierApp) -> GooseScreen:
    return next(screen for screen in app.screen_stack if isinstance(screen, GooseScreen))


async def test_at_the_minimum_the_latest_games_show_and_scroll(tmp_path: Path, lang: str) -> None:
    """Seven logs and two unfinished games: at least three of the latest in view, in either
    language, and each of the seven brought into view by moving down the list."""
    matches = tmp_path / "matches"
    matches.mkdir()
    names = [f"game-{number}.tablier" for number in range(7)]
    for number, name in enumerate(names):
        selfplay("goose", {}, seed=number, start_time=0, log_path=matches / name)
    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=MINIMUM) as pilot:
        for _ in range(2):  # two local games left midway: the unfinished list above
            app.start_game(GooseSetup(("Alice", "Bruno")))
            await until(pilot, lambda: isinstance(app.screen, GooseScreen), "a game")
            game = app.screen
            assert isinstance(game, GooseScreen)
            await pilot.press("space", "space")
            await until(pilot, lambda: not game_screen(app).game.pending_turns, "the throws")
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, GooseScreen), "left")
            if isinstance(app.screen, ConfirmScreen):  # "Leave this game for the lobby?"
                app.screen.query_one("#yes", Button).press()
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.press("f4")
        lobby = app.screen
        await until(pilot, lambda: bool(lobby.query("#recent-logs")), "the Recorded match tab")
        await app.workers.wait_for_complete()
        unfinished = lobby.query_one("#unfinished-list", OptionList)
        await until(pilot, lambda: unfinished.option_count == 2, "two unfinished games")
        listed = lobby.query_one("#recent-logs", OptionList)
        await until(pilot, lambda: listed.option_count == 9, "nine logs")  # (the two too)
        await pilot.pause()
        in_view = [line for line in lines(pilot) if ".tablier  ·  " in line]
        assert len(in_view) >= 3, screen_text(app)  # (the unfinished two are listed too)
        listed.focus()
        seen = {name for name in names if name in screen_text(app)}
        for _ in range(listed.option_count):
            await pilot.press("down")
            await pilot.pause()
            seen |= {name for name in names if name in screen_text(app)}
        assert seen == set(names)


async def test_a_long_log_path_wraps_at_its_slashes_on_the_end_screen(
    tmp_path: Path, lang: str
) -> None:
    long_log = "home/someone/.local/share/tablier/matches/2026-11-30T143404-goose-alice-bruno"
    log_path = tmp_path / f"{long_log}.tablier"
    log_path.parent.mkdir(parents=True)
    settings = seeded_settings(tmp_path, seed=14, log_path=log_path)
    app = TablierApp(GooseSetup(("Alice", "Bruno"), computer_seats=frozenset({0, 1})), settings)
    async with app.run_test(size=MINIMUM) as pilot:
        await until(pilot, lambda: isinstance(app.screen, EndScreen), "the end screen")
        await pilot.pause()
        path = str(log_path)
        rows = [found.group(1).strip() for line in lines(pilot)
                if (found := re.search("█(.*)█", line))]  # inside the dialog's frame  # fmt: skip
        assert path in "".join(rows)  # whole, its rows joined back
        for row in rows:  # a row's piece of the path ends at a slash, or a hyphen between
            tail = row.split()[-1] if row.split() else ""  # letters, or is the path's end
            if len(tail) > 3 and tail in path and not path.endswith(tail):
                assert tail.endswith(("/", "-")), row  # (client.typography.NAME_HYPHEN)


# -- the minimum, stated --------------------------------------------------------------------


def test_the_minimum_is_stated_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"at least **{minimum_size()}**" in readme


async def test_the_minimum_is_stated_in_f1s_help(tmp_path: Path, lang: str) -> None:
    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=MINIMUM) as pilot:
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        assert minimum_size() in help_screen._keys_markdown()


# -- a cut invite in the lobby's join field -----------------------------------------------------


async def test_an_invite_cut_short_in_the_join_field_says_how_long_it_should_be(
    tmp_path: Path, lang: str
) -> None:
    from client.screens.room import JoinScreen

    whole = f"tablier://127.0.0.1:40411/{'R' * 22}?player={'T' * 43}"
    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=MINIMUM) as pilot:
        await app.push_screen(JoinScreen(app.settings, "Bob"))
        app.screen.query_one("#join-invite", Input).value = whole[:80]  # a line cut at 80
        await pilot.press("enter")
        expected = (
            f"elle devrait faire {len(whole)} caractères, pas 80"
            if lang == "fr"
            else f"it should be {len(whole)} characters, not 80"
        )
        await until(pilot, lambda: expected in words(pilot), "the cut-short sentence")


# -- the connection line's claim timer --------------------------------------------------------


class AwaitedLink:
    """A room whose other players are away, their claim timer running (a MatchLink, as the
    connection line reads it)."""

    status = LinkStatus("connected", detail="")
    watching = False
    offences: tuple[()] = ()
    catching_up = False
    resumable = True

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names

    def describe_peers(self) -> list[PeerLine]:
        return [PeerLine(name, "away", 95_000) for name in self.names]

    def claimable(self, now_ms: int) -> int | None:
        return None

    def waiting_for(self, now_ms: int) -> tuple[tuple[str, ...], int] | None:
        return self.names, 83_000

    def claim_abandonment(self, seat: int) -> None:
        pass

    def leaving(self) -> None:
        return None


class OneConnectionLine(App[None]):
    CSS = "ConnectionBar { height: 1; text-wrap: nowrap; text-overflow: ellipsis; }"

    def __init__(self, link: AwaitedLink) -> None:
        super().__init__()
        self.link = link

    def compose(self) -> ComposeResult:
        yield ConnectionBar(self.link, ("Moi", *self.link.names), lambda: 0)


async def test_at_the_minimum_the_claim_timer_is_on_the_connection_line(lang: str) -> None:
    """Two absent players with 20-character names: the line is cut at the terminal's edge,
    after the time a claim becomes possible, not before it."""
    link = AwaitedLink(("Bartholomew-Longname", "Cunegonde-Longnamed"))
    app = OneConnectionLine(link)
    async with app.run_test(size=MINIMUM) as pilot:
        await pilot.pause()
        first = lines(pilot)[0]
        timer = "réclamable dans 1:23" if lang == "fr" else "claim possible in 1:23"
        assert timer in first, first


class CatchingUpLink(AwaitedLink):
    """A board catching up (a peer said it holds records this seat lacks) while the seat
    the match awaits is past its time limit: a claim is judged on signed times."""

    catching_up = True

    def claimable(self, now_ms: int) -> int | None:
        return 1

    def waiting_for(self, now_ms: int) -> tuple[tuple[str, ...], int] | None:
        return None


async def test_catching_up_the_connection_line_still_offers_the_claim_of_a_seat_past_its_limit(
    lang: str,
) -> None:
    """stop36/02: the line hid the claim while the board caught up, and the accused kept it
    catching up by claiming records he never sent."""
    app = OneConnectionLine(CatchingUpLink(("Mallory",)))
    async with app.run_test(size=MINIMUM) as pilot:
        await pilot.pause()
        first = lines(pilot)[0]
        past = i18n._("{name} is past the time limit: c claims the match")
        shown = (i18n._("catching up…"), past.format(name="Mallory"))  # (the line's language)
        assert all(text in first for text in shown), first
        if lang != "fr":
            assert "catching up…" in first and "Mallory is past the time limit" in first
