"""A replay's own parts of the game screen: the story beside the board, and the position
line with the keys that step through the log.

:class:`ReplayBar` takes the keys (it holds the focus: the board is read-only in a replay)
and moves the :class:`~client.game.driver.ReplayControl`; the frame it asks for comes back
to the screen as a turn, like any other. :class:`StoryList` tells the match in words up to
the frame on the board, highlighted; a click on a line jumps back there.
"""

from __future__ import annotations

from typing import ClassVar, Final

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.timer import Timer
from textual.widgets import OptionList, Static

from client.game.driver import ReplayControl
from client.i18n import N_, _, decimal_symbol
from client.lifecycle import closing

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
"""Autoplay speeds, in steps per second."""

# Translated when the module is imported: the app's modules load after the language is
# chosen (client/cli.py imports them only to run a command).
_STEP = Binding.Group(N_("Step"), compact=True)
_ENDS = Binding.Group(N_("Ends"), compact=True)
_SPEED = Binding.Group(N_("Speed"), compact=True)


STORY_WINDOW: Final = 120
"""Frames the story list holds at most, up to the one on the board. The list word-wraps
every line it holds on the UI thread (at mount, on each resize), and a log may hold as many
signed chat lines as their senders cared to sign: the work is bounded by this, not by the
log's length."""

STORY_CHARS: Final = 200
"""Characters of one frame's story the list shows (the rest behind an ellipsis)."""


