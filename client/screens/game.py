"""What every game screen shares, for every driver: the turn loop, the optional parts, the end.

A game screen plays through a :class:`~client.game.driver.GameDriver` — a local game, a
networked one or a replay; it never knows which. One worker (:meth:`GameScreen._run_turns`)
runs the whole game: say what is awaited, let the computer act for a seat it plays here,
then take the next turn from the driver and show it — whoever acted, wherever. A person's
keys only *start* an action; the turn comes back through that same loop.

What only some drivers have is composed in, never overridden: the chat panel and the
connection line (a networked game), the story and the step keys (a replay), the claim and
resign keys, the rematch on the end screen. News from the driver (a chat line, a peer's
offence, a rematch) arrives as a :class:`GameScreen.News` message.

The Goose and Jacquet screens subclass it and fill in how their game is drawn:
:meth:`show_state`, :meth:`show_turn`, :meth:`prompt`, :meth:`summary` and :meth:`say`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import ClassVar, Final

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.notifications import Notification, Notify, SeverityLevel
from textual.screen import Screen
from textual.widgets import Input, Static

from client import help_topics
from client.computer import ComputerPlayer
from client.game.driver import (
    Changed,
    ChatLine,
    Extras,
    GameDriver,
    GameNews,
    OffenceNews,
    ScreenAwaiting,
    Superseded,
    catching_up_refusal,
    seated,
)
from client.game.turn import GameState, NotYourTurnError, Turn
from client.i18n import N_, _, path_shown
from client.lifecycle import closing
from client.messages import CloseLater, EndChosen, OpenGame, ReturnToLobby
from client.screens.confirm import ConfirmScreen
from client.screens.end import EndChoice, EndScreen, GameSummary, ending_summary
from client.setup import JacquetSetup, SessionSettings
from client.widgets.chat import ChatPanel
from client.widgets.connection import ConnectionBar
from client.widgets.replay_bar import ReplayBar, StoryList
from engine.awaiting import ChoosePlay, ThrowDice
from engine.jacquet import JacquetState
from protocol.games import game_named

MAX_OFFENCE_TOASTS: Final = 2
"""Toasts telling a peer's offences, up at once (each another sender or reason; a repeat is
counted on its own toast): two of them, a dozen lines, leave most of an 80x24 board seen."""
OFFENCE_SECONDS: Final = 15
"""How long an offence's toast stays up after its last repeat."""


OFFENCE_REDRAW_SECONDS: Final = 1.0
"""A repeated offence's count is drawn at most this often (each toast its own)."""


@dataclass(slots=True)
class _Told:
    """An offence told on a toast: the toast up (None: not yet), how many times it came, and
    whether a redraw of its count is due."""

    notification: Notification | None = None
    count: int = 1
    redraw_due: bool = False


