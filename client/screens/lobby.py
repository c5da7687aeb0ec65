"""The lobby: choose a game, its players and options, and start it (or open a recorded match)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import (
    Button,
    Checkbox,
    Input,
    Label,
    Select,
    Static,
    TabbedContent,
    TabPane,
)

from client import help_topics, i18n
from client.i18n import N_, _
from client.messages import StartGame
from client.screens.match_logs import ReplayForm
from client.setup import (
    DEFAULT_GOOSE_NAMES,
    DEFAULT_JACQUET_NAMES,
    GOOSE_DEFAULT_PLAYERS,
    GOOSE_MAX_PLAYERS,
    GOOSE_MIN_PLAYERS,
    GOOSE_RULE_SETS,
    JACQUET_BEAROFF_RULES,
    JACQUET_LEVELS,
    GameSetup,
    GooseSetup,
    JacquetSetup,
    SessionSettings,
    SetupError,
    game_options,
)
from client.widgets.deferred import AfterFirstPaint
from client.widgets.footer import KeysFooter
from client.widgets.saved_seats import SavedSeats
from client.widgets.select import LightSelect
from client.widgets.tick_box import TickBox
from client.widgets.title_bar import TitleBar

if TYPE_CHECKING:
    from client.net.plan import HostPlan


NETWORK_HELP = N_(
    "Play with friends on other machines. To host, set the game up in its tab (your name "
    "is the first player's) and press “Host over the network”: Tablier starts a relay here "
    "and shows the invites to send. To join or watch, paste the invite a friend sent you."
)


def host_plan(setup: GameSetup) -> HostPlan:
    """The network room for *setup*'s game and options; the host takes the first seat."""
    from client.net.plan import HostPlan

    options = game_options(setup)
    # Only the host's own seat can be the computer here: the others are friends who join.
    computer = 0 in setup.computer_seats
    level = setup.level if isinstance(setup, JacquetSetup) else 1
    return HostPlan(
        setup.game, options, len(setup.names), setup.names[0], computer=computer, level=level
    )


def remote_computer_seats(setup: GameSetup) -> list[str]:
    """Names of seats ticked "computer" that a network game gives to friends instead."""
    return [name for seat, name in enumerate(setup.names) if seat and seat in setup.computer_seats]


def _whole_number(field: Input, what: str) -> int:
    """The integer typed in *field*, or a :class:`SetupError` naming *what* is wrong."""
    text = field.value.strip()
    try:
        return int(text)
    except ValueError:
        raise SetupError(
            _("{what} must be a whole number, not {text!r}").format(what=what, text=text)
        ) from None


class SeatRow(Horizontal):
    """One Goose seat: its number, the player's name, and whether the computer plays it."""

    def __init__(self, seat: int) -> None:
        super().__init__(classes="seat-row", id=f"seat-{seat}")
        self.seat = seat

    def compose(self) -> ComposeResult:
        yield Label(f"{self.seat + 1:>2}.", classes="seat-number", markup=False)
        yield Input(
            DEFAULT_GOOSE_NAMES[self.seat],
            placeholder=_("name"),
            max_length=20,
            classes="name",
            compact=True,
        )
        yield TickBox(_("computer"), classes="computer", compact=True)

    @property
    def name_value(self) -> str:
        return self.query_one(".name", Input).value.strip()

    @property
    def computer(self) -> bool:
        return self.query_one(".computer", TickBox).value


