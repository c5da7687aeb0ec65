"""The lobby's list of networked matches this player left before their end (seat files).

Each entry goes back into its match (the same as ``tablier join`` with its invite) or, after
a confirmation, forgets it. A seat file that cannot be read is listed too, so the player
learns why it cannot be resumed and can forget it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Label, OptionList

from client.folder_listing import Listed, SeatFiles, files_in
from client.i18n import N_, _, format_moment, path_shown, say_error
from client.lifecycle import closing
from client.net.invite import Invite
from client.net.untrusted import shown
from client.widgets.file_list import OneScan, show_list

if TYPE_CHECKING:
    from client.net.seatfile import Seat


@dataclass(frozen=True, slots=True)
class SavedSeat:
    """One seat file: the seat when it is usable, else why not."""

    path: Path
    seat: Seat | None
    title: str

    @property
    def invite(self) -> Invite | None:
        seat = self.seat
        if seat is None:
            return None
        return Invite(seat.relay_url, seat.room_id, seat.invite_token, "player")


def saved_seats(
    data_dir: Path | None, known: SeatFiles[SavedSeat] | None = None
) -> list[SavedSeat]:
    """Every seat file under *data_dir*, the most recently left first (reads their logs'
    headers, those that changed since *known* read them: call it off the UI thread)."""
    from client.net.seatfile import seats_folder

    known = SeatFiles(_describe, _log_of) if known is None else known
    return known.scan(files_in(seats_folder(data_dir), but=".tmp"))


def _log_of(path: Path) -> Path | None:
    """The log the seat file at *path* names (None: gone since it was listed)."""
    from client.net.seatfile import load_seat

    seat = load_seat(path)
    return None if seat is None else seat.log_path


def _describe(entry: Listed) -> tuple[SavedSeat | None, Path | None]:
    """The seat *entry* lists, or None: gone since it was listed (its match just ended in
    another terminal, which removes its seat file); and the log it read."""
    from client.net.seatfile import SeatFileError, load_seat
    from protocol.logfile import log_in_use, read_log

    path, left = entry.path, format_moment(entry.mtime)
    log: Path | None = None  # (a log that could not be read is read again once changed)
    try:
        seat = load_seat(path)
        if seat is None:
            return None, None
        log = seat.log_path
        setup = read_log(log).setup
        in_use = log_in_use(log)  # after the read: what is there is a log
    except (SeatFileError, ValueError, OSError) as problem:
        named = _("{path}: {reason}").format(path=path_shown(path), reason="")
        why = say_error(problem).removeprefix(named)  # the entry already names it
        title = _("{file}… ({left}) cannot be resumed: {why}").format(
            file=path_shown(path.name[:8]), left=left, why=shown(why)
        )
        return SavedSeat(path, None, title), log
    game = setup.proposal.rules.proper_name
    others = [name for name in setup.names if name != seat.name]
    if in_use:  # its log has one writer: that terminal's
        title = _("{game} with {players}, as {name}: being played in another terminal").format(
            game=game, players=", ".join(others), name=seat.name
        )
        return SavedSeat(path, None, title), seat.log_path
    title = _("{game} with {players}, as {name} ({left})").format(
        game=game, players=", ".join(others), name=seat.name, left=left
    )
    return SavedSeat(path, seat, title), seat.log_path


class SavedSeats(Vertical):
    """The matches left in progress: enter goes back in, delete forgets one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("delete", "forget", N_("Forget"), tooltip=N_("Forget the selected match")),
    ]

    class Resume(Message):
        """Go back into this match."""

        def __init__(self, saved: SavedSeat) -> None:
            super().__init__()
            self.saved = saved

    class Forget(Message):
        """Forget this match (after asking)."""

        def __init__(self, saved: SavedSeat) -> None:
            super().__init__()
            self.saved = saved

    def __init__(self, data_dir: Path | None, *, id: str) -> None:
        super().__init__(id=id)
        self.data_dir = data_dir
        self.seats: list[SavedSeat] = []
        self.known: SeatFiles[SavedSeat] = SeatFiles(_describe, _log_of)  # read when changed
        self.scans = OneScan(lambda: self.run_worker(self._scan, thread=True, group="saved-seats"))

    def compose(self) -> ComposeResult:
        yield Label(
            _("Matches you left before the end (enter goes back in, delete forgets one):"),
            classes="option-label list-title",
            markup=False,
        )
        yield OptionList(id="saved-seats-list", markup=False)

    def on_mount(self) -> None:
        if closing(self):
            return
        self.display = False  # until the seat files are read
        # After the first paint: reading them brings the protocol (and its crypto) in, and a
        # thread importing it would hold the interpreter while the lobby is being drawn.
        self.call_after_refresh(self._first_scan)

    def _first_scan(self) -> None:
        if not closing(self):
            self.refresh_seats()

    def refresh_seats(self) -> None:
        """Read the seat files again (a match may have ended or been left since), in a
        thread: each entry reads its match log's header, and the lobby must not wait."""
        self.scans.ask()

    def _scan(self) -> None:
        seats = saved_seats(self.data_dir, self.known)
        self.app.call_from_thread(self._show, seats)

    def _show(self, seats: list[SavedSeat]) -> None:
        self.scans.done()
        if closing(self) or seats == self.seats:  # as shown: the highlight stays put
            return
        before = [saved.path for saved in self.seats]
        self.seats = seats
        self.display = bool(seats)
        entries = [(saved.path, saved.title) for saved in seats]
        show_list(self.query_one("#saved-seats-list", OptionList), entries, before)

    @on(OptionList.OptionSelected, "#saved-seats-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        saved = self.seats[event.option_index]
        if saved.seat is not None:
            self.post_message(self.Resume(saved))
        else:
            self.app.notify(saved.title, title=_("Cannot resume"), severity="warning")

    def action_forget(self) -> None:
        index = self.query_one("#saved-seats-list", OptionList).highlighted
        if index is not None and index < len(self.seats):
            self.post_message(self.Forget(self.seats[index]))

    def forget(self, saved: SavedSeat) -> None:
        from client.net.seatfile import forget_seat

        forget_seat(saved.path)
        self.refresh_seats()