class GameScreen(Screen[None]):
    """A screen showing one game; ``HELP_TEXT`` is the rules summary the help screen shows."""

    RULES: ClassVar[str] = ""
    FULL_RULES: ClassVar[str] = ""
    """The game's rules in full (docs/rules.md's section), after the keys in the help."""
    """The game's rules summary (Markdown) for the help screen."""
    ENTRY_HELP: ClassVar[str] = ""
    """How a person enters a turn here (shown only where a person plays)."""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", N_("Lobby"), tooltip=N_("Leave this game for the lobby")),
        Binding("q", "app.quit", N_("Quit"), tooltip=N_("Quit Tablier (asks first mid-game)")),
        Binding(
            "t", "chat", N_("Chat"), tooltip=N_("Type a chat line (enter sends, escape returns)")
        ),
        Binding(
            "c", "claim", N_("Claim"),
            tooltip=N_("Claim the match from a player past the time limit"),
        ),
        # Not in the footer (full at 80 columns): the help's key list and the palette offer it.
        Binding(
            "ctrl+r", "resign", N_("Resign"), show=False,
            tooltip=N_("Give up the match (asks first)"),
        ),
        Binding(
            "i", "invites", N_("Invites"), show=False,
            tooltip=N_("Show and copy this room's invites (a spectator's too)"),
        ),
    ]
    _EXTRA_ACTIONS: ClassVar[frozenset[str]] = frozenset({"chat", "claim", "resign", "invites"})

    class News(Message):
        """Something the driver told (posted by the screen to itself, from the driver)."""

        def __init__(self, news: GameNews) -> None:
            super().__init__()
            self.news = news

    def __init__(self, game: GameDriver, settings: SessionSettings) -> None:
        super().__init__()
        self.game = game
        self.settings = settings
        self.animation = settings.animation and game.animated
        setup = game.setup
        level = setup.level if isinstance(setup, JacquetSetup) else 1
        self._computer = ComputerPlayer(level, settings.computer_pause)
        self.acting = False  # a person here started an action whose turn is not back yet
        self.busy = False  # a turn is being shown (played back, animated)
        self._claimable = False
        self._unsubscribe: Callable[[], None] | None = None
        self._held_shown = False  # the prompt last said the board is catching up
        self._released: asyncio.Event | None = None  # set once the board caught up
        # The offences told, the oldest first (at most MAX_OFFENCE_TOASTS): (who, reason,
        # fatal) -> its toast and count.
        self._offence_toasts: dict[tuple[str, str, bool], _Told] = {}

    @property
    def extras(self) -> Extras:
        return self.game.extras

    @property
    def HELP_TEXT(self) -> str:
        """The rules, how a turn is entered where a person plays, and how a networked match
        goes when it is one."""
        entry = self.ENTRY_HELP if self.persons_here() else ""
        network = help_topics.NETWORK if self.extras.link is not None else ""
        return "".join(_(part) for part in (self.RULES, entry, network) if part)

    @property
    def in_progress(self) -> bool:
        """Whether leaving now would abandon a game someone is still playing."""
        return not self.game.finished and self.extras.replay is None

    def persons_here(self) -> list[int]:
        """The seats a person at this terminal plays."""
        return [s for s in range(len(self.game.names)) if self.game.seat_role(s) == "person"]

    # -- the optional parts -----------------------------------------------------------------

    def compose_side_extras(self) -> ComposeResult:
        """What goes at the bottom of the side panel: the chat, or a replay's story."""
        chat, replay = self.extras.chat, self.extras.replay
        if chat is not None:
            yield ChatPanel(chat, id="chat")
        if replay is not None:
            yield StoryList(replay, id="story")

    def compose_bottom_extras(self) -> ComposeResult:
        """What goes above the footer: the connection line, or the replay's position."""
        if self.extras.link is not None:
            yield ConnectionBar(
                self.extras.link, self.game.names, self.settings.clock, id="connection"
            )
        replay = self.extras.replay
        if replay is not None:
            if replay.warning is not None:
                yield Static(replay.warning, id="replay-warning", markup=False)
            yield ReplayBar(replay, id="replay-bar")

    # -- the flow of the game ---------------------------------------------------------------

    def on_mount(self) -> None:
        if closing(self):
            return
        self._unsubscribe = self.game.subscribe(self._post_news)
        if self.extras.score is not None:  # a session of games: its score so far, first
            self.sub_title = f"{self.extras.score.line()} · {self.sub_title}"
        self.show_state(self.game.state)
        if self.extras.link is not None:
            self.set_interval(1.0, self._watch_claims)
        for offence in self.extras.link.offences if self.extras.link else ():
            self._tell_offence(offence.named, offence.text, fatal=offence.fatal)
        replay = self.extras.replay
        if replay is not None and replay.warning is not None:
            self.notify(replay.warning, severity="warning", timeout=8)
        self._run_turns()

    def _post_news(self, news: GameNews) -> None:
        """From the driver, whose news comes in the middle of its own work: handled after."""
        self.post_message(self.News(news))

    def let_go(self) -> None:
        """The screen is being left: its game's files go at once (see :class:`HoldsAGame
        <client.app.HoldsAGame>`); closing again on unmount does nothing more. A networked
        game's log stays open until its room is left (records may come until then)."""
        if self.extras.link is None:
            self.game.close()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self.game.close()
        link = self.extras.link
        leaving = link.leaving() if link is not None else None
        if leaving is not None:  # (when the app is quitting, it leaves its open rooms itself)
            self.app.post_message(CloseLater(leaving))

    @work(exclusive=True, group="turn")
    async def _run_turns(self) -> None:
        """The whole game, one turn after another, for every driver alike."""
        game = self.game
        while not game.finished:
            self.acting = False
            self.prompt()
            self.refresh_bindings()  # the footer offers what may be done now (built again
            # only when that changed: client/widgets/footer.py)
            awaiting = game.awaiting
            if isinstance(awaiting, ThrowDice | ChoosePlay) and self._computer_plays(awaiting.seat):
                await self._computer_acts(awaiting)
            turn = await self._next_turn()
            if closing(self):  # replaced or left while the turn was on its way
                return
            if turn is None:  # caught up with the match: prompt again, on the true board
                continue
            self.busy = True
            self.refresh_bindings()
            try:
                await self.show_turn(turn)
            finally:
                self.busy = False
        self.acting = False
        self.prompt()
        self.refresh_bindings()
        self.show_end()

    def _computer_plays(self, seat: int) -> bool:
        """The computer acts for *seat* here, and the screen has caught up with the game
        (it acts on what is shown, and only on a board known to be current)."""
        return (self.game.seat_role(seat) == "computer" and not self.game.pending_turns
                and self.held_back() is None)  # fmt: skip

    async def _next_turn(self) -> Turn | None:
        """The next turn; while the board catches up with the match (and no turn waits),
        None as soon as it has caught up, for the prompt to be made again on it."""
        if self.held_back() is None or self.game.pending_turns:
            return await self.game.next_turn()
        released = self._released = asyncio.Event()
        turn = asyncio.ensure_future(self.game.next_turn())
        caught_up = asyncio.ensure_future(released.wait())
        try:
            await asyncio.wait((turn, caught_up), return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._released = None
            caught_up.cancel()
            if not turn.done():
                turn.cancel()
        return turn.result() if turn.done() and not turn.cancelled() else None

    def held_back(self) -> str | None:
        """While the board catches up with the match (a networked seat back, or its
        connection renewed): what the prompt says instead of what the board awaits, and
        why no key acts on it (None: the board is current)."""
        link = self.extras.link
        if link is None or not link.catching_up:
            return None
        text = _("Catching up with the match…")
        note = link.catching_up_note(self.settings.clock())
        return text if note is None else f"{text} {note}"

    def say_held_back(self) -> bool:
        """Say so in the prompt line while the board catches up (True), nothing else."""
        held = self.held_back()
        self._held_shown = held is not None
        if held is not None:
            self.say(held)
        return held is not None

    async def _computer_acts(self, awaiting: ThrowDice | ChoosePlay) -> None:
        await self._computer.wait_to_act()
        try:
            state = self.game.state
            if isinstance(awaiting, ThrowDice):
                self.game.throw()
            elif isinstance(state, JacquetState):  # plays are Jacquet's only
                self.game.play(await self._computer.choose_play(state))
        except NotYourTurnError as refusal:  # the match moved on meanwhile (a peer resigned)
            self.refuse(str(refusal))

    def start(self, action: Callable[[], None]) -> bool:
        """Start a person's action (a throw, a play); False after saying why it cannot."""
        try:
            action()
        except NotYourTurnError as refusal:
            self.refuse(as_sentence(str(refusal)))
            return False
        self.acting = True
        self.refresh_bindings()  # its key does nothing more until the turn comes back
        return True

    def waiting_sentence(self, awaiting: ScreenAwaiting) -> str | None:
        """What the screen says while another terminal's player is to act."""
        if not isinstance(awaiting, ThrowDice | ChoosePlay):
            return None
        if self.game.seat_role(awaiting.seat) != "elsewhere" or self.extras.replay:
            return None
        name = self.game.names[awaiting.seat]
        if getattr(self.game.state, "phase", "") == "lots":
            return _("Waiting for {name} to throw for the lots…").format(name=name)
        if isinstance(awaiting, ChoosePlay):
            return _("Waiting for {name} to play…").format(name=name)
        return _("Waiting for {name} to throw…").format(name=name)

    # -- what the game screens draw ---------------------------------------------------------

    def show_state(self, state: GameState) -> None:
        """Draw *state* as it is (the first picture, a replay's jump)."""
        raise NotImplementedError

    async def show_turn(self, turn: Turn) -> None:
        """Show *turn*: played back (animated unless catching up), told, then drawn."""
        raise NotImplementedError

    def prompt(self) -> None:
        """Say what the game waits for, and set up whatever a person here may enter."""
        raise NotImplementedError

    def summary(self) -> GameSummary:
        """The end screen's content for a game played to its end."""
        raise NotImplementedError

    def say(self, text: str, *, refusal: bool = False) -> None:
        """Put *text* in the screen's prompt line."""
        raise NotImplementedError

    def catching_up(self) -> bool:
        """More turns wait behind this one: show it at once (a late spectator, a resume)."""
        return self.game.pending_turns > 0

    # -- keys -----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """True: the key acts now; None: a key of this game that does nothing at the moment
        (out of the footer, in F1's list; pressed, it says why: :meth:`not_now`); False: no
        key of this game here (a spectator's throw)."""
        if action not in self._EXTRA_ACTIONS:
            return True
        chat, link = self.extras.chat, self.extras.link
        if action == "chat":
            return chat is not None and chat.can_speak
        if action == "invites":
            return self.extras.invites is not None
        if action == "resign":
            resigning = self.extras.resigning
            return resigning is not None and resigning.resigner is not None
        if link is None or link.watching:
            return False
        return self._claimable or None

    def not_now(self, action: str) -> str | None:
        """Why *action*'s key does nothing now, said when it is pressed all the same (None:
        nothing worth a toast; the prompt line says whose turn it is)."""
        if self.held_back() is not None:
            return as_sentence(catching_up_refusal())
        return None

    def on_key(self, event: events.Key) -> None:
        """A key of this game pressed when it does nothing (it is not in the footer then):
        say why, where there is something to say. Runs before the bindings are looked up
        (the key bubbles up to the app), which then find it disabled and do nothing."""
        if isinstance(self.focused, Input):
            return  # a letter typed in a line
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            action = binding.action.partition("(")[0]
            if self.check_action(action, ()) is None and (reason := self.not_now(action)):
                self.refuse(reason)
                return

    def refuse(self, reason: str) -> None:
        """Say why a key does nothing now; pressed again, it replaces its toast rather than
        stacking another over the board (space held during a computer's turn)."""
        self.app.clear_notifications()
        self.notify(reason, title=_("Not now"), severity="warning")

    def quit_detail(self) -> str:
        log_path = self.game.log_path
        detail = (
            _("The game so far is lost.")
            if log_path is None
            else _("The game so far stays in its log: {path}").format(path=path_shown(log_path))
        )
        if self.extras.link is not None and self.extras.link.resumable:
            detail += "\n" + _(
                "Your seat is kept: run `tablier join` with the same invite to take it back."
            )
        return detail

    def action_leave(self) -> None:
        if not self.in_progress:
            self.post_message(ReturnToLobby())
            return
        self.app.push_screen(
            ConfirmScreen(
                _("Leave this game for the lobby?"),
                detail=self.quit_detail(),
                confirm_label=_("Leave"),
            ),
            self._leave_if_confirmed,
        )

    def _leave_if_confirmed(self, confirmed: bool | None) -> None:
        if confirmed:
            self.post_message(ReturnToLobby())

    def on_replay_bar_closed(self) -> None:
        self.action_leave()

    def action_chat(self) -> None:
        for panel in self.query(ChatPanel):
            panel.focus_input()

    def action_focus_board(self) -> None:
        board = self.query_one("#board")  # the Goose board takes no focus: leave the input
        self.set_focus(board if board.focusable else None)

    def action_claim(self) -> None:
        link = self.extras.link  # (a claim is judged on signed times: catching up, it may)
        seat = None if link is None else link.claimable(self.settings.clock())
        if (link is None or seat is None) and self._refused_while_catching_up():
            return
        if link is None or seat is None:
            self.notify(_("Nobody is past the time limit."), title=_("Nothing to claim"))
            return
        self.start(lambda: link.claim_abandonment(seat))

    def action_invites(self) -> None:
        from client.screens.invites import InvitesScreen

        invites = self.extras.invites
        if invites is not None:
            self.app.push_screen(InvitesScreen(invites))

    def _watch_catching_up(self, *, every_second: bool = False) -> None:
        """The board started or ended catching up: prompt again (when a turn is being
        shown, the turns' worker does, after it); *every_second*: while it still is, the
        prompt says again how long it has waited."""
        if self.busy:
            return
        held = self.held_back() is not None
        if held == self._held_shown:
            if held and every_second:
                self.say_held_back()
            return
        if not held and self._released is not None:
            self._released.set()  # the turns' worker prompts again on the true board
        else:  # caught out (a renewed connection), or caught up: say it, the keys follow
            self.prompt()
            self.refresh_bindings()

    def _refused_while_catching_up(self) -> bool:
        """Say why a key does nothing while the board catches up (True), else nothing."""
        if self.held_back() is None:
            return False
        self.refuse(as_sentence(catching_up_refusal()))
        return True

    def action_resign(self) -> None:
        if self._refused_while_catching_up():
            return
        resigning = self.extras.resigning
        resigner = None if resigning is None else resigning.resigner
        if resigning is None or resigner is None:
            return
        names = self.game.names
        others = [name for seat, name in enumerate(names) if seat != resigner]
        local = self.extras.link is None  # every seat is here: say who gives up

        def answered(resign: bool | None) -> None:
            if resign and not self.game.finished:
                self.start(resigning.resign)  # the end comes back as a turn, as any turn does

        self.app.push_screen(
            ConfirmScreen(
                _("Resign this match, {name}?").format(name=names[resigner]) if local
                else _("Resign this match?"),
                detail=_("It ends now for {players} too; its log is kept.").format(
                    players=", ".join(others)
                ),
                confirm_label=_("Resign"),
            ),
            answered,
        )

    def _watch_claims(self) -> None:
        self._watch_catching_up(every_second=True)
        link = self.extras.link
        claimable = link is not None and link.claimable(self.settings.clock()) is not None
        if claimable != self._claimable:
            self._claimable = claimable
            self.refresh_bindings()

    # -- news -----------------------------------------------------------------------------

    def on_game_screen_news(self, message: News) -> None:
        news = message.news
        if isinstance(news, ChatLine):
            for panel in self.query(ChatPanel):
                panel.add(seated(news.line.name, news.line.seat), news.line.text, news.line.time)
        elif isinstance(news, OffenceNews):
            offence = news.offence
            self._tell_offence(offence.named, offence.text, fatal=offence.fatal)
        elif isinstance(news, Changed):
            for bar in self.query(ConnectionBar):
                bar.refresh_status()
            self._watch_catching_up()
            for end in self.app.query(EndScreen):  # attributes down: the end screen's note
                end.show_rematch()
        elif isinstance(news, Superseded) and self.extras.rematch is not None:
            self.post_message(OpenGame(self.extras.rematch.next_game(), replacing=self))

    def _tell_offence(self, who: str, text: str, *, fatal: bool) -> None:
        """One toast per sender and reason, its repeats counted on it (times 12), and at most
        :data:`MAX_OFFENCE_TOASTS` up at once (a new reason takes the oldest's place): a
        peer sending junk many times a second never covers the board. A repeat's count is
        drawn at most once every :data:`OFFENCE_REDRAW_SECONDS` (a toast redrawn is
        widgets mounted again: twenty a second were most of a core)."""
        for bar in self.query(ConnectionBar):
            bar.refresh_status()
        key = (who, text, fatal)
        told = self._offence_toasts.pop(key, None)
        if told is not None:  # a repeat: counted now, drawn soon
            self._offence_toasts[key] = told  # the newest told now
            told.count += 1
            if not told.redraw_due:
                told.redraw_due = True
                self.set_timer(OFFENCE_REDRAW_SECONDS, lambda: self._show_offence(key))
            return
        while len(self._offence_toasts) >= MAX_OFFENCE_TOASTS:  # the oldest told gives way
            oldest = self._offence_toasts.pop(next(iter(self._offence_toasts)))
            if oldest.notification is not None:
                self._withdraw(oldest.notification)
        self._offence_toasts[key] = _Told()
        self._show_offence(key)

    def _show_offence(self, key: tuple[str, str, bool]) -> None:
        """Put up offence *key*'s toast with its count (in place of the one it had)."""
        told = self._offence_toasts.get(key)
        if told is None:  # it gave way to newer ones meanwhile
            return
        who, text, fatal = key
        told.redraw_due = False
        if told.notification is not None:
            self._withdraw(told.notification)
        message = _("{who}: {reason}").format(who=who, reason=text)
        if told.count > 1:
            message = _("{told} (×{count})").format(told=message, count=told.count)  # noqa: RUF001
        title = _("Match stopped") if fatal else _("Ignored")
        severity: SeverityLevel = "error" if fatal else "warning"
        told.notification = Notification(message, title, severity, OFFENCE_SECONDS, markup=False)
        self.app.post_message(Notify(told.notification))

    def _withdraw(self, notification: Notification) -> None:
        """Take a toast down, if it is still up (it may have timed out, or been cleared):
        after the app took it in (its Notify is ahead in the app's queue)."""

        def withdraw() -> None:
            with contextlib.suppress(KeyError):
                self.app._unnotify(notification)  # Textual's own way (a toast clicked away)

        self.app.call_later(withdraw)

    # -- the end --------------------------------------------------------------------------

    def show_end(self) -> None:
        """Open the end-of-game screen; its choice (again, lobby, quit) goes to the app."""
        ended = self.game.ended
        summary = (
            self.summary()
            if ended is None or ended.reason == "finished"
            else ending_summary(game_named(self.game.setup.game), ended, self.game.names,
                                 self.game.state, self.game.log_path)
        )
        if self.extras.score is not None:
            score = self.extras.score.after(ended).line()
            summary = replace(summary, lines=(*summary.lines, score))
        setup = self.game.setup

        def chosen(choice: EndChoice | None) -> None:
            self.post_message(EndChosen(setup, choice))

        self.app.push_screen(EndScreen(summary, self.extras.rematch), chosen)


def as_sentence(reason: str) -> str:
    """A refusal's reason (a clause, as errors say it) said as a sentence on its own."""
    return reason[:1].upper() + reason[1:] + "."