class JacquetForm(Vertical):
    """The Jacquet tab's settings, mounted just after the lobby's first paint."""

    def compose(self) -> ComposeResult:
        yield Static(
            _(
                "The French cousin of backgammon for two: no hitting, one postillon, and a win "
                "counts up to four times. Play hot-seat, or against the computer."
            ),
            classes="intro",
            markup=False,
        )
        with Vertical(classes="form"):
            with Horizontal(classes="options"):
                yield Label(_("White"), classes="option-label", markup=False)
                yield Input(
                    DEFAULT_JACQUET_NAMES[0], max_length=20, id="jacquet-white", compact=True
                )
                yield Label(_("Black"), classes="option-label", markup=False)
                yield Input(
                    DEFAULT_JACQUET_NAMES[1], max_length=20, id="jacquet-black", compact=True
                )
            with Horizontal(classes="options"):
                yield Checkbox(
                    _("Black is the computer"), value=True, id="jacquet-computer", compact=True
                )
                yield Label(_("Level"), classes="option-label", markup=False)
                yield LightSelect(
                    [(str(level), level) for level in JACQUET_LEVELS],
                    value=1,
                    allow_blank=False,
                    compact=True,
                    id="jacquet-level",
                )
            with Horizontal(classes="options"):
                # Not "Match to [1] points": a label cannot agree with the number typed.
                yield Label(_("Points to win"), classes="option-label", markup=False)
                yield Input(
                    "1", type="integer", id="jacquet-match-to", classes="number", compact=True
                )
                yield Label(_("Bear-off"), classes="option-label", markup=False)
                yield LightSelect(
                    [(rule, rule) for rule in JACQUET_BEAROFF_RULES],
                    value="backgammon",
                    allow_blank=False,
                    compact=True,
                    id="jacquet-bearoff",
                )
            with Horizontal(classes="options"):
                yield Checkbox(
                    _("Over the network, allow hints and the tutor"),
                    value=False,
                    id="jacquet-coach",
                    compact=True,
                )
        with Horizontal(classes="actions"):
            yield Button(_("Play Jacquet"), variant="success", id="play-jacquet")
            yield Button(_("Host over the network (F8)"), id="host-jacquet")
            yield Static("", id="jacquet-error", classes="error", markup=False)


LIST_REFRESH_SECONDS: Final = 2.0
"""How often the lobby, while it is the screen shown, reads its lists' folders again: a match
left, finished or killed in another terminal, or a new log, shows within this. Each time
costs a listing of the folders and a look at each file's size and time and at its log's
lock; a log or seat file is read again only once changed (client/folder_listing.py)."""

TABS = Binding.Group(N_("Tabs"))
LANGUAGE_CHOICES = (("English", "en"), ("Français", "fr"))
"""The languages the lobby offers, each named in itself."""
GAME_TABS = ("goose", "jacquet")  # the tabs that set a game up (the others open one)


