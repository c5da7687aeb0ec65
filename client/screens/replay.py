"""Replaying a recorded match: the game's own board, driven by a verified log.

Step forward and back, jump to the start, the end or turn N, or let it play on its own at an
adjustable speed. The story of the match runs alongside with the current step highlighted;
a click on a line jumps there. Nothing can be played: the boards are read-only here.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, OptionList, Static

from client import help_topics
from client.lifecycle import closing
from client.screens.jacquet_view import board_view, seen_points, status_view
from client.screens.replay_log import MatchReplay
from client.widgets.dice import DiceDisplay
from client.widgets.goose_board import GooseBoard
from client.widgets.jacquet_board import BoardMarks, JacquetBoard
from client.widgets.jacquet_status import JacquetStatus
from client.widgets.ledger import GooseLedger
from client.widgets.title_bar import TitleBar
from client.widgets.tokens import seat_tokens
from engine import goose
from engine.jacquet import Moved, Rolled

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
"""Autoplay speeds, in steps per second."""

_STEP = Binding.Group("Step", compact=True)
_ENDS = Binding.Group("Ends", compact=True)
_SPEED = Binding.Group("Speed", compact=True)


class ReplayScreen(Screen[None]):
    """Shows one :class:`MatchReplay`, one frame at a time."""

    AUTO_FOCUS = ""  # nothing takes the keys: they all step through the log
    CSS_PATH = ["../jacquet.tcss", "../replay.tcss"]  # noqa: RUF012 - Textual's own type
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "step(-1)", "back", key_display="←", group=_STEP),
        Binding("right,l", "step(1)", "forward", key_display="→", group=_STEP),
        Binding("home,g", "jump_to(0)", "start", key_display="⇱", group=_ENDS),
        Binding("end,G", "jump_to(-1)", "end", key_display="⇲", group=_ENDS),
        Binding("0", "type_digit('0')", "Turn N", key_display="0-9",
                tooltip="Type a turn's number, then enter to jump there"),
        *(Binding(digit, f"type_digit('{digit}')", show=False) for digit in "123456789"),
        Binding("enter", "go_to_turn", "Go", tooltip="Jump to the turn typed"),
        Binding("backspace", "erase_digit", "Erase", tooltip="Take back the last digit typed"),
        Binding("space,p", "toggle_autoplay", "Play", key_display="␣",
                tooltip="Play the replay on its own, or pause it"),
        Binding("minus", "speed(-1)", "slower", key_display="-", group=_SPEED),
        Binding("plus,equals_sign", "speed(1)", "faster", key_display="+", group=_SPEED),
        Binding("f", "flip", "Flip", tooltip="Jacquet: see the board from the other side"),
        Binding("q,escape", "close", "Close", tooltip="Close the replay (esc: forget a number)"),
    ]  # fmt: skip

    def __init__(self, replay: MatchReplay) -> None:
        super().__init__()
        self.replay = replay
        self.index = 0
        self.viewer = 0
        self.speed = SPEEDS.index(1.0)
        self._autoplay: Timer | None = None
        self._typed_turn = ""
        self._typing_shown = False

    @property
    def HELP_TEXT(self) -> str:  # the name the help screen looks up
        return help_topics.JACQUET if self.replay.game == "jacquet" else help_topics.GOOSE

    @property
    def frame_state(self) -> Any:
        return self.replay.frames[self.index].state

    # -- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        first = self.replay.frames[0].state
        names = self.replay.names
        jacquet = self.replay.game == "jacquet"
        yield TitleBar()
        with Horizontal(id="replay-main"):
            with Container(id="replay-table"):
                if jacquet:
                    board = JacquetBoard(board_view(first.position, self.viewer), id="board")
                    board.can_focus = False  # read-only: the keys step through the log
                    yield board
                else:
                    yield GooseBoard(seat_tokens(names), id="board")
            with Vertical(id="replay-side"):
                if jacquet:
                    yield JacquetStatus(status_view(first, names, first.position, (), ()))
                else:
                    yield GooseLedger(names, seat_tokens(names), id="ledger")
                    yield DiceDisplay(id="dice")
                story = OptionList(
                    *(frame.story for frame in self.replay.frames), id="story", markup=False
                )
                story.can_focus = False  # the screen's keys drive the replay, the list follows
                yield story
        yield Static(self.replay.warning or "", id="replay-warning", markup=False)
        yield Static(id="replay-position", markup=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        if closing(self):
            return
        self.sub_title = f"Replay · {' · '.join(self.replay.names)}"
        self.query_one("#replay-warning").display = self.replay.warning is not None
        if self.replay.warning:
            self.notify(self.replay.warning, severity="warning", timeout=8)
        self.show_frame(0)

    # -- showing a frame ------------------------------------------------------------------

    def show_frame(self, index: int) -> None:
        """Show frame *index* (clamped to the log): board, side panel, story and position."""
        self.index = max(0, min(index, len(self.replay.frames) - 1))
        frame = self.replay.frames[self.index]
        if self.replay.game == "jacquet":
            self._show_jacquet(frame.state, frame.events)
        else:
            self._show_goose(frame.state, frame.events)
        story = self.query_one("#story", OptionList)
        story.highlighted = self.index
        last = len(self.replay.frames) - 1
        playing = f"playing at {SPEEDS[self.speed]:g} steps/s" if self._autoplay else "paused"
        position = f"Step {self.index}/{last} · turn {frame.turn}/{self.replay.turns} · {playing}"
        if self._typed_turn:
            position += f" · go to turn {self._typed_turn}▏ (enter)"
        if bool(self._typed_turn) != self._typing_shown:
            self._typing_shown = bool(self._typed_turn)
            self.refresh_bindings()  # "enter Go" shows only while a number is typed
        self.query_one("#replay-position", Static).update(position)

    def _show_jacquet(self, state: Any, events: tuple[Any, ...]) -> None:
        moved = [event for event in events if isinstance(event, Moved)]
        recent = frozenset[int]()
        if moved:
            recent = seen_points((event.move for event in moved), moved[0].seat, self.viewer)
        rolled = [event.dice for event in events if isinstance(event, Rolled)]
        dice: tuple[int, ...] = rolled[-1] if rolled else state.dice or ()
        if not dice and self.index > 0:
            # A play: show the dice it used (thrown in the frame before), all spent.
            dice = self.replay.frames[self.index - 1].state.dice or ()
        board = self.query_one(JacquetBoard)
        board.show(board_view(state.position, self.viewer), BoardMarks(recent=recent))
        spent = tuple(not state.dice for _ in dice)
        view = status_view(state, self.replay.names, state.position, dice, spent)
        self.query_one(JacquetStatus).show(view)

    def _show_goose(self, state: Any, events: tuple[Any, ...]) -> None:
        landed = frozenset(event.end for event in events if isinstance(event, goose.Moved))
        self.query_one(GooseBoard).show(state.squares, landed)
        self.query_one(GooseLedger).show(state)
        thrown = [event.dice for event in events if isinstance(event, goose.Thrown)]
        self.query_one(DiceDisplay).show(thrown[-1] if thrown else ())

    # -- actions --------------------------------------------------------------------------

    def action_step(self, delta: int) -> None:
        self.show_frame(self.index + delta)

    def action_jump_to(self, index: int) -> None:
        self.show_frame(index if index >= 0 else len(self.replay.frames) - 1)

    def action_type_digit(self, digit: str) -> None:
        self._typed_turn = (self._typed_turn + digit)[-4:]
        self.show_frame(self.index)

    def action_erase_digit(self) -> None:
        self._typed_turn = self._typed_turn[:-1]
        self.show_frame(self.index)

    def action_go_to_turn(self) -> None:
        typed, self._typed_turn = self._typed_turn, ""
        try:
            index = self.replay.frame_of_turn(int(typed))
        except ValueError as error:
            self.notify(str(error), severity="error")
            index = self.index
        self.show_frame(index)

    def action_toggle_autoplay(self) -> None:
        if self._autoplay is not None:
            self._autoplay.stop()
            self._autoplay = None
        else:
            if self.index == len(self.replay.frames) - 1:
                self.index = 0
            self._autoplay = self.set_interval(1 / SPEEDS[self.speed], self._autoplay_tick)
        self.show_frame(self.index)

    def _autoplay_tick(self) -> None:
        if self.index >= len(self.replay.frames) - 1:
            self.action_toggle_autoplay()
            return
        self.show_frame(self.index + 1)

    def action_speed(self, delta: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + delta))
        if self._autoplay is not None:
            self._autoplay.stop()
            self._autoplay = self.set_interval(1 / SPEEDS[self.speed], self._autoplay_tick)
        self.show_frame(self.index)

    def action_flip(self) -> None:
        if self.replay.game == "jacquet":
            self.viewer = 1 - self.viewer
            self.show_frame(self.index)

    def action_close(self) -> None:
        if self._typed_turn:
            self._typed_turn = ""
            self.show_frame(self.index)
            return
        self.dismiss()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A click on a line of the story jumps there."""
        self.show_frame(event.option_index)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "flip":
            return self.replay.game == "jacquet"
        if action in ("go_to_turn", "erase_digit"):
            return bool(self._typed_turn)  # hidden until a number is being typed
        return True
