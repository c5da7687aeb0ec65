"""The end of a game: who won and how, the pot or points, where the log is, what next."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Literal

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from client.game.driver import RematchOffer, seated
from client.game.turn import GameState, NotYourTurnError
from client.i18n import N_, _, path_shown, say
from client.lifecycle import closing
from client.widgets.footer import KeysFooter
from protocol.events import MatchEnded
from protocol.games import Game

EndChoice = Literal["again", "lobby", "quit"]
END_CHOICES: dict[str, EndChoice] = {"again": "again", "lobby": "lobby", "quit": "quit"}


@dataclass(frozen=True, slots=True)
class GameSummary:
    """What the end screen shows; built by the game screen from its final state."""

    title: str
    lines: tuple[str, ...]
    log_path: Path | None


def ending_summary(
    game: Game,
    ended: MatchEnded,
    names: tuple[str, ...],
    state: GameState,
    log_path: Path | None,
) -> GameSummary:
    """The end screen's content for a match that ended otherwise than by being played out:
    stopped on a peer's fault, resigned, or abandoned past the time limit."""
    if ended.reason == "stopped":
        who = seated(names[ended.seat], ended.seat) if ended.seat is not None else _("a peer")
        reason = say(ended.error.reason) if ended.error else ""
        said = (
            _("{who}: {reason}").format(who=who, reason=reason),
            _("Everything accepted before it is in the log."),
        )
        return GameSummary(_("The match was stopped."), said, log_path)
    loser = names[ended.seat] if ended.seat is not None else _("a player")
    resigned = ended.reason == "resigned"
    if ended.winner is None:
        title = (
            _("{loser} resigned.")
            if resigned
            else _("{loser} abandoned the match (past the time limit).")
        ).format(loser=loser)
    else:
        title = (_("{loser} resigned: {winner} wins the match.") if resigned else
                 _("{loser} abandoned the match (past the time limit): {winner} wins the "
                   "match.")).format(loser=loser, winner=names[ended.winner])  # fmt: skip
    score = game.final_score(state, ended)  # what the resignation or claim scored: the match
    lines: tuple[str, ...] = ()
    if score is not None:
        scores = {"white": names[0], "white_score": score[0],
                  "black": names[1], "black_score": score[1]}  # fmt: skip
        if ended.winner is None:
            line = _("Score when it ended: {white} {white_score}, {black} {black_score}.")
        elif resigned:
            line = _("The resignation gives {winner} the match: final score {white} "
                     "{white_score}, {black} {black_score}.")  # fmt: skip
        else:
            line = _("The claim gives {winner} the match: final score {white} {white_score}, "
                     "{black} {black_score}.")  # fmt: skip
        winner = names[ended.winner] if ended.winner is not None else ""
        lines = (line.format(winner=winner, **scores),)
    return GameSummary(title, lines, log_path)


class _Dialog(VerticalScroll, can_focus=False):
    """Title and buttons docked, the lines between them scrolled: its page keys show in the
    footer (the buttons it holds have the focus, so they are the keys' first takers)."""

    SCROLL = Binding.Group(N_("Scroll"))
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("pageup", "page_up", N_("Scroll up"), group=SCROLL),
        Binding("pagedown", "page_down", N_("Scroll down"), group=SCROLL),
    ]


class EndScreen(ModalScreen[EndChoice]):
    """Dismissed with the player's choice; the app acts on it (``handle_end_choice``).

    With a rematch offer (a networked room), "Play again" asks for the rematch instead and
    the screen stays, saying where it stands, until the rematch's board replaces it."""

    AUTO_FOCUS = "#again"
    BINDINGS: ClassVar[list[BindingType]] = [
        # Translated when the module is imported: the app's modules load after the language
        # is chosen (client/cli.py imports them only to run a command).
        Binding("a", "choose('again')", N_("Play again")),
        Binding("l", "choose('lobby')", N_("Lobby")),
        Binding("q", "choose('quit')", N_("Quit")),
        Binding("w", "withdraw", N_("Withdraw the rematch")),
    ]

    def __init__(self, summary: GameSummary, rematch: RematchOffer | None = None) -> None:
        super().__init__()
        self.summary = summary
        self.rematch = rematch

    def compose(self) -> ComposeResult:
        # Title and buttons are docked in the dialog, which scrolls what lies between them:
        # fifteen balances and a long log path do not fit 80x24 (PageUp / PageDown).
        with _Dialog(id="dialog"):
            yield Label(self.summary.title, id="title", markup=False)
            with Horizontal(id="buttons"):
                if self._may_play_again:
                    yield Button(_("Play again (a)"), variant="success", id="again")
                yield Button(_("Lobby (l)"), variant="primary", id="lobby")
                yield Button(_("Quit (q)"), id="quit")
            for line in self.summary.lines:
                yield Label(line, classes="result-line", markup=False)
            if self.summary.log_path is None:
                yield Label(_("No match log was written."), id="log-path", markup=False)
            else:
                yield Label(
                    _("Match log saved to {path}").format(path=path_shown(self.summary.log_path)),
                    id="log-path",
                    markup=False,
                )
            if self.rematch is not None:
                yield Label("", id="rematch", markup=False)
        yield KeysFooter()  # the dialog's own keys, not those of the screen below

    @property
    def _may_play_again(self) -> bool:
        """A local game can always be played again; a room's, by its players only."""
        return self.rematch is None or self.rematch.can_ask_rematch

    def on_mount(self) -> None:
        if closing(self):
            return
        if not self._may_play_again:
            self.query_one("#lobby", Button).focus()
        self.show_rematch()

    def show_rematch(self) -> None:
        """Say where the rematch stands (the game screen calls it when that changes), and
        offer only what the reader can do now (withdrawing: the host, once it is proposed)."""
        if self.rematch is not None:
            self.query_one("#rematch", Label).update(self.rematch.rematch_note or "")
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "withdraw":
            return self.rematch is not None and self.rematch.can_withdraw_rematch
        if action == "choose" and parameters == ("again",):
            return self._may_play_again
        return True

    def action_withdraw(self) -> None:
        if self.rematch is not None:
            self._rematch_step(self.rematch.withdraw_rematch)

    def _rematch_step(self, step: Callable[[], None]) -> None:
        """Ask for the rematch, or withdraw it: a refusal is said, and the note redrawn."""
        try:
            step()
        except NotYourTurnError as refusal:
            reason = str(refusal)
            self.notify(reason[:1].upper() + reason[1:], title=_("No rematch"), severity="warning")
        self.show_rematch()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_choose(str(event.button.id))

    def action_choose(self, choice: str) -> None:
        chosen: EndChoice | None = END_CHOICES.get(choice)
        if chosen == "again" and self.rematch is not None:
            self._rematch_step(self.rematch.ask_rematch)
            return
        if chosen is not None:
            self.dismiss(chosen)
