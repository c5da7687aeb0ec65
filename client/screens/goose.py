"""The Jeu de l'oie screen: the board, the ledger, the story so far, and the throw key.

A throw is taken from the game controller as a :class:`~client.local_game.Turn` and played
back event by event: tokens walk their path square by square, geese repeat, the bounce at 63,
hazards and meetings move tokens, and each event is told in the side log. Computer seats
throw by themselves in a worker after a short pause.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from client import help_topics
from client.lifecycle import closing
from client.local_game import LocalGame, Turn
from client.screens.end import GameSummary
from client.screens.game import GameScreen
from client.widgets.dice import DiceDisplay
from client.widgets.footer import KeysFooter
from client.widgets.goose_board import GooseBoard
from client.widgets.ledger import GooseLedger
from client.widgets.narrative import NarrativeLog
from client.widgets.title_bar import TitleBar
from client.widgets.tokens import seat_tokens
from engine import goose
from engine.awaiting import ThrowDice
from protocol.narrate import narrate, narrate_turns

STEP_SECONDS = 0.12  # one square of a count
PAUSE_SECONDS = 0.6  # after a goose, a hazard, a meeting: time to read what happened
FAST_FACTOR = 4


class GooseScreen(GameScreen):
    """One Jeu de l'oie game; see docs/client-architecture.md for how it is built."""

    CSS_PATH = "goose.tcss"
    HELP_TEXT = help_topics.GOOSE
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "throw", "Throw", tooltip="Throw the dice (the player to move)"),
        Binding("s", "skip", "Skip animation", tooltip="Show the current throw's end at once"),
        Binding("f", "toggle_fast", "Fast", tooltip="Animate throws four times faster"),
        *GameScreen.BINDINGS,
    ]

    def __init__(self, game: LocalGame, *, animation: bool) -> None:
        super().__init__(game, animation=animation)
        self.tokens = seat_tokens(game.names)
        self.name_styles = {
            name: token.style for name, token in zip(game.names, self.tokens, strict=True)
        }
        self.busy = False  # a throw is being animated
        self._skip = False
        self._fast = False

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="table"):
            yield GooseBoard(self.tokens, id="board")
            with Vertical(id="side"):
                yield GooseLedger(self.game.names, self.tokens, id="ledger")
                yield NarrativeLog(id="narrative")
        with Horizontal(id="status-bar"):
            yield Static("", id="prompt", markup=False)
            yield Static("", id="pot", markup=False)
            yield DiceDisplay(id="dice")
        yield KeysFooter()

    @property
    def board(self) -> GooseBoard:
        return self.query_one(GooseBoard)

    @property
    def narrative(self) -> NarrativeLog:
        return self.query_one(NarrativeLog)

    def on_mount(self) -> None:
        if closing(self):
            return
        self.sub_title = self._rules_line()
        state = self.game.state
        self.board.show(state.squares)
        self._show_ledger(state)
        self.narrative.tell(
            f"{len(self.game.names)} players put {state.options.ante} each in the pot. "
            "Everybody throws once to decide who starts."
        )
        self._next_turn()

    def _rules_line(self) -> str:
        options = self.game.state.options
        rules = "Daumont rules" if options.rules == "daumont" else "1792 rules"
        return f"Jeu de l'oie · {rules} · ante {options.ante} · fee {options.fee}"

    # Keys

    def action_throw(self) -> None:
        refusal = self.throw_refusal()
        if refusal:
            self.refuse(refusal)
            return
        self._show_turn(self.game.throw())

    def throw_refusal(self) -> str | None:
        """Why the throw key does nothing now, in words; ``None`` when it may throw."""
        awaiting = self.game.awaiting
        if not isinstance(awaiting, ThrowDice):
            return "The game is over."
        if not self.game.is_local_human(awaiting.seat):
            return f"It is {self.game.names[awaiting.seat]}'s turn: the computer throws."
        if self.busy:
            return "Wait until the throw being shown is over (s skips it)."
        return None

    def action_skip(self) -> None:
        if self.busy:
            self._skip = True

    def action_toggle_fast(self) -> None:
        self._fast = not self._fast
        self.notify("Fast animation" if self._fast else "Normal animation speed")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Animation keys only exist when throws are animated (hidden otherwise)."""
        if action in ("skip", "toggle_fast"):
            return self.animation
        if action == "throw":  # a spectator, or computers only: nobody throws from here
            return any(self.game.is_local_human(seat) for seat in range(len(self.game.names)))
        return True

    # Turns

    def _next_turn(self) -> None:
        """After a throw: end the game, let the computer throw, or wait for a person."""
        awaiting = self.game.awaiting
        if not isinstance(awaiting, ThrowDice):
            self._show_prompt("The game is over.")
            self.show_end(self.summary())
            return
        name = self.game.names[awaiting.seat]
        lots = self.game.state.phase == "lots"
        if self.game.is_computer(awaiting.seat):
            self._show_prompt(f"{name} (computer) throws{' for the lots' if lots else ''}…")
            self._computer_turn()
        else:
            what = "throw for the lots" if lots else "throw"
            self._show_prompt(f"{name}'s turn: press space to {what}.")

    @work(exclusive=True, group="computer")
    async def _computer_turn(self) -> None:
        await self._computer_throw()

    async def _computer_throw(self) -> None:
        await asyncio.sleep(self.game.settings.computer_pause)
        self._show_turn(self.game.throw())

    def _show_turn(self, turn: Turn) -> None:
        if not self.animation:
            self._settle(turn)
            return
        self.busy = True
        self._play_back(turn)

    @work(exclusive=True, group="animation")
    async def _play_back(self, turn: Turn) -> None:
        """Walk the tokens through *turn*'s events; the status bar says what each one means."""
        squares = list(turn.before.squares)
        self._skip = False
        for event in turn.events:
            if isinstance(event, goose.Thrown | goose.LotThrown):
                self.query_one(DiceDisplay).show(event.dice)
            clause = narrate(event, self.game.names)
            seat = getattr(event, "seat", None)
            if clause and not self._skip and isinstance(seat, int):
                mover = self.game.names[seat]
                self._show_prompt(clause if clause.startswith(mover) else f"{mover}: {clause}")
            for squares_now, highlight, seconds in self._frames(event, squares):
                if self._skip:
                    break
                self.board.show(squares_now, highlight)
                self._show_ledger(turn.before, squares_now)  # the mover keeps his ▶ till the end
                await asyncio.sleep(seconds / FAST_FACTOR if self._fast else seconds)
        self.busy = False
        self._settle(turn)

    @staticmethod
    def _frames(
        event: object, squares: list[int]
    ) -> list[tuple[tuple[int, ...], frozenset[int], float]]:
        """The pictures one event is shown as; *squares* is updated to after the event."""
        frames: list[tuple[tuple[int, ...], frozenset[int], float]] = []
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

    def _settle(self, turn: Turn) -> None:
        """Tell *turn* in the side log, show the state after it, then move the game on."""
        for sentence in narrate_turns(turn.events, self.game.names):
            self.narrative.tell(sentence, self.name_styles)
        thrown = [
            event.dice for event in turn.events if isinstance(event, goose.Thrown | goose.LotThrown)
        ]
        if thrown:
            self.query_one(DiceDisplay).show(thrown[-1])
        self.board.show(turn.after.squares)
        self._show_ledger(turn.after)
        self._next_turn()

    def _show_ledger(self, state: goose.GooseState, squares: tuple[int, ...] | None = None) -> None:
        self.query_one(GooseLedger).show(state, squares)
        self.query_one("#pot", Static).update(f"Pot {state.pot}")

    def _show_prompt(self, text: str) -> None:
        self.query_one("#prompt", Static).update(text)

    def summary(self) -> GameSummary:
        """The end screen's content: who took the pot (or how it was shared), every balance."""
        state = self.game.state
        names = self.game.names
        if state.result == "win" and state.winner is not None:
            title = f"{names[state.winner]} reaches le jardin de l'oie and wins!"
            headline = f"{names[state.winner]} takes the pot of {state.pot} tokens."
        else:
            title = "The game is blocked: nobody can throw again."
            headline = f"The pot of {state.pot} tokens is shared."
        balances = [
            f"{name}: put in {paid}, took {out}, balance {out - paid:+d}"
            for name, paid, out in zip(names, state.paid, state.payouts, strict=True)
        ]
        return GameSummary(title, (headline, *balances), self.game.log_path)