class LobbyScreen(Screen[None]):
    """The app's bottom screen: every game starts here and every game returns here."""

    @property
    def HELP_TEXT(self) -> str:
        return _(help_topics.LOBBY)

    # Translated when the module is imported: the app's modules load after the language is
    # chosen (client/cli.py imports them only to run a command).
    BINDINGS: ClassVar[list[BindingType]] = [
        # The tabs in their order (each tab's title shows its key: the footer has room for
        # one "Tabs"), then what can be done from them; footer, F1 and palette keep this order.
        Binding(
            "f2", "show_tab('goose')", N_("Goose"), tooltip=N_("The Jeu de l'oie tab"), group=TABS
        ),
        Binding(
            "f3", "show_tab('jacquet')", N_("Jacquet"), tooltip=N_("The Jacquet tab"), group=TABS
        ),
        Binding(
            "f4", "show_tab('replay')", N_("Replay"), tooltip=N_("The recorded matches"), group=TABS
        ),
        Binding(
            "f7", "show_tab('network')", N_("Network"), tooltip=N_("Network matches"), group=TABS
        ),
        Binding("f5", "play", N_("Play"), tooltip=N_("Start the game of the open tab")),
        Binding(
            "f6", "join", N_("Join"), tooltip=N_("Join or watch a network game from an invite")
        ),
        Binding("f8", "host", N_("Host"), tooltip=N_("Host the open tab's game over the network")),
        Binding("ctrl+q", "app.quit", N_("Quit"), priority=True),
    ]

    def __init__(self, settings: SessionSettings) -> None:
        super().__init__()
        self.settings = settings
        self._resumed = False  # see on_screen_resume

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with TabbedContent(id="games"):
            with TabPane(_("Jeu de l'oie") + " F2", id="goose"):
                yield from self._compose_goose()
            with TabPane(_("Jacquet") + " F3", id="jacquet"):
                yield AfterFirstPaint(JacquetForm(id="jacquet-form"))
            with TabPane(_("Recorded match") + " F4", id="replay"):
                yield AfterFirstPaint(ReplayForm(self.settings, id="replay-form"))
            with TabPane(_("Network") + " F7", id="network"):
                yield Static(_(NETWORK_HELP), classes="intro", markup=False)
                with Horizontal(classes="actions"):
                    yield Button(_("Join or watch… (F6)"), variant="primary", id="join")
                yield SavedSeats(self.settings.data_dir, id="saved-seats")
        with Horizontal(id="lobby-language"):
            yield Label(_("Language"), classes="option-label", markup=False)
            yield LightSelect(
                LANGUAGE_CHOICES, value=i18n.current(), allow_blank=False, compact=True,
                id="language",
            )
        yield KeysFooter()

    @on(Select.Changed, "#language")
    async def _language_changed(self, event: Select.Changed) -> None:
        """Speak the language chosen from now on, and at the next start (unless --lang or
        TABLIER_LANG says otherwise): the lobby is drawn again in it."""
        language = cast(str, event.value)
        if language == i18n.current():
            return
        i18n.use(language)
        from client.config_files import save_language

        try:
            save_language(self.settings.config_dir or i18n.config_dir(), language)
        except OSError as error:
            self.notify(_("The language cannot be kept for the next start: {error}").format(
                error=i18n.os_reason_of(error)
            ), severity="warning", timeout=10, markup=False)
        await self.recompose()

    def _compose_goose(self) -> ComposeResult:
        yield Static(
            _(
                "2 to 15 players race round 63 squares to le jardin de l'oie; the winner takes "
                "the pot. Tick “computer” for the seats the computer throws for."
            ),
            classes="intro",
            markup=False,
        )
        with Horizontal(classes="options"):
            yield Label(_("Players"), classes="option-label", markup=False)
            yield LightSelect(
                [(str(n), n) for n in range(GOOSE_MIN_PLAYERS, GOOSE_MAX_PLAYERS + 1)],
                value=GOOSE_DEFAULT_PLAYERS,
                allow_blank=False,
                compact=True,
                id="goose-players",
            )
            yield Label(_("Rules"), classes="option-label", markup=False)
            yield LightSelect(
                [(rules, rules) for rules in GOOSE_RULE_SETS],
                value="daumont",
                allow_blank=False,
                compact=True,
                id="goose-rules",
            )
            yield Label(_("Ante"), classes="option-label", markup=False)
            yield Input("4", type="integer", id="goose-ante", classes="number", compact=True)
            yield Label(_("Fee"), classes="option-label", markup=False)
            yield Input("1", type="integer", id="goose-fee", classes="number", compact=True)
        with VerticalScroll(id="seats"):
            for seat in range(GOOSE_DEFAULT_PLAYERS):
                yield SeatRow(seat)
        with Horizontal(classes="actions"):
            yield Button(_("Play Jeu de l'oie"), variant="success", id="play-goose")
            yield Button(_("Host over the network (F8)"), id="host-goose")
            yield Static("", id="goose-error", classes="error", markup=False)

    @on(Select.Changed, "#goose-players")
    async def _players_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, int):
            await self._show_seats(event.value)

    async def _show_seats(self, players: int) -> None:
        """Show *players* seat rows; rows are added when first needed and only hidden after,
        so names typed for a seat come back with it."""
        rows = list(self.query(SeatRow))
        for row in rows:
            row.display = row.seat < players
        new_rows = [SeatRow(seat) for seat in range(len(rows), players)]
        if new_rows:
            await self.query_one("#seats").mount_all(new_rows)

    @on(Checkbox.Changed, "#jacquet-computer")
    def _computer_changed(self, event: Checkbox.Changed) -> None:
        self.query_one("#jacquet-level", Select).disabled = not event.value

    def action_show_tab(self, tab: str) -> None:
        tabs = self.query_one(TabbedContent)
        # Focus the tab bar first: a field of the tab being left keeps the focus otherwise,
        # and a focused field's tab makes itself the active one again (F3 did nothing).
        self.set_focus(tabs.query_one("ContentTabs"))
        tabs.active = tab

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hosting is for the game tabs: elsewhere its key shows, greyed (None)."""
        if action == "host" and self.query_one(TabbedContent).active not in GAME_TABS:
            return None
        return True

    @on(TabbedContent.TabActivated)
    def _tab_changed(self) -> None:
        self.refresh_bindings()

    def action_host(self) -> None:
        tab = self.query_one(TabbedContent).active
        if tab in GAME_TABS:
            self._host(tab)

    def action_play(self) -> None:
        tab = self.query_one(TabbedContent).active
        if tab == "replay":
            self.query_one(ReplayForm).open_typed()
        elif tab == "network":
            self.action_join()
        else:
            self._start(tab)

    def on_mount(self) -> None:
        self.set_interval(LIST_REFRESH_SECONDS, self._rescan)

    def _rescan(self) -> None:
        """The lists kept current while the lobby is shown (not under a game or a room)."""
        if self._resumed and self.app.screen is self:
            self._refresh_lists()

    def _refresh_lists(self) -> None:
        for seats in self.query(SavedSeats):  # (none while the lobby is drawn again)
            seats.refresh_seats()
        for form in self.query(ReplayForm):  # (mounted after the first paint)
            form.refresh_logs()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """Back from a game: a match left or finished since changes the lists.

        The first resume is not a return: it ends the lobby's composition, just before its
        first paint. Textual then styles every widget of the screen again, though each was
        styled as it was mounted and restyled by Textual at each change of its classes since:
        122 of the 352 style computations before that paint, for the same styles
        (tests/client/test_lobby.py checks them). The lists are read after the first paint."""
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False
            return
        self._refresh_lists()

    @on(SavedSeats.Resume)
    def _resume(self, event: SavedSeats.Resume) -> None:
        from client.net.plan import JoinPlan
        from client.screens.room import RoomScreen

        seat, invite = event.saved.seat, event.saved.invite
        assert seat is not None and invite is not None
        self.app.push_screen(RoomScreen(JoinPlan(invite, seat.name), self.settings))

    @on(SavedSeats.Forget)
    def _forget(self, event: SavedSeats.Forget) -> None:
        from client.screens.confirm import forget_question

        def answered(forget: bool | None) -> None:
            if forget:
                self.query_one(SavedSeats).forget(event.saved)

        question = forget_question(_("Forget this match?"), event.saved.title)
        self.app.push_screen(question, answered)

    @on(Button.Pressed, "#join")
    def action_join(self) -> None:
        from client.screens.room import JoinScreen

        self.app.push_screen(JoinScreen(self.settings))

    @on(Button.Pressed, "#host-goose")
    @on(Button.Pressed, "#host-jacquet")
    def _host_pressed(self, event: Button.Pressed) -> None:
        self._host("goose" if event.button.id == "host-goose" else "jacquet")

    def _host(self, game: str) -> None:
        """Open a network room for the game the tab describes (or say what to fix)."""
        setup = self._checked_setup(game)
        if setup is not None:
            from client.screens.room import RoomScreen

            ignored = remote_computer_seats(setup)
            if ignored:
                self.notify(
                    _("Over the network every other seat is a friend who joins with the invite: "
                      "{names} will not be played by the computer.").format(
                        names=", ".join(ignored)),
                    title=_("Computer seats"),
                )  # fmt: skip
            self.app.push_screen(RoomScreen(host_plan(setup), self.settings))

    @on(Button.Pressed, "#play-goose")
    @on(Button.Pressed, "#play-jacquet")
    def _play_pressed(self, event: Button.Pressed) -> None:
        self._start("goose" if event.button.id == "play-goose" else "jacquet")

    def _start(self, game: str) -> None:
        """Start the game the tab describes (or say under the form what to fix)."""
        setup = self._checked_setup(game)
        if setup is not None:
            self.post_message(StartGame(setup))

    def _checked_setup(self, game: str) -> GameSetup | None:
        """The tab's setup; ``None`` after saying under the form what to fix."""
        error = self.query_one(f"#{game}-error", Static)
        try:
            setup: GameSetup = self.goose_setup() if game == "goose" else self.jacquet_setup()
        except SetupError as problem:
            message = str(problem)
            error.update(message[:1].upper() + message[1:])
            return None
        error.update("")
        return setup

    def goose_setup(self) -> GooseSetup:
        """The Goose game the form describes; :class:`SetupError` says what to fix."""
        players = cast(int, self.query_one("#goose-players", Select).value)
        rows = [row for row in self.query(SeatRow) if row.seat < players]
        return GooseSetup(
            names=tuple(row.name_value for row in rows),
            computer_seats=frozenset(row.seat for row in rows if row.computer),
            rules=cast(str, self.query_one("#goose-rules", Select).value),
            ante=_whole_number(self.query_one("#goose-ante", Input), _("the ante")),
            fee=_whole_number(self.query_one("#goose-fee", Input), _("the fee")),
        )

    def jacquet_setup(self) -> JacquetSetup:
        """The Jacquet match the form describes; :class:`SetupError` says what to fix."""
        computer = self.query_one("#jacquet-computer", Checkbox).value
        return JacquetSetup(
            names=(
                self.query_one("#jacquet-white", Input).value.strip(),
                self.query_one("#jacquet-black", Input).value.strip(),
            ),
            computer_seats=frozenset({1}) if computer else frozenset(),
            level=cast(int, self.query_one("#jacquet-level", Select).value),
            match_to=_whole_number(
                self.query_one("#jacquet-match-to", Input), _("the match length")
            ),
            bearoff=cast(str, self.query_one("#jacquet-bearoff", Select).value),
            coach=self.query_one("#jacquet-coach", Checkbox).value,
        )
