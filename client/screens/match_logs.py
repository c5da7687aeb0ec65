"""The lobby's Recorded match tab: the latest match logs on this machine, each with its
result, and the unfinished local games to go back into.

A log is a file anyone could have put in the folder, so its contents are only words to show:
each is verified as ``tablier verify`` does, the result it reaches is shown with every
character that is not printable replaced and cut to a line, and a log that cannot be read
or fails verification says so ("unreadable: …") in the app's own words, never the file's.
Reading them takes a moment: call :func:`recorded_result` off the UI thread, in a worker, which
stops between two records once cancelled (:func:`~client.lifecycle.stop_if_cancelled`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Final

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.worker import Worker, WorkerState

from client.folder_listing import Stamp, files_in, stamp_of
from client.game.budget import Cancelled
from client.i18n import N_, _, path_shown, say
from client.lifecycle import closing, stop_if_cancelled
from client.messages import OpenGame
from client.net.untrusted import shown
from client.setup import SessionSettings
from client.widgets.file_list import OneScan, show_list
from client.widgets.unfinished_games import UnfinishedGames

if TYPE_CHECKING:
    from client.game.driver import GameDriver
    from client.game.replay import ReplayGame
    from protocol.errors import LogError

MAX_RESULT_CHARS: Final = 60  # one line of the list, beside the file's name

NOT_A_LOG: Final = N_("unreadable: not a Tablier match log")
DAMAGED: Final = N_("unreadable: damaged after record {record} (a replay stops there)")
FORGED: Final = N_("unreadable: fails verification (record {record})")
DAMAGED_HEADER: Final = N_("damaged: its header — {reason}")
DAMAGED_RECORD: Final = N_("damaged: record {record} — {reason}")


def matches_folder(data_dir: Path | None) -> Path:
    """``<data dir>/matches``, where games write their logs by default."""
    if data_dir is None:
        from protocol.logfile import default_data_dir

        data_dir = default_data_dir()
    return data_dir / "matches"


def recent_logs(data_dir: Path | None, limit: int = 12) -> list[Path]:
    """The newest match logs in the folder games write to by default, newest first."""
    from protocol.logfile import LOG_SUFFIX

    found = files_in(matches_folder(data_dir), suffix=LOG_SUFFIX)
    return [listed.path for listed in found[:limit]]


def recorded_result(path: Path) -> str:
    """How the match in the log at *path* ended ("Ada wins the match 1-0", "unfinished"),
    or why it cannot be told ("unreadable: …", "damaged: record 8 — …"), safe to show as
    plain text. Whatever the file holds, it raises nothing: the list goes on (in a cancelled
    worker: :class:`~client.game.budget.Cancelled`, between two records).

    >>> import tempfile
    >>> garbage = Path(tempfile.mkdtemp()) / "x.tablier"
    >>> _ = garbage.write_bytes(b"[@click=app.quit]")
    >>> recorded_result(garbage)
    'unreadable: not a Tablier match log'
    """
    from protocol.errors import LogError, NotALog
    from protocol.logfile import read_log
    from protocol.verify import verify_contents

    try:
        contents = read_log(path)  # NotALog too when it cannot be read (removed since)
    except NotALog:
        return _(NOT_A_LOG)
    except LogError as error:  # its header: nothing else is raised
        return _one_line(_damaged(error))
    try:
        report = verify_contents(contents, between=stop_if_cancelled)
        if report.ok:
            return _one_line(shown(say(report.outcome)))
    except Cancelled:
        raise
    except Exception as error:  # whatever its type: said of the record it came from
        return _one_line(_damaged(contents.damaged(error)))
    # Every good record verified, the tail is cut or garbled: the file was damaged.
    tail, failure = contents.problem, report.failure
    if tail is not None and report.error == str(tail):
        return _(DAMAGED).format(record=len(contents.records))
    if failure is not None and failure.cause is None:  # not a fault: what cannot be handled
        return _one_line(_damaged(failure))
    return _(FORGED).format(record=report.bad_record)


def _damaged(error: LogError) -> str:
    """ "damaged: record 8 — why" (or its header)."""
    from protocol.errors import CorruptLog

    what = error.what if isinstance(error, CorruptLog) else error.reason
    reason = shown(say(what))  # it may quote the log
    if isinstance(error, CorruptLog) and error.record is not None:
        return _(DAMAGED_RECORD).format(record=error.record, reason=reason)
    return _(DAMAGED_HEADER).format(reason=reason)


def _one_line(text: str) -> str:
    """*text* (made printable where it quotes the log) cut to :data:`MAX_RESULT_CHARS`."""
    if len(text) > MAX_RESULT_CHARS:
        return text[: MAX_RESULT_CHARS - 1] + "…"
    return text


class ReplayForm(Vertical):
    """Open a match log: type its path, or pick one of the latest games; or go back into
    an unfinished local game."""

    def __init__(self, settings: SessionSettings, *, id: str) -> None:
        super().__init__(id=id)
        self.settings = settings
        self.data_dir = settings.data_dir
        self.logs: list[Path] = []
        # The logs a worker is reading now, and the path one is verifying to open: asked for
        # again meanwhile (each return to the lobby lists the logs again), they are not read
        # twice at once. Set on the UI thread, cleared by the worker when it ends.
        self.reading: list[tuple[Path, Stamp | None]] | None = None
        self.opening: Path | None = None
        # Each log's result, by the file's size and time: back in the lobby, a log left
        # as it was is not verified again.
        self.results: dict[Path, tuple[Stamp | None, str]] = {}
        # The logs listed, with their stamps: a re-scan that finds them so changes nothing.
        self.listed: list[tuple[Path, Stamp | None]] | None = None
        # One reading at a time, of the latest list (client/widgets/file_list.py).
        self.result_scans = OneScan(lambda: self._read_results(self.listed or []))

    def on_mount(self) -> None:
        if not closing(self):
            self.refresh_logs()

    def refresh_logs(self) -> None:
        """List the latest logs again (a game played, left or killed since changed them),
        then the results of those that changed; the unfinished games too. Nothing is drawn
        again, nor read, when the logs are as they were (the lobby asks every few seconds)."""
        if not self.query(UnfinishedGames):  # not composed yet: its mount lists them
            return
        self.query_one(UnfinishedGames).refresh_games()
        logs = recent_logs(self.data_dir)
        listed = [(log, stamp_of(log)) for log in logs]
        if listed == self.listed:
            return
        self.listed, before, self.logs = listed, self.logs, logs
        # Each entry is a log, a whole match (for Jacquet, of several games): the headings say
        # "match", as the glossary has it (docs/glossary-fr.md; tests/client/test_glossary.py).
        title = (
            _("Latest matches (enter opens one):") if self.logs else _("No recorded matches yet.")
        )
        self.query_one("#recent-title", Label).update(title)
        options = self.query_one("#recent-logs", OptionList)
        show_list(options, [(log, self._prompt(log, stamp)) for log, stamp in listed], before)
        options.display = bool(self.logs)
        if self.logs and self.reading != listed:
            self.reading = listed
            self.result_scans.ask()

    def _prompt(self, log: Path, stamp: Stamp | None) -> str:
        """The log's line: its name, and its result if known for the log as it is."""
        known = self.results.get(log)
        if known is None or known[0] != stamp or stamp is None:
            return path_shown(log.name)
        return f"{path_shown(log.name)}  ·  {known[1]}"

    @work(thread=True, group="recorded-results")
    def _read_results(self, listed: list[tuple[Path, Stamp | None]]) -> None:
        """In a thread: each log is verified to tell its result (a moment for a long one),
        unless known for the log as it is; stopped between two records when cancelled (the
        lobby gone, a quit). A newer list is read once this one is (:class:`OneScan`)."""
        logs = [log for log, _ in listed]
        try:
            for index, log in enumerate(logs):
                stamp = stamp_of(log)
                known = self.results.get(log)
                if known is None or known[0] != stamp or stamp is None:
                    known = (stamp, recorded_result(log))
                    self.results[log] = known
                stop_if_cancelled()
                prompt = f"{path_shown(log.name)}  ·  {known[1]}"
                self.app.call_from_thread(self._show_result, logs, index, prompt)
        except Cancelled:
            pass
        finally:
            if self.reading is listed:
                self.reading = None

    def _show_result(self, logs: list[Path], index: int, prompt: str) -> None:
        if not closing(self) and logs == self.logs:  # (not a list read again since)
            self.query_one("#recent-logs", OptionList).replace_option_prompt_at_index(index, prompt)

    def compose(self) -> ComposeResult:
        yield Static(
            _("Step through a recorded match on its own board. The log is verified first."),
            classes="intro",
            markup=False,
        )
        # The button on the path's line, its answer under it: at 80x24 the rows left go to
        # the lists, where the latest games are (client/widgets/too_small.py).
        with Horizontal(classes="options"):
            yield Label(_("Log file"), classes="option-label", markup=False)
            yield Input(placeholder=_("path to a .tablier file"), id="replay-path", compact=True)
            yield Button(_("Open"), variant="primary", id="open-replay", compact=True)
        yield Static("", id="replay-error", classes="error", markup=False)
        yield UnfinishedGames(self.data_dir, id="unfinished-games")
        yield Label("", id="recent-title", classes="option-label list-title", markup=False)
        yield OptionList(id="recent-logs", markup=False)

    @on(Button.Pressed, "#open-replay")
    @on(Input.Submitted, "#replay-path")
    def open_typed(self) -> None:
        text = self.query_one("#replay-path", Input).value.strip()
        if not text:
            self.query_one("#replay-error", Static).update(_("Type the path of a match log first"))
            return
        try:
            path = Path(text).expanduser()
        except RuntimeError:  # ~name of nobody this system knows (Python's one reason here)
            self.query_one("#replay-error", Static).update(
                _("No user on this computer is named {name}: type the log's path another "
                  "way").format(name=path_shown(text.partition("/")[0]))
            )  # fmt: skip
            return
        self.open_log(path)

    @on(OptionList.OptionSelected, "#recent-logs")
    def _open_recent(self, event: OptionList.OptionSelected) -> None:
        self.open_log(self.logs[event.option_index])

    def open_log(self, path: Path) -> None:
        if path == self.opening:
            return  # being verified already (enter pressed again): one pass is enough
        verifying = _("Verifying {log}…").format(log=path_shown(path.name))
        self.query_one("#replay-error", Static).update(verifying)
        self.opening = path
        self._load(path)

    @work(thread=True, exclusive=True, group="replay")
    def _load(self, path: Path) -> ReplayGame | str | None:
        """In a thread: verifying a long log takes a moment; the lobby stays responsive.
        The replay, or why it cannot be opened (shown by :meth:`_loaded`): whatever the file
        holds, this worker ends in one or the other, never in an error that ends the app —
        or, cancelled, stops between two records with nothing."""
        from client.game.replay import ReplayGame, ReplayRefused, load_replay

        try:
            return ReplayGame(load_replay(path, between=stop_if_cancelled))
        except Cancelled:
            return None
        except ReplayRefused as refusal:
            return shown(str(refusal))  # it may quote the log
        except Exception as error:  # whatever its type: the screens cannot set this match up
            return _("This log cannot be shown: {error}").format(error=shown(str(error)))
        finally:
            if self.opening == path:
                self.opening = None

    @on(Worker.StateChanged)
    def _loaded(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.group == "recorded-results" and worker.is_finished:
            self.result_scans.done()
            return
        if worker.group != "replay" or event.state != WorkerState.SUCCESS:
            return
        result = worker.result
        if result is None:
            return
        if isinstance(result, str):
            self.query_one("#replay-error", Static).update(result)
            return
        from client.game.replay import ReplayGame

        assert isinstance(result, ReplayGame)
        self.query_one("#replay-error", Static).update("")
        self.post_message(OpenGame(result))

    @on(UnfinishedGames.Resume)
    def _resume_local(self, event: UnfinishedGames.Resume) -> None:
        self.query_one("#replay-error", Static).update(_("Replaying its log…"))
        self._take_up(event.game.path)

    @work(thread=True, exclusive=True, group="local-resume")
    def _take_up(self, seats_file: Path) -> None:
        """In a thread: the game is replayed from its log, every record checked again."""
        from client.game.local import LocalGame, ResumeRefused

        try:
            game = LocalGame.resume(seats_file, self.settings)
        except ResumeRefused as refusal:
            self.app.call_from_thread(self._not_taken_up, str(refusal))
            return
        self.app.call_from_thread(self._taken_up, game)

    def _taken_up(self, game: GameDriver) -> None:
        self.query_one("#replay-error", Static).update("")
        self.post_message(OpenGame(game))

    def _not_taken_up(self, reason: str) -> None:
        self.query_one("#replay-error", Static).update(shown(reason))  # it may quote the log

    @on(UnfinishedGames.Forget)
    def _forget_local(self, event: UnfinishedGames.Forget) -> None:
        from client.screens.confirm import forget_question

        def answered(forget: bool | None) -> None:
            if forget:
                self.query_one(UnfinishedGames).forget(event.game)

        question = forget_question(_("Forget this match?"), event.game.title)
        self.app.push_screen(question, answered)
