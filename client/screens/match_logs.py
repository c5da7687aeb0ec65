"""The lobby's view of the match logs on this machine: the latest, each with its result.

A log is a file anyone could have put in the folder, so its contents are only words to show:
each is verified as ``tablier verify`` does, the result it reaches is shown with every
character that is not printable replaced and cut to a line, and a log that cannot be read
or fails verification says so ("unreadable: …") in the app's own words, never the file's.
Reading them takes a moment: call :func:`recorded_result` off the UI thread.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from client.net.untrusted import shown

MAX_RESULT_CHARS: Final = 60  # one line of the list, beside the file's name

NOT_A_LOG: Final = "unreadable: not a Tablier match log"
DAMAGED: Final = "unreadable: damaged after record {record} (a replay stops there)"
FORGED: Final = "unreadable: fails verification (record {record})"


def matches_folder(data_dir: Path | None) -> Path:
    """``<data dir>/matches``, where games write their logs by default."""
    if data_dir is None:
        from protocol.logfile import default_data_dir

        data_dir = default_data_dir()
    return data_dir / "matches"


def recent_logs(data_dir: Path | None, limit: int = 12) -> list[Path]:
    """The newest match logs in the folder games write to by default, newest first."""
    from protocol.logfile import LOG_SUFFIX

    folder = matches_folder(data_dir)
    if not folder.is_dir():
        return []
    logs = [path for path in folder.glob(f"*{LOG_SUFFIX}") if path.is_file()]
    logs.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    return logs[:limit]


def recorded_result(path: Path) -> str:
    """How the match in the log at *path* ended ("Ada wins the match 1-0", "unfinished"),
    or why it cannot be told ("unreadable: …"), safe to show as plain text.

    >>> import tempfile
    >>> garbage = Path(tempfile.mkdtemp()) / "x.tablier"
    >>> _ = garbage.write_bytes(b"[@click=app.quit]")
    >>> recorded_result(garbage)
    'unreadable: not a Tablier match log'
    """
    from protocol.errors import NotALog
    from protocol.logfile import read_log
    from protocol.verify import verify_contents

    try:
        contents = read_log(path)  # NotALog too when it cannot be read (removed since)
    except NotALog:
        return NOT_A_LOG
    report = verify_contents(contents)
    if not report.ok:
        # Every good record verified, the tail is cut or garbled: the file was damaged.
        tail = contents.problem
        if tail is not None and report.error == str(tail):
            return DAMAGED.format(record=len(contents.records))
        return FORGED.format(record=report.bad_record)
    result = shown(report.result)
    if len(result) > MAX_RESULT_CHARS:
        return result[: MAX_RESULT_CHARS - 1] + "…"
    return result
