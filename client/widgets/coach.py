"""The coach beside the Jacquet board: a replay's marks, hints, and the tutor's judgement.

What the equity network (:mod:`engine.bot.analysis`) says about the play on the board, as a
few lines of the side panel. Every judgement runs in a worker thread — at two plies one can
take a few hundred milliseconds — so the screen never waits for it; the answer comes back
on the UI thread and the screen is told by a message:

* in a replay, :meth:`CoachPanel.analyse_replay` judges the log's plays (one ply:
  ``tablier analyze`` looks two deep; the first :data:`~client.game.budget.MAX_JUDGED_TURNS`
  of them, and says so past those) and then :meth:`CoachPanel.show_frame` gives the move
  on the board its mark, the equity it lost and the best play; :meth:`CoachPanel.next_mistake`
  finds the next marked play;
* in local play, and in a networked match whose signed setup allows it,
  :meth:`CoachPanel.hint` ranks the legal plays (the top three, with their equities) and
  :meth:`CoachPanel.check_play` asks the tutor whether a play loses more than the threshold
  before it is sent.

A networked match's panel says, on every seat's screen, whether its setup allows help
(:data:`HELP_AGREED`) or not (:data:`NO_HELP`, and it offers nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from textual import work
from textual.message import Message
from textual.widgets import Static

from client.game.budget import MAX_JUDGED_TURNS, Cancelled
from client.game.driver import ReplayControl
from client.game.jacquet_turns import indexed_jacquet_turns
from client.game.marks import MARK_NAMES
from client.i18n import N_, _, decimal_symbol, ngettext, say_error
from client.lifecycle import stop_if_cancelled
from engine.bot.analysis import (
    Judgement,
    RankedPlay,
    TurnAnalysis,
    analyse_turn,
    judge,
    rank_plays,
)
from engine.bot.equity import ONE
from engine.bot.netsearch import NetLimits
from engine.jacquet import BearOff, Play, Position

REPLAY_LIMITS = NetLimits(plies=1)
"""A replay judges every play at one ply, so the marks come within seconds."""
HINTS = 3
"""Plays a hint shows."""
NO_HELP = N_("Hints and tutor: off in a networked match (its signed setup does not allow them).")
HELP_AGREED = N_("Hints and tutor: allowed — every player signed a setup allowing them.")


def points(micro: int) -> str:
    """Micro-points as the screens show them.

    >>> points(95_000), points(-1_250_000)
    ('+0.095', '-1.250')
    """
    return f"{micro / ONE:+.3f}".replace(".", decimal_symbol())


def _lost(micro: int) -> str:
    return f"{micro / ONE:.3f}".replace(".", decimal_symbol())


def frame_turns(frames: Sequence[Any]) -> dict[int, Any]:
    """Frame index -> the Jacquet turn it completes, for replay frames (``state``, ``events``)."""
    steps = [(frames[i - 1].state, frames[i]) for i in range(1, len(frames))]
    return {index + 1: turn for index, turn in indexed_jacquet_turns(steps)}


def verdict_line(turn: TurnAnalysis) -> str:
    """What the replay says of one play."""
    if turn.forced:
        return _("{play}: forced (the only play).").format(play=turn.played)
    if not turn.mark:
        return _("{play}: good (lost {lost}).").format(play=turn.played, lost=_lost(turn.loss))
    return _("{play}: {mark}, lost {lost}; best {best} (b shows it).").format(
        play=turn.played, mark=_(MARK_NAMES[turn.mark]), lost=_lost(turn.loss), best=turn.best
    )


def hint_lines(ranked: Sequence[RankedPlay]) -> str:
    """The top plays with their equities, best first."""
    lines = [f"{n}. {play.play}  {points(play.equity)}" for n, play in enumerate(ranked, 1)]
    return _("Hints (equity for you):") + "\n" + "\n".join(lines)


class CoachPanel(Static):
    """The coach's lines in the side panel; see the module docstring.

    ``replay`` (a replay's controls) makes it a replay's coach; ``tutor`` (micro-points, or
    ``None``) is the loss from which :meth:`check_play` asks before letting a play go.
    """

    class Analysed(Message):
        """The replay's plays are judged: the keys that use the marks may be offered."""

    @dataclass
    class Approved(Message):
        """``play`` may be sent: the tutor found it good enough, or the player insisted."""

        play: Play

    @dataclass
    class Hinted(Message):
        """A hint is shown; ``best`` is its first play (the screen marks it on the board)."""

        best: str

    def __init__(
        self, replay: ReplayControl | None = None, tutor: int | None = None, *,
        id: str | None = None,
    ) -> None:  # fmt: skip
        super().__init__("", id=id, markup=False)
        self.replay = replay
        self.tutor = tutor
        self.marks: dict[int, TurnAnalysis] = {}
        self.unjudged = 0  # the replay's plays past the coach's budget, left unjudged
        self.analysing = False  # a worker is judging the plays (cleared by it when it ends)
        self.judged = 0  # how many plays the pass running has judged so far
        self._wanted: tuple[Position, tuple[int, int]] | None = None
        self._judging: Play | None = None

    # -- a replay -------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="coach-replay")
    def analyse_replay(self) -> None:
        """Judge the replay's plays (in a worker thread: at most :data:`MAX_JUDGED_TURNS`,
        stopped between two once cancelled — the screen left, the app quitting), then show
        the marks."""
        assert self.replay is not None
        self.analysing = True
        try:
            turns = frame_turns(self.replay.frames)
            marks: dict[int, TurnAnalysis] = {}
            for index, turn in list(turns.items())[:MAX_JUDGED_TURNS]:
                stop_if_cancelled()
                marks[index] = analyse_turn(turn, REPLAY_LIMITS)
                self.judged = len(marks)
            stop_if_cancelled()
        except Cancelled:
            return
        except ValueError as error:  # a play the engine refuses: the log was verified, so a bug
            why = _("The plays could not be judged: {error}").format(error=say_error(error))
            self.app.call_from_thread(self.update, why)
            return
        finally:
            self.analysing = False
        self.app.call_from_thread(self._analysed, marks, len(turns))

    def _analysed(self, marks: dict[int, TurnAnalysis], turns: int) -> None:
        self.marks = marks
        self.unjudged = turns - len(marks)
        self.show_frame()
        self.post_message(self.Analysed())

    def show_frame(self) -> None:
        """The mark of the play on the board (nothing for a frame without one)."""
        if self.replay is None:
            return
        if not self.marks:
            self.update(_("Analysing the plays…"))
            return
        turn = self.marks.get(self.replay.index)
        line = "" if turn is None else verdict_line(turn)
        if turn is None and self.unjudged and self.replay.index > max(self.marks):
            line = ngettext(
                "Not judged: the coach judges the first {judged} plays of a log; {count} more "
                "play follows (tablier analyze --max-turns judges more).",
                "Not judged: the coach judges the first {judged} plays of a log; {count} more "
                "plays follow (tablier analyze --max-turns judges more).",
                self.unjudged,
            ).format(judged=len(self.marks), count=self.unjudged)
        self.update(line)

    def best_here(self) -> TurnAnalysis | None:
        """The analysis of the play on the board, if the frame shown completes one."""
        return None if self.replay is None else self.marks.get(self.replay.index)

    def jump_to_next_mistake(self) -> bool:
        """Step the replay to the next marked play; False when there is none after."""
        if self.replay is None:
            return False
        here = self.replay.index
        found = next((i for i in sorted(self.marks) if i > here and self.marks[i].mark), None)
        if found is not None:
            self.replay.jump(found)
        return found is not None

    # -- local play -----------------------------------------------------------------------

    def hint(self, position: Position, dice: tuple[int, int], bearoff: BearOff) -> None:
        """Rank the legal plays in a worker; :meth:`hinted` shows the best :data:`HINTS`."""
        self.display = True
        self.update(_("Thinking…"))
        self._wanted = (position, dice)
        self._rank(position, dice, bearoff)

    @work(thread=True, exclusive=True, group="coach-hint")
    def _rank(self, position: Position, dice: tuple[int, int], bearoff: BearOff) -> None:
        ranked = tuple(rank_plays(position, dice, bearoff)[:HINTS])
        self.app.call_from_thread(self._hinted, position, dice, ranked)

    def _hinted(
        self, position: Position, dice: tuple[int, int], ranked: tuple[RankedPlay, ...]
    ) -> None:
        if self._wanted == (position, dice) and ranked:  # else the game moved on meanwhile
            self.update(hint_lines(ranked))
            self.post_message(self.Hinted(ranked[0].play))

    def forget_hint(self) -> None:
        """The turn is over: the hint no longer applies."""
        if self._wanted is not None:
            self._wanted = None
            self.update("")
            self.display = False

    def ask_tutor(
        self, position: Position, dice: tuple[int, int], play: Play, bearoff: BearOff
    ) -> None:
        """Have the tutor judge ``play`` unless it is already judging it (enter pressed twice)."""
        if self._judging != play:
            self._judging = play
            self.check_play(position, dice, play, bearoff)

    @work(thread=True, exclusive=True, group="coach-tutor")
    def check_play(
        self, position: Position, dice: tuple[int, int], play: Play, bearoff: BearOff
    ) -> None:
        """Judge ``play`` (in a worker) before it is sent: :class:`Approved` lets it go,
        :class:`Warned` says it loses too much."""
        judgement = judge(position, dice, play, bearoff)
        self.app.call_from_thread(self._judged, play, judgement)

    def _judged(self, play: Play, judgement: Judgement) -> None:
        self._judging = None
        if self.tutor is None or judgement.loss < self.tutor:
            self.post_message(self.Approved(play))
        else:
            self.post_message(self.Warned(play, judgement))

    @dataclass
    class Warned(Message):
        """``play`` loses at least the tutor's threshold: the screen asks "Rethink / Play
        anyway" (:func:`warning`), and sends it only if told to."""

        play: Play
        judgement: Judgement


def warning(judgement: Judgement) -> tuple[str, str]:
    """The tutor's question and its detail, for a play judged too costly."""
    return (_("The tutor: this play loses {lost} points ({mark}).").format(
                lost=_lost(judgement.loss), mark=_(MARK_NAMES.get(judgement.mark, judgement.mark))),
            _("The best play is {play}.").format(play=judgement.best.play))  # fmt: skip
