"""The Jeu de l'oie screen: the board, the ledger, the story so far, and the throw key.

One screen for every way a game is played (:mod:`client.screens.game`): hot-seat and against
the computer, over the network, or replayed from a log. Each turn is played back event by
event: tokens walk their path square by square, geese repeat, the bounce at 63, hazards and
meetings move tokens, and each event is told in the side log.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from client import help_topics
from client.game.driver import GameDriver, catching_up_refusal
from client.game.story import tell
from client.game.turn import GameState, Turn
from client.i18n import N_, _, ngettext, say
from client.lifecycle import closing
from client.screens.end import GameSummary
from client.screens.game import GameScreen, as_sentence
from client.setup import SessionSettings
from client.widgets.dice import DiceDisplay
from client.widgets.footer import KeysFooter
from client.widgets.goose_board import GooseBoard
from client.widgets.ledger import GooseLedger
from client.widgets.narrative import NarrativeLog
from client.widgets.replay_bar import ReplayBar, StoryList
from client.widgets.title_bar import TitleBar
from client.widgets.tokens import seat_tokens
from engine import goose
from engine.awaiting import ThrowDice
from protocol.narrate import narrate

STEP_SECONDS = 0.12  # one square of a count
PAUSE_SECONDS = 0.6  # after a goose, a hazard, a meeting: time to read what happened
FAST_FACTOR = 4

Frame = tuple[tuple[int, ...], frozenset[int], float]


class GooseScreen(GameScreen):
    """One Jeu de l'oie game; see the module docstring."""

    CSS_PATH = ["goose.tcss", "game.tcss"]  # noqa: RUF012 - Textual's own type
    RULES = help_topics.GOOSE
    FULL_RULES = help_topics.GOOSE_FULL
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "throw", N_("Throw"), tooltip=N_("Throw the dice (the player to move)")),
        Binding(
            "s", "skip", N_("Skip animation"), tooltip=N_("Show the current throw's end at once")
        ),
        Binding("f", "toggle_fast", N_("Fast"), tooltip=N_("Animate throws four times faster")),
    ]

    def __init__(self, game: GameDriver, settings: SessionSettings) -> None:
        super().__init__(game, settings)
        names = game.names
        self.tokens = seat_tokens(names)
        self.name_styles = {name: t.style for name, t in zip(names, self.tokens, strict=True)}
        self._skipped = asyncio.Event()  # set by s: the throw being shown ends at once
        self._fast = False

    def on_mount(self) -> None:  # before GameScreen's (Textual calls each class's handler)
        if closing(self):
            return
        self.sub_title = self._rules_line()

    @property
    def state(self) -> goose.GooseState:
        state = self.game.state
        assert isinstance(state, goose.GooseState)
        return state

    def compose(self) -> ComposeResult:
        names = self.game.names
        yield TitleBar()
        with Horizontal(id="table"):
            yield GooseBoard(self.tokens, id="board")
            with Vertical(id="side"):
                yield GooseLedger(names, self.tokens, id="ledger")
                if self.extras.replay is None:
                    yield NarrativeLog(id="narrative")
                yield from self.compose_side_extras()
        with Horizontal(id="status-bar"):
            yield Static("", id="prompt", markup=False)
            yield Static("", id="pot", markup=False)
            yield DiceDisplay(id="dice")
        yield from self.compose_bottom_extras()
        yield KeysFooter(compact=self.extras.replay is not None, usable_only=True)

    def _rules_line(self) -> str:
        options = self.state.options
        rules = _("Daumont rules") if options.rules == "daumont" else _("1792 rules")
        return _("Jeu de l'oie · {rules} · ante {ante} · fee {fee}").format(
            rules=rules, ante=options.ante, fee=options.fee
        )

    # -- what is drawn --------------------------------------------------------------------

    def show_state(self, state: GameState) -> None:
        assert isinstance(state, goose.GooseState)
        self.query_one(GooseBoard).show(state.squares)
        self._show_ledger(state)
        if self.extras.replay is None:  # a game's first picture (a replay tells its own)
            self.tell(
                _(
                    "{players} players put {ante} each in the pot. "
                    "Everybody throws once to decide who starts."
                ).format(players=len(self.game.names), ante=state.options.ante)
            )

    def tell(self, sentence: str) -> None:
        for log in self.query(NarrativeLog):
            log.tell(sentence, self.name_styles)

    def say(self, text: str, *, refusal: bool = False) -> None:
        self.query_one("#prompt", Static).update(text)

    def prompt(self) -> None:
        game = self.game
        awaiting = game.awaiting
        if self.extras.replay is not None:
            self.say("")
            return
        if self.say_held_back():
            return
        if not isinstance(awaiting, ThrowDice):
            self.say(_("The game is over."))
            return
        name = game.names[awaiting.seat]
        lots = self.state.phase == "lots"
        waiting = self.waiting_sentence(awaiting)
        if waiting is not None:
            self.say(waiting)
        elif game.seat_role(awaiting.seat) == "computer":
            self.say(
                _("{name} (computer) throws for the lots…").format(name=name)
                if lots
                else _("{name} (computer) throws…").format(name=name)
            )
        elif lots:
            self.say(_("{name}'s turn: press space to throw for the lots.").format(name=name))
        else:
            self.say(_("{name}'s turn: press space to throw.").format(name=name))

    async def show_turn(self, turn: Turn) -> None:
        """Walk the tokens through *turn*'s events, then tell it and draw where it ended."""
        if self.extras.replay is not None:
            self._show_frame(turn)
            return
        if self.animation and not self.catching_up():
            await self._play_back(turn)
            if closing(self):  # left, or the app quit, while the tokens walked
                return
        for sentence in tell("goose", turn.events, self.game.names):
            self.tell(sentence)
        thrown = [e.dice for e in turn.events if isinstance(e, goose.Thrown | goose.LotThrown)]
        if thrown:
            self.query_one(DiceDisplay).show(thrown[-1])
        after = turn.after
        assert isinstance(after, goose.GooseState)
        self.query_one(GooseBoard).show(after.squares)
        self._show_ledger(after)

    def _show_frame(self, turn: Turn) -> None:
        """A replay's step: the state it reaches, the squares its tokens landed on."""
        after = turn.after
        assert isinstance(after, goose.GooseState)
        landed = frozenset(event.end for event in turn.events if isinstance(event, goose.Moved))
        self.query_one(GooseBoard).show(after.squares, landed)
        self._show_ledger(after)
        thrown = [event.dice for event in turn.events if isinstance(event, goose.Thrown)]
        self.query_one(DiceDisplay).show(thrown[-1] if thrown else ())
        for story in self.query(StoryList):
            story.follow()
        for bar in self.query(ReplayBar):
            bar.show_position()

    async def _play_back(self, turn: Turn) -> None:
        before = turn.before
        assert isinstance(before, goose.GooseState)
        squares = list(before.squares)
        self._skipped.clear()
        for event in turn.events:
            if closing(self):  # left, or the app quit, mid-walk: its widgets may be gone
                return
            if isinstance(event, goose.Thrown | goose.LotThrown):
                self.query_one(DiceDisplay).show(event.dice)
            clause = narrate(event, self.game.names)
            seat = getattr(event, "seat", None)
            if clause and not self._skipped.is_set() and isinstance(seat, int):
                mover, said = self.game.names[seat], say(clause)
                named = dict(clause.fields).get("who") == mover
                self.say(said if named else _("{name}: {clause}").format(name=mover, clause=said))
            for squares_now, highlight, seconds in self._frames(event, squares):
                if closing(self):
                    return
                if self._skipped.is_set():
                    break
                self.query_one(GooseBoard).show(squares_now, highlight)
                self._show_ledger(before, squares_now)  # the mover keeps his ▶ till the end
                await self._hold(seconds / FAST_FACTOR if self._fast else seconds)

    async def _hold(self, seconds: float) -> None:
        """Leave the frame on screen for *seconds*, or until ``s`` skips the rest."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await self._skipped.wait()

    @staticmethod
    def _frames(event: object, squares: list[int]) -> list[Frame]:
        """The pictures one event is shown as; *squares* is updated to after the event."""
        frames: list[Frame] = []
        match event:
            case goose.Moved(seat=seat, path=path):
                for index, square in enumerate(path):
                    squares[seat] = square
                    frames.append((tuple(squares), frozenset(path[: index + 1]), STEP_SECONDS))
            case goose.OpeningNine(seat=seat, end=end):
                squares[seat] = end
                frames.append((tuple(squares), frozenset({end}), PAUSE_SECONDS))
            case (
                goose.Bridge(seat=seat, to_square=to)
                | goose.Labyrinth(seat=seat, to_square=to)
                | goose.Death(seat=seat, to_square=to)
            ):
                frames.append((tuple(squares), frozenset({squares[seat]}), PAUSE_SECONDS))
                squares[seat] = to
                frames.append((tuple(squares), frozenset({to}), PAUSE_SECONDS))
            case goose.Released(seat=seat, to_square=to) | goose.Met(met_seat=seat, sent_to=to):
                squares[seat] = to
                frames.append((tuple(squares), frozenset({to}), PAUSE_SECONDS))
            case (
                goose.GooseRepeat() | goose.Bounced() | goose.Inn() | goose.Well() | goose.Prison()
            ):
                frames.append((tuple(squares), frozenset(), PAUSE_SECONDS))
        return frames

    def _show_ledger(self, state: goose.GooseState, squares: tuple[int, ...] | None = None) -> None:
        self.query_one(GooseLedger).show(state, squares)
        self.query_one("#pot", Static).update(_("Pot {pot}").format(pot=state.pot))

    # -- keys -----------------------------------------------------------------------------

    def action_throw(self) -> None:
        refusal = self.throw_refusal()
        if refusal:
            self.refuse(refusal)
            return
        self.start(self.game.throw)

    def throw_refusal(self) -> str | None:
        """Why the throw key does nothing now, in words; ``None`` when it may throw."""
        game = self.game
        awaiting = game.awaiting
        if self.held_back() is not None:
            return as_sentence(catching_up_refusal())
        if not isinstance(awaiting, ThrowDice):
            return _("The game is over.")
        role, name = game.seat_role(awaiting.seat), game.names[awaiting.seat]
        if role == "computer":
            return _("It is {name}'s turn: the computer throws.").format(name=name)
        if role == "elsewhere":
            if not self.persons_here():
                return _("You are watching: only the players throw.")
            return _("It is {name}'s turn: they throw from their terminal.").format(name=name)
        if self.busy:
            return _("Wait until the throw being shown is over (s skips it).")
        if self.acting:
            return _("Your dice are on their way: waiting for the other players' shares.")
        return None

    def action_skip(self) -> None:
        if self.busy:
            self._skipped.set()

    def action_toggle_fast(self) -> None:
        self._fast = not self._fast
        self.notify(_("Fast animation") if self._fast else _("Normal animation speed"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Animation keys only exist when throws are animated (skip, while a throw is being
        shown); the throw key only where a person throws from this terminal, and acts only
        when that person may throw now (pressed otherwise, it says why)."""
        if action == "skip":
            return (self.busy or None) if self.animation else False
        if action == "toggle_fast":
            return self.animation
        if action == "throw":
            if not self.persons_here():
                return False
            return self.throw_refusal() is None or None
        return super().check_action(action, parameters)

    def not_now(self, action: str) -> str | None:
        if action == "throw":
            return self.throw_refusal()
        return super().not_now(action)

    # -- the end --------------------------------------------------------------------------

    def summary(self) -> GameSummary:
        """Who took the pot (or how it was shared), every balance."""
        state = self.state
        names = self.game.names
        if state.result == "win" and state.winner is not None:
            winner = names[state.winner]
            title = _("{name} reaches le jardin de l'oie and wins!").format(name=winner)
            headline = ngettext(
                "{name} takes the pot of {pot} token.", "{name} takes the pot of {pot} tokens.",
                state.pot,
            ).format(name=winner, pot=state.pot)
        else:
            title = _("The game is blocked: nobody can throw again.")
            headline = ngettext(
                "The pot of {pot} token is shared.", "The pot of {pot} tokens is shared.",
                state.pot,
            ).format(pot=state.pot)
        balances = [
            _("{name}: put in {paid}, took {took}, balance {balance}").format(
                name=name, paid=paid, took=out, balance=f"{out - paid:+d}"
            )
            for name, paid, out in zip(names, state.paid, state.payouts, strict=True)
        ]
        return GameSummary(title, (headline, *balances), self.game.log_path)
