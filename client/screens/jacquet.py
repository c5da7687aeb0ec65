"""The Jacquet screen: the board, the side panel, and a turn entered point by point.

A person's turn: throw (``r``), pick a checker (arrows or hjkl then space/enter, or a
click), pick one of the highlighted destinations, repeat; ``u`` takes a move back and enter
confirms the play once it is complete. What may be entered is decided by
:class:`~client.screens.jacquet_turn.TurnEntry` from the engine's legal plays, and every
refusal says why. Computer seats act in a worker; their moves are shown one at a time.

Hot-seat, the board turns to face whoever is to move; against the computer it stays with
the person's side at the bottom.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical
from textual.widgets import Static

from client import help_topics
from client.computer import ComputerPlayer
from client.lifecycle import closing
from client.local_game import LocalGame, Turn
from client.screens.game import GameScreen
from client.screens.jacquet_turn import TurnEntry, describe_steps
from client.screens.jacquet_view import (
    board_view,
    game_summary,
    narrate,
    seen_points,
    status_view,
    to_viewer,
)
from client.setup import JacquetSetup
from client.widgets.footer import KeysFooter
from client.widgets.jacquet_board import OFF, BoardMarks, JacquetBoard
from client.widgets.jacquet_status import JacquetStatus, JacquetStatusView
from client.widgets.narrative import NarrativeLog
from client.widgets.title_bar import TitleBar
from engine.awaiting import ChoosePlay, Finished, ThrowDice
from engine.jacquet import (
    GameWon,
    JacquetState,
    Moved,
    Passed,
    Play,
    Position,
    PostillonBlocked,
    apply_play,
)

PASS_NOTICE_SECONDS = 2.5
MOVE_SHOW_SECONDS = 0.5


class JacquetScreen(GameScreen):
    """One local Jacquet match; see the module docstring for how a turn is entered."""

    CSS_PATH = "../jacquet.tcss"
    HELP_TEXT: ClassVar[str] = help_topics.JACQUET + help_topics.JACQUET_ENTRY
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "throw", "Throw", tooltip="Throw the dice for your turn"),
        Binding("enter,space", "confirm", "Pick/Confirm",
                tooltip="Pick the point under the cursor; confirm a complete play"),
        Binding("u,backspace", "undo", "Undo", tooltip="Take back the last move of this turn"),
    ]  # fmt: skip

    def __init__(self, game: LocalGame, *, animation: bool) -> None:
        super().__init__(game, animation=animation)
        humans = [seat for seat in (0, 1) if game.is_local_human(seat)]
        self._hot_seat = len(humans) == 2
        self._plays_here = bool(humans)  # a spectator (or computer v computer) enters nothing
        self._viewer = humans[0] if humans else 0
        setup = game.setup
        assert isinstance(setup, JacquetSetup)
        self._computer = ComputerPlayer(
            level=setup.level, pause=game.settings.computer_pause if animation else 0.0
        )
        self._entry: TurnEntry | None = None
        self._selected: int | None = None
        self._recent: frozenset[int] = frozenset()
        self._pass_notice = False
        self._last_dice: tuple[int, ...] = ()
        self._enabled_keys: tuple[bool | None, ...] = ()
        self._notice = ""  # what the person to throw next should know (the computer passed)

    @property
    def state(self) -> JacquetState:
        state: JacquetState = self.game.state
        return state

    # -- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="jacquet-main"):
            with Container(id="jacquet-table"):
                yield JacquetBoard(board_view(self.state.position, self._viewer), id="board")
            with Vertical(id="jacquet-side"):
                yield JacquetStatus(self._status(), id="status")
                yield Static(id="jacquet-message", markup=False)
                yield NarrativeLog(id="narrative")
        yield KeysFooter(compact=True)

    def on_mount(self) -> None:
        if closing(self):
            return
        options = self.state.options
        length = "one game" if options.match_to == 1 else f"match to {options.match_to}"
        self.sub_title = f"Jacquet · {length} · {options.bearoff} bear-off"  # as Goose's says
        self.query_one(JacquetBoard).focus()
        self._next()

    @property
    def board(self) -> JacquetBoard:
        return self.query_one(JacquetBoard)

    def _status(self, position: Position | None = None) -> JacquetStatusView:
        entry = self._entry
        dice: tuple[int, ...] = entry.all_dice if entry else self._last_dice
        spent = entry.spent if entry else tuple(False for _ in dice)
        return status_view(
            self.state,
            self.game.names,
            position or (entry.current if entry else self.state.position),
            dice,
            spent,
        )

    def _say(self, text: str, *, refusal: bool = False) -> None:
        message = self.query_one("#jacquet-message", Static)
        message.update(text)
        if message.has_class("refusal") != refusal:
            message.set_class(refusal, "refusal")

    def _tell(self, sentence: str) -> None:
        self.query_one(NarrativeLog).tell(sentence)

    def _redraw(self, position: Position | None = None) -> None:
        """Redraw board and panel from the current state and entry (nothing remounted)."""
        entry = self._entry
        shown = position or (entry.current if entry else self.state.position)
        targets: frozenset[int] = frozenset()
        if entry and self._selected is not None:
            targets = frozenset(entry.destinations(self._selected))
        marks = BoardMarks(
            cursor=self.board.marks.cursor,
            selected=self._selected,
            targets=targets,
            recent=self._recent,
        )
        self.board.show(board_view(shown, self._viewer), marks)
        self.query_one(JacquetStatus).show(self._status(shown))
        self._refresh_footer()

    def _refresh_footer(self) -> None:
        """Re-check the keys only when one changes: the footer rebuilds on every refresh."""
        enabled = tuple(self.check_action(name, ()) for name in ("throw", "confirm", "undo"))
        if enabled != self._enabled_keys:
            self._enabled_keys = enabled
            self.refresh_bindings()

    # -- the flow of the match ------------------------------------------------------------

    def _next(self) -> None:
        """Set the screen up for whatever the match waits for now."""
        awaiting = self.game.awaiting
        if self.game.finished or isinstance(awaiting, Finished):  # finished, or resigned
            self._redraw()
            self._say("The match is over.")
            game = self.game
            self.show_end(game_summary(self.state, game.names, game.ended, game.log_path))
            return
        assert isinstance(awaiting, ThrowDice | ChoosePlay)
        seat = awaiting.seat
        if self.game.is_computer(seat):
            self._say(f"{self.game.names[seat]} (computer) is playing…")
            self._redraw()
            self._computer_turns()
            return
        if self._hot_seat and self.state.phase == "play":
            self._face(seat)
        name = self.game.names[seat]
        if isinstance(awaiting, ThrowDice):
            notice, self._notice = self._notice, ""
            if self.state.phase == "opening":
                self._say(
                    f"{notice}Opening throw: each side throws one die, the higher starts. Press r."
                )
            else:
                self._say(f"{notice}{name}, your turn: press r to throw.")
            self._redraw()
            return
        self._begin_entry(awaiting.dice)

    def _face(self, seat: int) -> None:
        """Turn the board to face *seat*, carrying the highlights over to his numbering."""
        if seat != self._viewer:
            self._recent = frozenset(to_viewer(point) for point in self._recent if point != OFF)
            self._viewer = seat
            self.board.show(marks=BoardMarks(cursor=self.board.marks.cursor))

    def _begin_entry(self, dice: tuple[int, int]) -> None:
        self._entry = TurnEntry(self.state.position, dice, self.state.options.bearoff)
        self._selected = None
        sources = sorted(self._entry.sources())
        if sources:
            self.board.show(marks=BoardMarks(cursor=sources[0]))
        self._prompt()
        self._redraw()

    def _prompt(self) -> None:
        entry = self._entry
        if entry is None:
            return
        name = self.game.names[entry.mover]
        if entry.complete and entry.steps:
            self._say(
                f"{name}: {describe_steps(tuple(entry.steps))} - enter to confirm, u to undo."
            )
        elif self._selected is not None:
            targets = ", ".join(
                "off" if point == OFF else str(point)
                for point in sorted(entry.destinations(self._selected))
            )
            self._say(
                f"{name}: the checker on {self._selected} may go to {targets}. "
                "Pick it again to put it back."
            )
        else:
            left = " ".join(str(die) for die in entry.dice_left)
            self._say(f"{name}: pick a checker to move (dice left: {left}).")

    def _show_turn(self, turn: Turn) -> None:
        """Narrate a turn's events and remember what to highlight and which dice to show."""
        for sentence in narrate(turn.events, self.game.names):
            self._tell(sentence)
        ended = [event for event in turn.events if isinstance(event, GameWon | PostillonBlocked)]
        if ended:  # the next game's opening prompt starts with how this one ended
            self._notice = " ".join(narrate(ended, self.game.names)) + " "
        moved = [event for event in turn.events if isinstance(event, Moved)]
        if moved:
            mover = moved[0].seat
            self._recent = seen_points((event.move for event in moved), mover, self._viewer)
        passed = [event for event in turn.events if isinstance(event, Passed)]
        if passed:
            self._last_dice = passed[0].dice
            if not self.game.is_local_human(passed[0].seat):  # a person's pass has its notice
                dice = "-".join(str(die) for die in passed[0].dice)
                self._notice = f"{self.game.names[passed[0].seat]} could not play {dice}. "

    # -- a person's actions ---------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("throw", "confirm", "undo") and not self._plays_here:
            return False  # never usable from this terminal: not in the footer at all
        awaiting = self.game.awaiting
        human_turn = not self.game.finished and (
            not isinstance(awaiting, Finished) and self.game.is_local_human(awaiting.seat)
        )
        if action == "throw":
            return (
                human_turn and isinstance(awaiting, ThrowDice) and not self._pass_notice
            ) or None
        if action == "confirm":
            return self._entry is not None or self._pass_notice or None
        if action == "undo":
            return bool(self._entry and self._entry.steps) or None
        return True

    def action_throw(self) -> None:
        awaiting = self.game.awaiting
        if not isinstance(awaiting, ThrowDice) or not self.game.is_local_human(awaiting.seat):
            return
        turn = self.game.throw()
        self._show_turn(turn)
        if any(isinstance(event, Passed) for event in turn.events):
            self._announce_pass(turn.seat)
            return
        self._next()

    def _announce_pass(self, seat: int) -> None:
        self._pass_notice = True
        dice = "-".join(str(die) for die in self._last_dice)
        self._say(
            f"{self.game.names[seat]} cannot play {dice}: the turn passes. Press enter.",
            refusal=True,
        )
        self._redraw()
        if self.animation:
            self.set_timer(PASS_NOTICE_SECONDS, self._end_pass_notice)

    def _end_pass_notice(self) -> None:
        if self._pass_notice:
            self._pass_notice = False
            self._last_dice = ()
            self._next()

    def action_confirm(self) -> None:
        if self._pass_notice:
            self._end_pass_notice()
            return
        entry = self._entry
        if entry is None:
            return
        if not entry.complete:
            if self.board.marks.cursor is not None:
                self._choose(self.board.marks.cursor)
            return
        self._entry = None
        self._selected = None
        turn = self.game.play(entry.play)
        self._show_turn(turn)
        self._next()

    def action_undo(self) -> None:
        if self._entry and self._entry.undo():
            self._selected = None
            self._prompt()
            self._redraw()

    def on_jacquet_board_point_chosen(self, message: JacquetBoard.PointChosen) -> None:
        self._choose(message.point)

    def _choose(self, point: int) -> None:
        """A point was picked: select a checker, drop it, move it, or say why not."""
        entry = self._entry
        if entry is None:
            return
        if self._selected is None:
            if point in entry.sources():
                self._select(point)
            else:
                self._say(entry.refuse_source(point), refusal=True)
        elif point == self._selected:
            self._selected = None
            self._prompt()
        else:
            paths = entry.destinations(self._selected)
            if point in paths:
                entry.enter(paths[point])
                self._selected = None
                self._prompt()
            elif point in entry.sources():
                self._select(point)
            else:
                self._say(entry.refuse_destination(self._selected, point), refusal=True)
        self._redraw()

    def _select(self, point: int) -> None:
        """Pick the checker on *point*; the cursor jumps to its nearest destination."""
        assert self._entry is not None
        self._selected = point
        nearest = min(self._entry.destinations(point))
        self.board.show(marks=BoardMarks(cursor=nearest))
        self._prompt()

    # -- the computer ---------------------------------------------------------------------

    @work(exclusive=True, group="turn")
    async def _computer_turns(self) -> None:
        """Play every consecutive computer action, then hand back to a person (or the end)."""
        while True:
            awaiting = self.game.awaiting
            if self.game.finished or isinstance(awaiting, Finished):
                break
            if not self.game.is_computer(awaiting.seat):
                break
            await self._computer.wait_to_act()
            if isinstance(awaiting, ThrowDice):
                turn = self.game.throw()
                self._last_dice = () if self.state.phase == "opening" else turn.after.dice or ()
                self._show_turn(turn)
                self._redraw()
                continue
            assert isinstance(awaiting, ChoosePlay)
            await self._computer_play()
        self._next()

    async def _computer_play(self) -> None:
        """The computer's play for the awaited seat: chosen, shown move by move, made."""
        play = await self._computer.choose_play(self.state)
        await self._show_moves(play)
        self._last_dice = ()
        self._show_turn(self.game.play(play))
        self._redraw()

    async def _show_moves(self, play: Play) -> None:
        """Show the computer's moves one at a time, each highlighted, before committing."""
        if not self.animation:
            return
        position = self.state.position
        mover = position.turn
        for index, move in enumerate(play, start=1):
            shown = Position(mover, apply_play(position, play[:index]).boards)
            self._recent = seen_points((move,), mover, self._viewer)
            self._redraw(shown)
            await asyncio.sleep(MOVE_SHOW_SECONDS)
