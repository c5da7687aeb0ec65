"""The game screens, networked: the local screens plus chat, the connection line, and turns
that arrive from the relay.

:class:`NetGooseScreen` and :class:`NetJacquetScreen` subclass the local screens and change
only what time changes: a remote seat's turn is awaited from :meth:`NetworkGame.next_turn` in
the screen's ``"turn"`` worker (as a computer seat's would be computed), and this seat's own
throw is sent first and shown once every share came back. A spectator's keys that would act
are disabled. The chat panel goes at the bottom of the side panel, the connection line above
the footer (styles in ``client/net.tcss``).

At the end, "Play again" asks for a rematch in the same room (:class:`NetEndScreen`); once the
host has seated everyone in it, every terminal's screen gives way to the new match's board.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual import work
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Label

from client import help_topics
from client.lifecycle import closing
from client.local_game import NotYourTurnError, Turn
from client.net.game import NetworkGame
from client.net.match import Offence
from client.screens.confirm import ConfirmScreen
from client.screens.end import EndChoice, EndScreen, GameSummary
from client.screens.game import GameScreen
from client.screens.goose import GooseScreen
from client.screens.jacquet import JacquetScreen
from client.widgets.chat import ChatPanel
from client.widgets.connection import ConnectionBar
from engine.awaiting import ChoosePlay, Finished, ThrowDice
from engine.jacquet import Moved, Passed
from protocol.events import ChatReceived, MatchEnded
from protocol.narrate import narrate_turns

if TYPE_CHECKING:
    from client.app import TablierApp

NET_BINDINGS: list[BindingType] = [
    Binding("t", "chat", "Chat", tooltip="Type a chat line (enter sends, escape returns)"),
    Binding("c", "claim", "Claim", tooltip="Claim the match from a player past the time limit"),
    # Not in the footer (full at 80 columns): the help's key list and the palette offer it.
    Binding("ctrl+r", "resign", "Resign", show=False, tooltip="Give up the match (asks first)"),
]


class NetScreen(GameScreen):
    """What both networked screens add to their local screen (mixed in after it, so the
    local screen's styles, which select on its class name, still apply)."""

    game: NetworkGame  # type: ignore[assignment]
    _claimable = False  # someone is past the time limit: the claim key shows
    _rematch_begun = False  # the next match's board is on its way
    _ending = False  # the match's end is being taken as its last turn

    def _side(self) -> Widget:
        """The side panel the chat goes into (each networked screen names its own)."""
        raise TypeError(f"{type(self).__name__} must say where its side panel is")

    def _attach_network(self) -> None:
        """Mount the chat and the connection line, and listen to the match."""
        game = self.game
        said = [(line.name, line.text, line.time) for line in game.chat_history]
        send = None if game.watching else self._send_chat
        self._side().mount(ChatPanel(send, said=said, id="chat"))
        self.mount(ConnectionBar(game, id="connection"), before=self.query_one("Footer"))
        self.set_interval(1.0, self._watch_claims)
        game.chat_listeners.append(self._chat_line)
        game.offence_listeners.append(self._offence)
        game.change_listeners.append(self._watch_rematch)
        game.change_listeners.append(self._watch_end)
        for line in game.match.offences:
            self._offence(line)

    NET_ACTIONS: ClassVar[frozenset[str]] = frozenset({"chat", "claim", "resign"})

    def net_check_action(self, action: str) -> bool:
        """Whether the chat, claim or resign key works: chat for players, resigning while
        the match is on, claiming only while someone is past the time limit."""
        if action == "chat":
            return not self.game.watching
        if action == "resign":
            return not self.game.watching and self.game.match.ended is None
        return self._claimable

    def _watch_claims(self) -> None:
        claimable = self.game.claimable(int(time.time() * 1000)) is not None
        if claimable != self._claimable:
            self._claimable = claimable
            self.refresh_bindings()

    def on_unmount(self) -> None:
        game = self.game
        if self._chat_line in game.chat_listeners:  # not when the app quit mid-mount
            game.chat_listeners.remove(self._chat_line)
            game.offence_listeners.remove(self._offence)
            game.change_listeners.remove(self._watch_rematch)
            game.change_listeners.remove(self._watch_end)
        # GameScreen.on_unmount (Textual calls every class's handler) closes the log.
        leaving = game.leaving()
        if leaving is not None:
            self.tablier.close_later(leaving)

    @property
    def tablier(self) -> TablierApp:
        return cast("TablierApp", self.app)

    def quit_detail(self) -> str:
        if not self.game.match.resumable:
            return super().quit_detail()
        return (
            f"{super().quit_detail()}\nYour seat is kept: run `tablier join` with the same "
            "invite to take it back."
        )

    # -- chat and offences ------------------------------------------------------------------

    def _send_chat(self, text: str) -> str | None:
        try:
            self.game.chat(text)
        except NotYourTurnError as refusal:
            return str(refusal)
        return None

    def _chat_line(self, line: ChatReceived) -> None:
        self.query_one(ChatPanel).add(line.name, line.text, line.time)

    def _offence(self, offence: Offence) -> None:
        for bar in self.query(ConnectionBar):
            bar.refresh_status()
        self.notify(
            f"{offence.who}: {offence.text}",
            title="Match stopped" if offence.fatal else "Ignored",
            severity="error" if offence.fatal else "warning",
            timeout=15,
        )

    def action_chat(self) -> None:
        self.query_one(ChatPanel).focus_input()

    def action_focus_board(self) -> None:
        board = self.query_one("#board")  # the Goose board takes no focus: leave the input
        self.set_focus(board if board.focusable else None)

    def action_claim(self) -> None:
        seat = self.game.claimable(int(time.time() * 1000))
        if seat is None:
            self.notify("Nobody is past the time limit.", title="Nothing to claim")
            return
        self.game.claim_abandonment(seat)
        self._receive_turn()

    @work(exclusive=True, group="turn")
    async def _receive_turn(self) -> None:
        """The screen's ``"turn"`` worker: wait for the next turn from the relay, show it."""
        await self._take_turn()

    def action_resign(self) -> None:
        if not self.net_check_action("resign"):
            return
        others = [name for seat, name in enumerate(self.game.names) if seat != self.game.local_seat]

        def answered(resign: bool | None) -> None:
            if resign and self.game.match.ended is None:
                self.game.resign()  # the end comes back as a turn: _watch_end shows it

        self.app.push_screen(
            ConfirmScreen(
                "Resign this match?",
                detail=f"It ends now for {', '.join(others)} too; its log is kept.",
                confirm_label="Resign",
            ),
            answered,
        )

    def _watch_end(self) -> None:
        game = self.game
        if game.match.ended is not None and not game.superseded and not self._ending:
            self._ending = True
            self.call_later(self._take_end)  # once the action that ended it has shown its turn

    def _take_end(self) -> None:
        """The match ended with a turn nobody on this screen is taking (a resign from here,
        or from a peer during our own turn): take it as the last turn."""
        waiting = any(
            worker.node is self and worker.group == "turn" and worker.is_running
            for worker in self.app.workers
        )
        if self.game.match.turns and not waiting:
            self._receive_turn()

    async def _take_turn(self) -> None:
        """The next turn from the relay, shown as the local screen shows one."""
        raise TypeError(f"{type(self).__name__} must say how it shows a remote turn")

    # -- the end --------------------------------------------------------------------------

    def net_summary(self, summary: GameSummary) -> GameSummary:
        """The local summary, unless the match ended otherwise than by playing it out."""
        ended: MatchEnded | None = self.game.ended
        names = self.game.names
        if ended is None or ended.reason == "finished":
            return summary
        if ended.reason == "stopped":
            title = "The match was stopped."
            who = names[ended.seat] if ended.seat is not None else "a peer"
            lines: tuple[str, ...] = (
                f"{who}: {ended.error.reason if ended.error else ''}",
                "Everything accepted before it is in the log.",
            )
        elif ended.reason == "resigned":
            title = f"{names[ended.seat or 0]} resigned."
            lines = ()
        else:
            title = f"{names[ended.seat or 0]} abandoned the match (past the time limit)."
            lines = ()
        return GameSummary(title, lines, self.game.log_path)

    def show_end(self, summary: GameSummary) -> None:
        def chosen(choice: EndChoice | None) -> None:
            self.tablier.handle_end_choice(self.game.setup, choice)

        self.app.push_screen(NetEndScreen(self.net_summary(summary), self.game), chosen)

    def _watch_rematch(self) -> None:
        if self.game.superseded and not self._rematch_begun:
            self._rematch_begun = True
            self.call_later(self._open_rematch)

    def _open_rematch(self) -> None:
        """The rematch has begun: its board replaces this one (and whatever is over it)."""
        game = self.game.rematch()
        while self.app.screen is not self:
            self.app.pop_screen()
        self.app.switch_screen(screen_for(game, animation=self.animation))

    def tell_history(self, tell: Any) -> None:
        """A late spectator's screen opens on the present; what came before is told."""
        for sentence in narrate_turns(
            [e for turn in self.game.history for e in turn.events], self.game.names
        ):
            tell(sentence)


class NetGooseScreen(GooseScreen, NetScreen):
    """A networked Jeu de l'oie: the same board, throws arriving from the other terminals."""

    HELP_TEXT = GooseScreen.HELP_TEXT + help_topics.NETWORK

    CSS_PATH = ["../screens/goose.tcss", "../net.tcss"]  # type: ignore[assignment]  # noqa: RUF012
    BINDINGS: ClassVar[list[BindingType]] = [*GooseScreen.BINDINGS, *NET_BINDINGS]

    def __init__(self, game: NetworkGame, *, animation: bool) -> None:
        super().__init__(game, animation=animation)  # type: ignore[arg-type]
        self._throwing = False

    def _side(self) -> Widget:
        return self.query_one("#side")

    def on_mount(self) -> None:
        # GooseScreen.on_mount runs after this one (Textual calls each class's handler).
        if closing(self):
            return
        self._attach_network()
        self.tell_history(self.narrative.tell)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.NET_ACTIONS:
            return self.net_check_action(action)
        return super().check_action(action, parameters)

    def throw_refusal(self) -> str | None:
        awaiting = self.game.awaiting
        if self.game.watching:
            return "You are watching: only the players throw."
        if isinstance(awaiting, ThrowDice) and self.game.is_remote(awaiting.seat):
            return f"It is {self.game.names[awaiting.seat]}'s turn: they throw from their terminal."
        if self._throwing:
            return "Your dice are on their way: waiting for the other players' shares."
        return super().throw_refusal()

    def action_throw(self) -> None:
        refusal = self.throw_refusal()
        if refusal:
            self.refuse(refusal)
            return
        self.game.throw()
        self._throwing = True
        self._show_prompt("Throwing: waiting for the other players' dice shares…")
        self._receive_turn()

    def _next_turn(self) -> None:
        awaiting = self.game.awaiting
        if isinstance(awaiting, ThrowDice) and self.game.is_remote(awaiting.seat):
            self.refresh_bindings()
            what = " for the lots" if self.game.state.phase == "lots" else ""
            self._show_prompt(f"Waiting for {self.game.names[awaiting.seat]} to throw{what}…")
            self._receive_turn()
            return
        super()._next_turn()

    async def _computer_throw(self) -> None:
        await asyncio.sleep(self.game.settings.computer_pause)
        self.game.throw()
        await self._take_turn()

    async def _take_turn(self) -> None:
        turn = await self.game.next_turn()
        self._throwing = False
        self._show_turn(turn)


class NetJacquetScreen(JacquetScreen, NetScreen):
    """A networked Jacquet: the board faces this seat; the opponent's plays arrive live."""

    HELP_TEXT = JacquetScreen.HELP_TEXT + help_topics.NETWORK

    CSS_PATH = ["../jacquet.tcss", "../net.tcss"]  # type: ignore[assignment]  # noqa: RUF012
    BINDINGS: ClassVar[list[BindingType]] = [*JacquetScreen.BINDINGS, *NET_BINDINGS]

    def __init__(self, game: NetworkGame, *, animation: bool) -> None:
        super().__init__(game, animation=animation)  # type: ignore[arg-type]
        self._hot_seat = False
        self._viewer = game.local_seat or 0
        self._throwing = False

    def _side(self) -> Widget:
        return self.query_one("#jacquet-side")

    def on_mount(self) -> None:
        # JacquetScreen.on_mount runs after this one (Textual calls each class's handler).
        if closing(self):
            return
        self._attach_network()
        self.tell_history(self._tell)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.NET_ACTIONS:
            return self.net_check_action(action)
        if action in ("throw", "confirm", "undo") and not self._pass_notice:
            awaiting = self.game.awaiting
            if isinstance(awaiting, Finished) or self.game.is_remote(awaiting.seat):
                return None
            if action == "throw" and self._throwing:
                return None
        return super().check_action(action, parameters)

    def _next(self) -> None:
        awaiting = self.game.awaiting
        if not isinstance(awaiting, Finished) and self.game.is_remote(awaiting.seat):
            name = self.game.names[awaiting.seat]
            doing = "to throw" if isinstance(awaiting, ThrowDice) else "to play"
            self._say(f"Waiting for {name} {doing}…")
            self._redraw()
            self._receive_turn()
            return
        super()._next()

    def action_throw(self) -> None:
        awaiting = self.game.awaiting
        if not isinstance(awaiting, ThrowDice) or not self.game.is_local_human(awaiting.seat):
            return
        if self._throwing:
            return
        self.game.throw()
        self._throwing = True
        self._say("Throwing: waiting for the other player's dice share…")
        self._refresh_footer()
        self._receive_turn()

    async def _take_turn(self) -> None:
        turn = await self.game.next_turn(show=False)
        try:  # the opponent's play, move by move from where it started (when animated)
            moves = tuple(event.move for event in turn.events if isinstance(event, Moved))
            if moves and self.game.is_remote(turn.seat):
                await self._show_moves(moves)
        finally:
            self.game.show(turn)
        own_throw = self._throwing
        self._throwing = False
        self._after_turn(turn, announce_pass=own_throw)

    def _after_turn(self, turn: Turn, *, announce_pass: bool) -> None:
        """Show a turn that came from the relay, then set up whatever comes next."""
        self._recent = frozenset()
        self._last_dice = (
            ()
            if self.state.phase == "opening" or isinstance(self.game.awaiting, ChoosePlay)
            else self._last_dice
        )
        self._show_turn(turn)
        if announce_pass and any(isinstance(event, Passed) for event in turn.events):
            self._announce_pass(turn.seat)
            return
        self._redraw()
        self._next()

    @work(exclusive=True, group="turn")
    async def _computer_turns(self) -> None:
        """This seat played by the computer (``--computer``), one action at a time."""
        awaiting = self.game.awaiting
        await self._computer.wait_to_act()
        if isinstance(awaiting, ThrowDice):
            self.game.throw()
            self._after_turn(await self.game.next_turn(), announce_pass=False)
            return
        assert isinstance(awaiting, ChoosePlay)
        await self._computer_play()
        self._next()


class NetEndScreen(EndScreen):
    """The end of a networked match: "Play again" asks for a rematch in the same room and
    the screen stays, saying where the rematch stands, until its board replaces it."""

    def __init__(self, summary: GameSummary, game: NetworkGame) -> None:
        super().__init__(summary)
        self.game = game

    def on_mount(self) -> None:
        if closing(self):
            return
        self.query_one("#dialog").mount(Label("", id="rematch", markup=False), before="#buttons")
        self.game.change_listeners.append(self._show_rematch)
        self._show_rematch()

    def on_unmount(self) -> None:
        if self._show_rematch in self.game.change_listeners:  # not when closed mid-mount
            self.game.change_listeners.remove(self._show_rematch)

    def action_choose(self, choice: str) -> None:
        if choice != "again":
            super().action_choose(choice)
            return
        try:
            self.game.ask_rematch()
        except NotYourTurnError as refusal:
            reason = str(refusal)
            self.notify(reason[:1].upper() + reason[1:], title="No rematch", severity="warning")
        self._show_rematch()

    def _show_rematch(self) -> None:
        self.query_one("#rematch", Label).update(self.game.rematch_note or "")


def screen_for(game: NetworkGame, *, animation: bool) -> NetScreen:
    if game.setup.game == "goose":
        return NetGooseScreen(game, animation=animation)
    return NetJacquetScreen(game, animation=animation)
