"""The lobby's list of local games left before their end (local seat files).

Each entry goes back into its game, replayed from its log (:meth:`LocalGame.resume
<client.game.local.LocalGame.resume>`), or, after a confirmation, forgets it (its log stays,
for Recorded match). A seat file whose log cannot be read is listed too, saying why. Names
come from the log, which anyone could have changed: they are shown as plain, printable text.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Label, OptionList

from client.folder_listing import Listed, SeatFiles, files_in
from client.i18n import N_, _, format_moment, path_shown, say_error
from client.lifecycle import closing
from client.net.untrusted import shown
from client.widgets.file_list import OneScan, show_list


@dataclass(frozen=True, slots=True)
class UnfinishedGame:
    """One local seat file: what the list shows for it, and whether it can be resumed."""

    path: Path
    title: str
    usable: bool
    in_use: bool = False  # open in another terminal: neither resumed nor forgotten here


def unfinished_games(
    data_dir: Path | None, known: SeatFiles[UnfinishedGame] | None = None
) -> list[UnfinishedGame]:
    """Every unfinished local game under *data_dir*, the most recently left first (reads
    their logs, those that changed since *known* read them: call it off the UI thread)."""
    # Imported here, in the thread: seat files and logs bring the protocol (and its crypto),
    # which the lobby's first paint does without.
    from client.game.local_seats import local_seats_folder

    known = SeatFiles(_describe, _log_of) if known is None else known
    return known.scan(files_in(local_seats_folder(data_dir), but=".tmp"))


def _log_of(path: Path) -> Path:
    """The log the seat file at *path* names."""
    from client.game.local_seats import load_local_seats

    return load_local_seats(path).log_path


def _describe(entry: Listed) -> tuple[UnfinishedGame | None, Path | None]:
    """The entry for the seat file at *path*; None for a game not yet begun (its screen,
    just left, is about to remove it and its empty log). And the log it read."""
    from client.game.local_seats import load_local_seats
    from protocol.logfile import log_in_use, read_log

    path, left = entry.path, format_moment(entry.mtime)
    log: Path | None = None  # (a log that could not be read is read again once changed)
    try:
        seats = load_local_seats(path)
        log = seats.log_path
        contents = read_log(log)
        in_use = log_in_use(log)  # after the read: what is there is a log
    except Exception as problem:  # whatever its type (LocalSeatsError, LogError, OSError…)
        why = shown(say_error(problem))
        title = _("{file}… ({left}) cannot be resumed: {why}").format(
            file=path_shown(path.name[:8]), left=left, why=why
        )
        return UnfinishedGame(path, title, False), log
    if not contents.records:
        return None, seats.log_path
    setup = contents.setup
    players = shown(", ".join(setup.names))
    game = setup.proposal.rules.proper_name
    if in_use:  # its log has one writer: that terminal's
        title = _("{game}: {players} — being played in another terminal").format(
            game=game, players=players
        )
        return UnfinishedGame(path, title, False, in_use=True), seats.log_path
    title = _("{game}: {players} ({left})").format(game=game, players=players, left=left)
    return UnfinishedGame(path, title, True), seats.log_path


class UnfinishedGames(Vertical):
    """The local games left in progress: enter goes back in, delete forgets one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("delete", "forget", N_("Forget"), tooltip=N_("Forget the selected match")),
    ]

    class Resume(Message):
        """Go back into this game."""

        def __init__(self, game: UnfinishedGame) -> None:
            super().__init__()
            self.game = game

    class Forget(Message):
        """Forget this game (after asking)."""

        def __init__(self, game: UnfinishedGame) -> None:
            super().__init__()
            self.game = game

    def __init__(self, data_dir: Path | None, *, id: str) -> None:
        super().__init__(id=id)
        self.data_dir = data_dir
        self.games: list[UnfinishedGame] = []
        self.known: SeatFiles[UnfinishedGame] = SeatFiles(_describe, _log_of)  # when changed
        self.scans = OneScan(
            lambda: self.run_worker(self._scan, thread=True, group="unfinished-games")
        )

    def compose(self) -> ComposeResult:
        yield Label(
            _("Unfinished matches (enter goes back in, delete forgets one):"),
            classes="option-label list-title",
            markup=False,
        )
        yield OptionList(id="unfinished-list", markup=False)

    def on_mount(self) -> None:
        self.display = False  # until the seat files are read (the form asks: refresh_games)

    def refresh_games(self) -> None:
        """Read the seat files again (a game may have ended or been left since), in a
        thread: each entry reads its log's header, and the lobby must not wait."""
        self.scans.ask()

    def _scan(self) -> None:
        games = unfinished_games(self.data_dir, self.known)
        self.app.call_from_thread(self._show, games)

    def _show(self, games: list[UnfinishedGame]) -> None:
        self.scans.done()
        if closing(self) or games == self.games:  # as shown: the highlight stays put
            return
        before = [game.path for game in self.games]
        self.games = games
        self.display = bool(games)
        entries = [(game.path, game.title) for game in games]
        show_list(self.query_one("#unfinished-list", OptionList), entries, before)

    @on(OptionList.OptionSelected, "#unfinished-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        game = self.games[event.option_index]
        if game.usable:
            self.post_message(self.Resume(game))
            return
        self.app.notify(game.title, title=_("Cannot resume"), severity="warning")
        if game.in_use:  # it may have been let go since the list was read: read it again
            self.refresh_games()

    def action_forget(self) -> None:
        index = self.query_one("#unfinished-list", OptionList).highlighted
        if index is not None and index < len(self.games):
            game = self.games[index]
            if game.in_use:
                self.app.notify(game.title, title=_("Cannot forget"), severity="warning")
                return
            self.post_message(self.Forget(game))

    def forget(self, game: UnfinishedGame) -> None:
        game.path.unlink(missing_ok=True)
        self.refresh_games()
