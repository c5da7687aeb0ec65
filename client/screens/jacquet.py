"""The Jacquet screen: the board, the side panel, and a turn entered point by point.

One screen for every way a match is played (:mod:`client.screens.game`): hot-seat, against
the computer, over the network, replayed from a log. A person's turn: throw (``r``), pick a
checker (arrows or hjkl then space/enter, or a click), pick one of the highlighted
destinations, repeat; ``u`` takes a move back and enter confirms the play once it is
complete; or ``m`` (or a digit) opens a line to type the play in the logs' notation
(``1/7 7/12``), entered through the same checks. What may be entered is decided by
:class:`~client.screens.jacquet_turn.TurnEntry` from the engine's legal plays, and every
refusal says why. Another player's play (the
computer's, a peer's) is shown one move at a time.

Hot-seat, the board turns to face whoever is to move; otherwise it stays with the seat played
from here at the bottom (``f`` turns it for a spectator or a replay).
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical
from textual.widgets import Static

from client import help_topics
from client.game.driver import GameDriver
from client.game.story import tell
from client.game.turn import GameState, Turn
from client.i18n import N_, _, say
from client.lifecycle import closing
from client.screens.confirm import ConfirmScreen
from client.screens.end import GameSummary
from client.screens.game import GameScreen
from client.screens.jacquet_turn import TurnEntry, describe_steps
from client.screens.jacquet_view import (
    board_view,
    game_summary,
    seen_points,
    status_view,
    to_viewer,
)
from client.setup import JacquetSetup, SessionSettings
from client.widgets.coach import HELP_AGREED, NO_HELP, CoachPanel, warning
from client.widgets.footer import KeysFooter
from client.widgets.jacquet_board import OFF, BoardMarks, JacquetBoard
from client.widgets.jacquet_status import JacquetStatus, JacquetStatusView
from client.widgets.narrative import NarrativeLog
from client.widgets.play_input import PlayInput
from client.widgets.replay_bar import ReplayBar, StoryList
from client.widgets.title_bar import TitleBar
from engine.awaiting import ChoosePlay, Finished, ThrowDice
from engine.errors import NotationError
from engine.jacquet import (
    GameWon,
    JacquetState,
    Moved,
    Passed,
    Play,
    Position,
    PostillonBlocked,
    apply_play,
    parse_play,
)
from engine.jacquet.notation import parse_spans

PASS_NOTICE_SECONDS = 2.5
MOVE_SHOW_SECONDS = 0.5
_ENTRY_KEYS = ("throw", "confirm", "undo", "type_play")
_FOOTER_STATES = (*_ENTRY_KEYS, "put_back")  # keys shown or hidden as the entry goes
_COACH_KEYS = ("best", "next_mistake", "hint")


def shown_dice(turn: Turn) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """The dice the side panel shows after *turn*, and which are spent: a throw waiting to be
    played, a pass's dice, or the dice a play just used."""
    after, before = turn.after, turn.before
    assert isinstance(after, JacquetState) and isinstance(before, JacquetState)
    if after.phase == "opening":
        return (), ()
    if after.dice is not None:
        dice = (after.dice[0],) * 4 if after.dice[0] == after.dice[1] else after.dice
        return dice, tuple(False for _ in dice)
    passed = [event.dice for event in turn.events if isinstance(event, Passed)]
    played = before.dice if any(isinstance(event, Moved) for event in turn.events) else None
    spent: tuple[int, ...] = passed[-1] if passed else (played or ())
    return spent, tuple(True for _ in spent)


def _played_out(entry: TurnEntry) -> bool:
    """Every move of the play is entered: what is left is to confirm it (or undo)."""
    return bool(entry.steps) and entry.complete and not entry.next_steps()