class StoryList(OptionList):
    """The frames of the replay in words up to the one on the board, which is highlighted
    (at most :data:`STORY_WINDOW` of them); the list moves along as the replay does."""

    def __init__(self, replay: ReplayControl, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self.replay = replay
        self.first = 0  # the frame the list's first line tells
        self.can_focus = False  # the replay's keys drive it, the list follows

    def on_mount(self) -> None:
        if not closing(self):
            self.follow()

    def follow(self) -> None:
        """Tell the match up to the frame on the board, that one last and highlighted: a
        step forward adds its line, a step back takes the lines after it away (the list
        tells nothing the board has not reached)."""
        index = self.replay.index
        end = self.first + self.option_count  # the frames the list tells: first … end - 1
        if not self.first <= index < self.first + STORY_WINDOW:
            # Out of the window: it starts again, half of it told before the board's frame
            # (room to step on before it moves again).
            self.first = max(0, index + 1 - STORY_WINDOW // 2)
            end = self.first
            self.clear_options()
        if end > index + 1:
            for at in range(end - self.first - 1, index - self.first, -1):
                self.remove_option_at_index(at)
        elif end < index + 1:
            stories = self.replay.stories[end : index + 1]
            self.add_options(_shortened(story) for story in stories)
        self.highlighted = index - self.first

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.replay.jump(self.first + event.option_index)


def _shortened(story: str) -> str:
    """*story* as the list shows it: at most :data:`STORY_CHARS` characters.

    >>> _shortened("x" * 300)[-3:], len(_shortened("x" * 300))
    ('xx…', 200)
    """
    return story if len(story) <= STORY_CHARS else story[: STORY_CHARS - 1] + "…"


class ReplayBar(Static, can_focus=True):
    """Where the replay stands (step, throw, autoplay), and the keys that move it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "step(-1)", N_("back"), key_display="←", group=_STEP),
        Binding("right,l", "step(1)", N_("forward"), key_display="→", group=_STEP),
        Binding("home,g", "jump_to(0)", N_("start"), key_display="⇱", group=_ENDS),
        Binding("end,G", "jump_to(-1)", N_("end"), key_display="⇲", group=_ENDS),
        Binding("0", "type_digit('0')", N_("Throw N"), key_display="0-9",
                tooltip=N_("Type a throw's number, then enter to jump there")),
        *(Binding(digit, f"type_digit('{digit}')", show=False) for digit in "123456789"),
        Binding("enter", "go_to_throw", N_("Go"), tooltip=N_("Jump to the throw typed")),
        Binding("backspace", "erase_digit", N_("Erase"),
                tooltip=N_("Take back the last digit typed")),
        Binding("space,p", "toggle_autoplay", N_("Play"), key_display="␣",
                tooltip=N_("Play the replay on its own, or pause it")),
        Binding("minus", "speed(-1)", N_("slower"), key_display="-", group=_SPEED),
        Binding("plus,equals_sign", "speed(1)", N_("faster"), key_display="+", group=_SPEED),
        Binding("q,escape", "close", N_("Close"),
                tooltip=N_("Close the replay (esc: forget a number)")),
    ]  # fmt: skip

    FOOTER_SPARE: ClassVar[frozenset[str]] = frozenset(
        {"type_digit('0')", "speed(-1)", "speed(1)"}
    )
    """The keys the footer leaves out first at 80 columns (client/widgets/footer.py SPARE):
    a throw's number and the speed, beside stepping, playing and the coach's b and n."""

    class Closed(Message):
        """The person closed the replay (the screen leaves it)."""

    def __init__(self, replay: ReplayControl, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self.replay = replay
        self.speed = SPEEDS.index(1.0)
        self.typed = ""
        self._autoplay: Timer | None = None

    def on_mount(self) -> None:
        if not closing(self):
            self.show_position()

    @property
    def playing(self) -> bool:
        return self._autoplay is not None

    def show_position(self) -> None:
        """Say where the replay stands (the screen calls it after each frame it shows)."""
        replay = self.replay
        if replay.index >= replay.last_index and self.playing:
            self._stop()  # autoplay reached the end
        speed = SPEEDS[self.speed]
        rate = f"{speed:g}".replace(".", decimal_symbol())
        playing = _("paused")
        if self.playing:  # a rate, not a count: "1 step/s", "0.5 steps/s"
            playing = (_("playing at {rate} step/s") if speed == 1 else
                       _("playing at {rate} steps/s")).format(rate=rate)  # fmt: skip
        position = _("Step {index}/{last} · throw {throw}/{throws} · {playing}").format(
            index=replay.index, last=replay.last_index, throw=replay.throws_made,
            throws=replay.throws, playing=playing)  # fmt: skip
        if self.typed:
            position += _(" · go to throw {number}▏ (enter)").format(number=self.typed)
        self.update(position)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("go_to_throw", "erase_digit"):
            return bool(self.typed)  # hidden until a number is being typed
        return True

    def action_step(self, delta: int) -> None:
        self.replay.step(delta)

    def action_jump_to(self, index: int) -> None:
        self.replay.jump(index if index >= 0 else self.replay.last_index)

    def action_type_digit(self, digit: str) -> None:
        self._set_typed((self.typed + digit)[-4:])

    def action_erase_digit(self) -> None:
        self._set_typed(self.typed[:-1])

    def action_go_to_throw(self) -> None:
        typed = self.typed
        self._set_typed("")
        try:
            self.replay.jump(self.replay.frame_of_throw(int(typed)))
        except ValueError as error:
            self.notify(str(error), severity="error")

    def action_toggle_autoplay(self) -> None:
        if self.playing:
            self._stop()
        else:
            if self.replay.index >= self.replay.last_index:
                self.replay.jump(0)
            self._start()
        self.show_position()

    def action_speed(self, delta: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + delta))
        if self.playing:
            self._stop()
            self._start()
        self.show_position()

    def action_close(self) -> None:
        if self.typed:
            self._set_typed("")
            return
        self.post_message(self.Closed())

    def _set_typed(self, typed: str) -> None:
        shown_before = bool(self.typed)
        self.typed = typed
        if bool(typed) != shown_before:
            self.refresh_bindings()  # "enter Go" shows only while a number is typed
        self.show_position()

    def _start(self) -> None:
        self._autoplay = self.set_interval(1 / SPEEDS[self.speed], lambda: self.replay.step(1))

    def _stop(self) -> None:
        if self._autoplay is not None:
            self._autoplay.stop()
            self._autoplay = None