class JacquetScreen(GameScreen):
    """One Jacquet match; see the module docstring for how a turn is entered."""

    CSS_PATH = ["jacquet.tcss", "game.tcss"]  # noqa: RUF012 - Textual's own type
    RULES = help_topics.JACQUET
    FULL_RULES = help_topics.JACQUET_FULL
    ENTRY_HELP = help_topics.JACQUET_ENTRY
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "throw", N_("Throw"), tooltip=N_("Throw the dice for your turn")),
        Binding("enter,space", "confirm", N_("Pick/Confirm"),
                tooltip=N_("Pick the point under the cursor; confirm a complete play")),
        Binding("u,backspace", "undo", N_("Undo"),
                tooltip=N_("Take back the last move of this turn")),
        Binding("m", "type_play", N_("Type"),
                tooltip=N_("Type the play instead, as the logs write it: 1/7 7/12, 21/off")),
        *(Binding(digit, f"type_play('{digit}')", show=False) for digit in "123456789"),
        Binding("f", "flip", N_("Flip"), tooltip=N_("See the board from the other side")),
        Binding("b", "best", N_("Best"), tooltip=N_("Show the best play on the board (a replay)")),
        Binding("n", "next_mistake", N_("Mistake"), tooltip=N_("Jump to the next marked play")),
        # Not in the footer (full at 80 columns, in French first): F1's key list and the
        # palette offer it.
        Binding("H", "hint", N_("Hints"), show=False,
                tooltip=N_("The computer's three best plays, with their equities (local play)")),
    ]  # fmt: skip

    def __init__(self, game: GameDriver, settings: SessionSettings) -> None:
        super().__init__(game, settings)
        persons = self.persons_here()
        self._hot_seat = len(persons) == 2
        self._viewer = persons[0] if persons else (game.home_seat or 0)
        self._entry: TurnEntry | None = None
        self._selected: int | None = None
        # How the last game ended, told (its value: simple to quadruple): the end screen's too.
        self._last_game: str | None = None
        self._recent: frozenset[int] = frozenset()
        self._dice: tuple[tuple[int, ...], tuple[bool, ...]] = ((), ())
        self._pass_seen: asyncio.Event | None = None  # a person's pass, until acknowledged
        self._enabled_keys: tuple[bool | None, ...] = ()
        self._notice = ""  # what the person to throw next should know (the computer passed)

    @property
    def state(self) -> JacquetState:
        state = self.game.state
        assert isinstance(state, JacquetState)
        return state

    @property
    def board(self) -> JacquetBoard:
        return self.query_one(JacquetBoard)

    # -- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        replay = self.extras.replay is not None
        yield TitleBar()
        with Horizontal(id="jacquet-main"):
            with Container(id="jacquet-table"):
                board = JacquetBoard(board_view(self.state.position, self._viewer), id="board")
                board.can_focus = bool(self.persons_here())  # else the keys are the screen's
                if not board.can_focus:  # a spectator, a replay: no cursor that goes nowhere
                    board.show(marks=BoardMarks())
                yield board
            with Vertical(id="jacquet-side"):
                yield JacquetStatus(self._status(), id="status")
                yield Static(id="jacquet-message", markup=False)
                yield CoachPanel(self.extras.replay, self.settings.tutor, id="coach")
                if self.persons_here():
                    yield PlayInput(id="play-input")
                if not replay:
                    yield NarrativeLog(id="narrative")
                yield from self.compose_side_extras()
        yield from self.compose_bottom_extras()
        yield KeysFooter(compact=True, usable_only=True)

    def on_mount(self) -> None:  # before GameScreen's (Textual calls each class's handler)
        if closing(self):
            return
        options = self.state.options
        length = (
            _("one game")
            if options.match_to == 1
            else _("match to {points}").format(points=options.match_to)
        )
        bearoff = _("trictrac bear-off") if options.bearoff == "trictrac" else _(
            "backgammon bear-off"
        )
        self.sub_title = _("Jacquet · {length} · {bearoff}").format(length=length, bearoff=bearoff)
        if self.board.can_focus:
            self.board.focus()
        coach = self.coach
        coach.display = self.extras.link is not None or self.extras.replay is not None
        if self.extras.link is not None:
            coach.update(_(HELP_AGREED) if self._agreed() else _(NO_HELP))
        elif self.extras.replay is not None:
            coach.show_frame()
            coach.analyse_replay()

    @property
    def coach(self) -> CoachPanel:
        return self.query_one(CoachPanel)

    def _agreed(self) -> bool:
        """A networked match whose signed proposal allows hints and the tutor."""
        setup = self.game.setup
        return isinstance(setup, JacquetSetup) and setup.coach

    def _helped(self) -> bool:
        """Hints and the tutor: for a person playing here, in a game played on this terminal,
        or over the network when every player signed a setup allowing them."""
        here = self.extras.link is None or self._agreed()
        return here and self.extras.replay is None and bool(self.persons_here())

    def _status(self, position: Position | None = None) -> JacquetStatusView:
        entry = self._entry
        dice, spent = (entry.all_dice, entry.spent) if entry else self._dice
        shown = position or (entry.current if entry else self.state.position)
        return status_view(self.state, self.game.names, shown, dice, spent, self.game.ended)

    def say(self, text: str, *, refusal: bool = False) -> None:
        message = self.query_one("#jacquet-message", Static)
        message.update(text)
        if message.has_class("refusal") != refusal:
            message.set_class(refusal, "refusal")

    def tell(self, sentence: str) -> None:
        for log in self.query(NarrativeLog):
            log.tell(sentence)

    def _redraw(self, position: Position | None = None) -> None:
        """Redraw board and panel from the current state and entry (nothing remounted)."""
        if closing(self):  # an animation's next step, after the screen began to go
            return
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
        enabled = tuple(self.check_action(name, ()) for name in _FOOTER_STATES)
        if enabled != self._enabled_keys:  # the footer rebuilds on every refresh: only then
            self._enabled_keys = enabled
            self.refresh_bindings()

    # -- what is drawn --------------------------------------------------------------------

    def show_state(self, state: GameState) -> None:
        self._redraw()

    def prompt(self) -> None:
        """Set the screen up for whatever the match waits for now."""
        game = self.game
        awaiting = game.awaiting
        self._entry, self._selected = None, None
        self.coach.forget_hint()
        for field in self.query(PlayInput):  # a new turn: a line typed for the last one goes
            if field.display:
                field.close()
                self.action_focus_board()
        if self.extras.replay is not None:
            self.say("")
        elif self.say_held_back():
            pass  # no entry on a board not known to be current
        elif isinstance(awaiting, Finished):
            self.say(_("The match is over."))
        elif (waiting := self.waiting_sentence(awaiting)) is not None:
            self.say(waiting)
        elif game.seat_role(awaiting.seat) == "computer":
            self.say(_("{name} (computer) is playing…").format(name=game.names[awaiting.seat]))
        else:
            self._prompt_person(awaiting)
        self._redraw()

    def _prompt_person(self, awaiting: ThrowDice | ChoosePlay) -> None:
        seat = awaiting.seat
        if self._hot_seat and self.state.phase == "play":
            self._face(seat)
        if isinstance(awaiting, ChoosePlay):
            self._entry = TurnEntry(self.state.position, awaiting.dice, self.state.options.bearoff)
            sources = sorted(self._entry.sources())
            if sources:
                self.board.show(marks=BoardMarks(cursor=sources[0]))
            self._prompt_entry()
            return
        notice, self._notice = self._notice, ""
        self._dice = ((), ())  # the dice shown are the ones to be thrown now, not the last ones
        if self.state.phase == "opening":
            opening = _("Opening throw: each side throws one die, the higher starts. Press r.")
            self.say(f"{notice}{opening}")
        else:
            yours = _("{name}, your turn: press r to throw.").format(name=self.game.names[seat])
            self.say(f"{notice}{yours}")

    def _face(self, seat: int) -> None:
        """Turn the board to face *seat*, carrying the highlights over to his numbering."""
        if seat != self._viewer:
            self._recent = frozenset(to_viewer(point) for point in self._recent if point != OFF)
            self._viewer = seat
            self.board.show(marks=BoardMarks(cursor=self.board.marks.cursor))

    def _prompt_entry(self) -> None:
        entry = self._entry
        if entry is None:
            return
        name = self.game.names[entry.mover]
        if entry.complete and entry.steps:
            self.say(_("{name}: {play}. Press enter to play it, or u to take a move back.")
                     .format(name=name, play=describe_steps(tuple(entry.steps))))  # fmt: skip
        elif self._typing():
            self._prompt_typed()
        elif self._selected is not None:
            targets = ", ".join(
                "off" if point == OFF else str(point)  # as the notation writes it
                for point in sorted(entry.destinations(self._selected))
            )
            source = self._selected
            self.say(_("{name}: the checker on {point} may go to {targets}. Esc puts it back.")
                     .format(name=name, point=source, targets=targets))  # fmt: skip
        else:
            left = " ".join(str(die) for die in entry.dice_left)
            self.say(_("{name}: pick a checker to move (dice left: {dice}).").format(
                name=name, dice=left
            ))

    async def show_turn(self, turn: Turn) -> None:
        """Play another's moves back one at a time, tell the turn, then draw where it ended;
        a person's own pass waits for enter (or a moment, when animated)."""
        self._entry, self._selected = None, None
        moves = tuple(event.move for event in turn.events if isinstance(event, Moved))
        animate = self.animation and not self.catching_up() and self.extras.replay is None
        if moves and animate and self.game.seat_role(turn.seat) != "person":
            await self._show_moves(turn)
            if closing(self):  # left, or the app quit, while the checkers moved
                return
        self._take(turn)
        passed = [event for event in turn.events if isinstance(event, Passed)]
        if passed and self.game.seat_role(passed[0].seat) == "person" and not self.catching_up():
            await self._announce_pass(passed[0].seat)
            if closing(self):
                return
        for story in self.query(StoryList):
            story.follow()
        for bar in self.query(ReplayBar):
            bar.show_position()
        self.coach.show_frame()

    def _take(self, turn: Turn) -> None:
        """Tell *turn* and remember what to highlight and which dice to show."""
        names = self.game.names
        for sentence in tell("jacquet", turn.events, names):
            self.tell(sentence)
        ended = [e for e in turn.events if isinstance(e, GameWon | PostillonBlocked)]
        if ended:  # the next game's opening prompt starts with how this one ended
            self._last_game = " ".join(tell("jacquet", ended, names))
            self._notice = self._last_game + " "
        moved = [event for event in turn.events if isinstance(event, Moved)]
        if moved:  # the last play stays highlighted until the next (a throw keeps it)
            self._recent = seen_points((e.move for e in moved), moved[0].seat, self._viewer)
        self._dice = shown_dice(turn)
        passed = [event for event in turn.events if isinstance(event, Passed)]
        if passed and self.game.seat_role(passed[0].seat) != "person":
            dice = "-".join(str(die) for die in passed[0].dice)  # a person's pass has its notice
            self._notice = _("{name} could not play {dice}.").format(
                name=names[passed[0].seat], dice=dice
            ) + " "
        self._redraw()

    async def _show_moves(self, turn: Turn) -> None:
        """Show a play one move at a time, each highlighted, from where it started."""
        before = turn.before
        assert isinstance(before, JacquetState)
        position = before.position
        mover = position.turn
        play = tuple(event.move for event in turn.events if isinstance(event, Moved))
        for index, move in enumerate(play, start=1):
            shown = Position(mover, apply_play(position, play[:index]).boards)
            self._recent = seen_points((move,), mover, self._viewer)
            self._redraw(shown)
            await asyncio.sleep(MOVE_SHOW_SECONDS)

    async def _announce_pass(self, seat: int) -> None:
        dice = "-".join(str(die) for die in self._dice[0])
        self.say(_("{name} cannot play {dice}: the turn passes. Press enter.").format(
            name=self.game.names[seat], dice=dice
        ), refusal=True)  # fmt: skip
        self._pass_seen = asyncio.Event()
        self._redraw()
        if self.animation:
            self.set_timer(PASS_NOTICE_SECONDS, self._pass_seen.set)
        try:
            await self._pass_seen.wait()
        finally:
            self._pass_seen = None
        self._dice = ((), ())

    # -- a person's actions ---------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """As every game screen's (:meth:`GameScreen.check_action`): True acts now, None is
        a key of this match that does nothing at the moment, False no key of it here."""
        if action == "flip":
            return not self.persons_here()  # a spectator or a replay: no seat to face
        if action in _COACH_KEYS:
            if action == "hint":
                return self._helped() and (self._entry is not None or None)
            if self.extras.replay is None:
                return False
            return bool(self.coach.marks) or None
        if action == "put_back":
            return self._selected is not None  # else esc and backspace are Lobby and Undo
        if action not in _ENTRY_KEYS:
            return super().check_action(action, parameters)
        if not self.persons_here():
            return False  # never usable from this terminal: not in the footer at all
        awaiting = self.game.awaiting
        person_turn = (
            not isinstance(awaiting, Finished) and self.game.seat_role(awaiting.seat) == "person"
        )
        entry = self._entry
        if action == "throw":
            pausing = self._pass_seen is not None
            return (person_turn and isinstance(awaiting, ThrowDice) and not pausing
                    and not self.acting and self.held_back() is None) or None  # fmt: skip
        if action == "confirm":
            return entry is not None or self._pass_seen is not None or None
        if action == "type_play":  # while a play is entered here, and a move may be typed
            return (entry is not None and not _played_out(entry)) or None
        return bool(entry and entry.steps) or None

    def action_throw(self) -> None:
        if self.check_action("throw", ()):
            self.start(self.game.throw)

    def action_confirm(self) -> None:
        if self._pass_seen is not None:
            self._pass_seen.set()
            return
        entry = self._entry
        if entry is None:
            return
        if not entry.complete:
            if self.board.marks.cursor is not None:
                self._choose(self.board.marks.cursor)
            return
        self._submit(entry.play)

    def _submit(self, play: Play) -> None:
        """A complete play: to the tutor first when it is on, else sent."""
        awaiting = self.game.awaiting
        if self.settings.tutor is not None and self._helped() and isinstance(awaiting, ChoosePlay):
            self.coach.ask_tutor(self.state.position, awaiting.dice, play,
                                 self.state.options.bearoff)  # fmt: skip
        else:
            self._send(play)

    def _send(self, play: Play) -> None:
        entry = self._entry
        if entry is None or entry.play != play:
            return  # the entry changed while the tutor thought: it asks again on enter
        if self.start(lambda: self.game.play(play)):
            self._entry, self._selected = None, None

    def action_undo(self) -> None:
        if self._entry and self._entry.undo():
            self._selected = None
            self._prompt_entry()
            self._redraw()

    def action_type_play(self, first: str = "") -> None:
        """Open the line a play is typed into (a digit typed on the board starts it)."""
        if self.check_action("type_play", ()):
            self.query_one(PlayInput).open(first)
            self._prompt_typed()

    def on_input_submitted(self, event: PlayInput.Submitted) -> None:
        if not isinstance(event.input, PlayInput):
            return  # the chat's
        event.stop()
        self._enter_typed(event.input, event.value)

    def on_play_input_closed(self) -> None:
        self.action_focus_board()
        self._prompt_entry()

    def on_input_changed(self, event: PlayInput.Changed) -> None:
        if isinstance(event.input, PlayInput) and event.input.display:
            event.stop()
            self._prompt_typed()

    def _typing(self) -> bool:
        """The typed line is open (a play is being typed)."""
        return any(field.display for field in self.query(PlayInput))

    def _prompt_typed(self) -> None:
        """While a play is typed, say what the line holds: a whole play is played by enter;
        else what is left to type."""
        entry = self._entry
        if entry is None:
            return
        name, text = self.game.names[entry.mover], self.query_one(PlayInput).value
        try:
            whole = entry.completes(parse_spans(text)) if text.strip() else False
        except NotationError:
            whole = False  # still being typed (said if it is entered so)
        if whole:
            self.say(_("{name}: {play} completes the play: press enter to play it.").format(
                name=name, play=" ".join(text.split())))  # fmt: skip
        else:
            left = " ".join(str(die) for die in entry.dice_left)
            self.say(_("{name}: type the moves for {dice}, then press enter (esc: back to "
                       "the board).").format(name=name, dice=left))  # fmt: skip

    def _enter_typed(self, field: PlayInput, text: str) -> None:
        """Enter a typed play, refused in the board's words (the line kept to correct); a
        complete legal play is played at once: its enter is the confirmation."""
        entry = self._entry
        if entry is None:
            return
        try:
            refusal = entry.enter_typed(parse_spans(text))
        except NotationError as error:
            refusal = say(error.reason)
        if refusal is not None:
            self.say(refusal, refusal=True)
            return
        self._selected = None
        field.close()
        self.action_focus_board()
        if entry.complete:
            self._submit(entry.play)
        else:
            self._prompt_entry()
        self._redraw()

    def action_put_back(self) -> None:
        """Put the picked checker back: the cursor returns to it, to pick another."""
        source = self._selected
        if source is None:
            return
        self._selected = None
        self.board.show(marks=BoardMarks(cursor=source))
        self._prompt_entry()
        self._redraw()

    # -- the coach (client/widgets/coach.py) -----------------------------------------------

    def on_coach_panel_analysed(self) -> None:
        self.refresh_bindings()  # the replay's b and n keys

    def action_best(self) -> None:
        turn = self.coach.best_here()
        if turn is None:
            self.refuse(_("No play here: step to a move to see the best one."))
            return
        best = parse_play(turn.best)
        self._recent = seen_points(best, turn.seat, self._viewer)
        self._redraw(Position(turn.seat, apply_play(turn.position, best).boards))
        self.say(_("Best play: {play} (on the board; a step puts the log back).").format(
            play=turn.best
        ))

    def action_next_mistake(self) -> None:
        if not self.coach.jump_to_next_mistake():
            self.refuse(_("No marked play after this one."))

    def action_hint(self) -> None:
        awaiting = self.game.awaiting
        if self.check_action("hint", ()) and isinstance(awaiting, ChoosePlay):
            self.coach.hint(self.state.position, awaiting.dice, self.state.options.bearoff)

    def on_coach_panel_hinted(self, message: CoachPanel.Hinted) -> None:
        self._recent = seen_points(parse_play(message.best), self.state.position.turn,
                                   self._viewer)  # fmt: skip
        self._redraw()

    def on_coach_panel_approved(self, message: CoachPanel.Approved) -> None:
        self._send(message.play)

    def on_coach_panel_warned(self, message: CoachPanel.Warned) -> None:
        question, detail = warning(message.judgement)

        def answered(play_anyway: bool | None) -> None:
            if play_anyway:
                self._send(message.play)
            else:
                self._rethink(message.play)

        self.app.push_screen(ConfirmScreen(question, detail=detail, confirm_label=_("Play anyway"),
                                           cancel_label=_("Rethink")), answered)  # fmt: skip

    def _rethink(self, play: Play) -> None:
        """The tutor's Rethink: back to the start of the turn, the warned play off the
        board, so that any play — the one the tutor suggests, typed — can be entered."""
        entry = self._entry
        if entry is None or entry.play != play:
            return  # the entry changed while the dialog was up: leave it as it is
        self._entry = TurnEntry(entry.position, entry.dice, entry.bearoff)
        self._selected = None
        self._prompt_entry()
        self._redraw()

    def action_flip(self) -> None:
        if self.check_action("flip", ()):
            self._face(1 - self._viewer)
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
                self.say(entry.refuse_source(point), refusal=True)
        elif point == self._selected:
            self._selected = None
            self._prompt_entry()
        else:
            paths = entry.destinations(self._selected)
            if point in paths:
                entry.enter(paths[point])
                self._selected = None
                self._prompt_entry()
            elif point in entry.sources():
                self._select(point)
            else:
                self.say(entry.refuse_destination(self._selected, point), refusal=True)
        self._redraw()

    def _select(self, point: int) -> None:
        """Pick the checker on *point*; the cursor jumps to its nearest destination."""
        assert self._entry is not None
        self._selected = point
        nearest = min(self._entry.destinations(point))
        self.board.show(marks=BoardMarks(cursor=nearest))
        self._prompt_entry()

    # -- the end --------------------------------------------------------------------------

    def summary(self) -> GameSummary:
        game = self.game
        return game_summary(self.state, game.names, game.ended, game.log_path,
                            last_game=self._last_game)  # fmt: skip
