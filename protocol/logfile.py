"""Match logs: the header and every signed record, as an append-only msgpack stream.

Layout (docs/log-format.md): one msgpack array ``["tablier-log", 2, setup, match id]``, then
one msgpack ``bin`` per record holding the record's wire bytes exactly as signed. Each record
is flushed and fsynced as it is written, so a crash loses at most the record being written;
:func:`read_log` reports a truncated or garbled tail and keeps every record before it. Every
object must be in its one canonical encoding (msgpack's shortest forms), so two logs of one
match are the same bytes exactly when they hold the same records: compare them by hash.

>>> import tempfile, pathlib
>>> from protocol.local import LocalMatch
>>> from protocol.identity import seeded_source
>>> path = pathlib.Path(tempfile.mkdtemp()) / "doc.tablier"
>>> match = LocalMatch.create("goose", {}, names=("Ann", "Bob"), now=0, log_path=path,
...                           random_source=seeded_source("log-doc"))
>>> _ = match.throw(match.awaiting.seat, now=5)
>>> match.close()
>>> contents = read_log(path)
>>> len(contents.records), contents.problem, path.read_bytes() == match.log_bytes()
(2, None, True)
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import stat
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO, Final

import msgpack  # type: ignore[import-untyped]

from engine.clause import N_, Clause, Value, plural
from protocol.codec import (
    MAX_ARRAY_LEN,
    MAX_BIN_LEN,
    MAX_MAP_LEN,
    MAX_MESSAGE_BYTES,
    MAX_STR_LEN,
    Limits,
    pack,
)
from protocol.errors import (
    CorruptLog,
    LocalProtocolError,
    LogError,
    NotALog,
    ProtocolError,
    os_reason,
)
from protocol.setup import MatchSetup

LOG_FORMAT: Final = "tablier-log"
LOG_VERSION: Final = 2
LOG_SUFFIX: Final = ".tablier"
MAX_LOG_BYTES: Final = 256 * 1024 * 1024
"""The largest log any reader takes (a file growing while it is read included): a match of
the Goose's 15 seats writes a few hundred bytes a throw, so this is years of play."""
MAX_LOG_PATH_CHARS: Final = 4_096
"""A log's path as a seat file keeps it (Linux's ``PATH_MAX``)."""
MAX_HEADER_BYTES: Final = 48 + MAX_MESSAGE_BYTES
"""The most bytes a log's header is read from, and so the most work its decoding can cost
whatever the file holds. The header is ``["tablier-log", 2, setup, match id]``: 1 byte for
the array, 12 for the format, 1 for the version, 34 for the id — 48 — around the setup,
which every networked match received as one wire message, itself at most
:data:`~protocol.codec.MAX_MESSAGE_BYTES`. The largest real setup is far below that: a join
is its array and two small integers (3 bytes), the proposal's digest, the key and the tip
(3 * 34), a name of 32 characters (at most 128 bytes of UTF-8, 130 written) and the signature
(66) — 301 bytes — and fifteen of them with the proposal (its fields and a few options, well
under 200 bytes) make about 4.7 KiB:

>>> join = 3 + 3 * 34 + 130 + 66
>>> join, 1 + 15 * join, 48 + 1 + 200 + 1 + 15 * join < MAX_HEADER_BYTES
(301, 4516, True)
"""
_BIN_WIDTH: Final = {0xC4: 1, 0xC5: 2, 0xC6: 4}
"""A record is one msgpack bin: its first byte says how many bytes give its length."""
MAX_UNHANDLED_CHARS: Final = 120
"""At most this much of an unexpected error's own words is said about a record (its text
may quote the record's values: a 2^63 written out, a long name)."""


def encode_header(setup: MatchSetup) -> bytes:
    """The first object of a log."""
    return pack([LOG_FORMAT, LOG_VERSION, setup.fields(), setup.match_id])


def encode_record(record: bytes) -> bytes:
    """One record as stored: a msgpack bin holding its wire bytes."""
    return pack(record)


def encode_log(setup: MatchSetup, records: Sequence[bytes]) -> bytes:
    """A whole log in memory (what :class:`LogWriter` leaves on disk)."""
    return encode_header(setup) + b"".join(encode_record(record) for record in records)


class LogInUse(LocalProtocolError):
    """The log is being written by another program (a game open in another terminal)."""


MAX_LOCK_TRIES: Final = 10_000
"""How many times a writer tries its log's lock while only probes hold it. A probe
(:func:`log_in_use`) holds a *shared* lock between two system calls, which an exclusive one
must wait out; the writer gives up the processor between tries (``sched_yield``: no clock
here), so a probe that was itself put aside between its two calls gets to finish. One
that holds it through ten thousand tries is no probe but a program keeping the log open
and locked, and the writer says the log is in use rather than wait for it."""


def _lock(file: BinaryIO, path: Path) -> None:
    """Hold *file*'s log as its one writer: an exclusive lock on the open file, which the
    system lets go when this program ends in any way (a crash included), so a stopped
    writer never keeps a game from being taken up again. Raise :class:`LogInUse` when
    another program holds it (and close *file*).

    A probe (:func:`log_in_use`, another Tablier listing its seats) holds a shared lock for
    a moment, which the exclusive one cannot be taken beside: when the exclusive lock is
    refused but a shared one is granted, nobody holds the exclusive one, so only probes are
    in the way, and the writer tries again (at most :data:`MAX_LOCK_TRIES` times). A probe
    never makes a writer fail; another writer does at once."""
    descriptor = file.fileno()
    for _try in range(MAX_LOCK_TRIES):
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        try:
            fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            break  # an exclusive holder: another writer
        fcntl.flock(descriptor, fcntl.LOCK_UN)
        os.sched_yield()  # the probes' moment: two system calls
    file.close()
    raise LogInUse(Clause.of(N_("{path} is being played in another Tablier (another "
                                "terminal): a log has one writer at a time"),
                             path=str(path))) from None  # fmt: skip


def log_in_use(path: Path) -> bool:
    """Whether another program (or another writer of this one) writes the log at *path*
    now. False when there is no such file; a moment's answer, for what a list shows: the
    writer's own lock is what keeps two writers apart. :class:`NotALog` when *path* is not
    a regular file (a FIFO, a device, a link: nobody writes it as a log), said as
    :func:`read_log` says it.

    It never waits (the file is opened as :func:`read_regular` opens one, and not through a
    link), and never makes a writer fail: it takes a *shared* lock, which a writer's
    exclusive one refuses (so: in use), and which the writer waits out (:func:`_lock`).

    >>> try:
    ...     log_in_use(Path("/dev/zero"))
    ... except NotALog as error:
    ...     print(error)
    /dev/zero is not a regular file: not a match log
    """
    try:
        descriptor = _open_regular(Path(path), follow=False)
    except FileNotFoundError:
        return False
    except (OSError, ValueError) as error:
        raise _not_a_log(Path(path), error) from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(descriptor)  # which lets go of the shared lock
    return False


class LogWriter:
    """Append-only writer: header at creation, then one fsynced write per record. It holds
    its log's lock while open (:class:`LogInUse`: one writer at a time)."""

    def __init__(self, path: Path, setup: MatchSetup, *, resume_at: int | None = None) -> None:
        """A new log at *path*; or, with *resume_at*, the existing log of *setup* there, taken
        up after its good records (``resume_at`` is where they end: :attr:`LogContents.end`),
        for a player back in his seat after the program stopped."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        if resume_at is not None:
            self._file: BinaryIO | None = open(path, "r+b")  # noqa: SIM115 - kept open
            _lock(self._file, path)  # before anything is cut: another writer may be at it
            self._file.truncate(resume_at)  # a record cut short by the stop goes
            self._file.seek(resume_at)
            return
        try:
            self._file = open(path, "xb")  # noqa: SIM115 - kept open
        except FileExistsError:
            exists = Clause.of(N_("{path} already exists; a log is never overwritten"),
                               path=str(path))  # fmt: skip
            raise LocalProtocolError(exists) from None
        _lock(self._file, path)
        self._write(encode_header(setup))

    def append(self, record: bytes) -> None:
        """Write one record and make it durable before returning."""
        self._write(encode_record(record))

    def sync(self) -> None:
        """Make everything written so far survive a power cut (``fsync``)."""
        if self._file is not None:
            os.fsync(self._file.fileno())

    def close(self) -> None:
        if self._file is not None:
            self.sync()
            self._file.close()
            self._file = None

    def _written(self) -> None:
        """Called after every write (flushed to the OS): here, fsync at once."""
        self.sync()

    def _write(self, data: bytes) -> None:
        if self._file is None:
            raise LocalProtocolError(Clause.of(N_("the log {path} is closed"),
                                               path=str(self.path)))  # fmt: skip
        self._file.write(data)
        self._file.flush()
        self._written()

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(slots=True)
class Place:
    """Where a reader of one log stands: the record it is handling (``None``: the header, or
    no record yet) and that record's byte offset. :func:`protocol.verify.replay` moves it
    as it goes, so whatever goes wrong while a record is handled — in the replay or in
    what a tool does with its step — can be said to be about that record."""

    record: int | None = None
    offset: int = 0


@dataclass(frozen=True, slots=True)
class LogContents:
    """A log as read: the setup, every readable record, and the problem with the tail if any.

    ``offsets[k]`` is the byte offset of record *k* in the file; ``end`` is where the good
    records end (the file's size, unless ``problem``); ``sha256`` is the hash of the bytes up
    to there (a log has one byte form: equal hashes, equal records). ``place``: the record
    being handled now (:class:`Place`).
    """

    setup: MatchSetup
    records: tuple[bytes, ...]
    offsets: tuple[int, ...]
    problem: CorruptLog | None
    end: int
    sha256: bytes = b""
    place: Place = field(default_factory=Place, compare=False, repr=False)

    def at(self, record: int) -> None:
        """Record *record* is being handled now."""
        self.place.record, self.place.offset = record, self.offsets[record]

    def damaged(self, error: Exception) -> LogError:
        """*error*, raised while the record at :attr:`place` was handled, as the one error a
        reader of this log reports: a :class:`LogError` as it is; a protocol error as that
        record's fault (its ``cause``); anything else — whatever its type — as a value in
        that record this program cannot handle.

        >>> from protocol.selfplay import selfplay
        >>> contents = parse_log(selfplay("goose", {}, seed="d", start_time=0).log_bytes())
        >>> contents.at(3)
        >>> error = contents.damaged(OverflowError("too big"))
        >>> print(error)
        record 3 (byte 961): a value this program cannot handle (OverflowError: too big)
        >>> error.record, error.cause
        (3, None)
        """
        if isinstance(error, LogError):
            return error
        place = self.place
        if isinstance(error, ProtocolError):
            return CorruptLog(error.message, record=place.record, offset=place.offset, cause=error)
        return CorruptLog(unhandled(error), record=place.record, offset=place.offset)


def unhandled(error: BaseException) -> Clause:
    """What is said of an error nobody expected while a log was read: its type and the start
    of its own words, on one line.

    >>> str(unhandled(OverflowError("int too big\\nto convert")))
    'a value this program cannot handle (OverflowError: int too big to convert)'
    """
    words = " ".join(f"{type(error).__name__}: {error}".split())
    if len(words) > MAX_UNHANDLED_CHARS:
        words = words[: MAX_UNHANDLED_CHARS - 1] + "…"
    return Clause.of(N_("a value this program cannot handle ({error})"), error=words)


def read_log(path: Path) -> LogContents:
    """Read a log file; :class:`NotALog` when it is not one, ``problem`` for a bad tail.

    The one door from a file to a log: the header parsed into a checked :class:`MatchSetup`,
    each record kept as the bytes its seat signed (decoded and checked when replayed,
    :func:`protocol.verify.replay`). Whatever the file holds, it raises nothing but a
    :class:`LogError`.
    """
    return parse_log(read_log_bytes(path), name=str(path))


class NotRegular(ValueError):
    """What a path names is not a regular file (a FIFO, a device, a folder)."""


class TooLarge(ValueError):
    """A regular file holds more than the bound its reader set."""


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at *path*, at most *limit* of them, never waiting: the
    one way Tablier reads a file anyone may have put where it looks (a log, a seat file, the
    saved language). Raises :class:`NotRegular`, :class:`TooLarge`, :class:`OSError` (as the
    system says), or :class:`ValueError` for a path holding a NUL.

    The path may lead to a FIFO, which would make the reader wait for ever, or a device such
    as ``/dev/zero``, whose size says 0 and whose bytes never end. So the path is looked at
    first (no device is even opened), the file is opened without waiting (``O_NONBLOCK``),
    what was opened is looked at (``fstat`` of the descriptor: the path may have changed in
    between), a size over the bound is refused before a byte is read (a sparse file of 10 GB
    costs nothing), and however long it grows while it is read, no more than the bound and
    one byte is read. Reads stay non-blocking: a "regular" file that would block (``/proc/
    kmsg``) fails at once (``BlockingIOError``) rather than stall. (A FUSE file system that
    stalls without honouring ``O_NONBLOCK`` can still hold the reading thread.)

    >>> try:
    ...     read_regular(Path("/dev/zero"), 10)
    ... except NotRegular:
    ...     print("refused")
    refused
    """
    fd = _open_regular(path, follow=True)
    try:
        status = os.fstat(fd)
        if status.st_size > limit:
            raise TooLarge(str(path))
        chunks = [os.read(fd, min(status.st_size, limit) + 1)]
        size = len(chunks[0])
        while chunks[-1] and size <= limit:  # the file grew since fstat
            chunks.append(os.read(fd, min(1 << 20, limit + 1 - size)))
            size += len(chunks[-1])
    finally:
        os.close(fd)
    if size > limit:
        raise TooLarge(str(path))
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def read_log_bytes(path: Path) -> bytes:
    """The bytes of the log file at *path*: at most :data:`MAX_LOG_BYTES`, from a regular
    file only (:class:`NotALog` otherwise, in one sentence), read by :func:`read_regular`.

    >>> try:
    ...     read_log_bytes(Path("/dev/zero"))
    ... except NotALog as error:
    ...     print(error)
    /dev/zero is not a regular file: not a match log
    """
    path = Path(path)
    try:
        return read_regular(path, MAX_LOG_BYTES)
    except (OSError, ValueError) as error:
        raise _not_a_log(path, error) from None


def _open_regular(path: Path, *, follow: bool) -> int:
    """A descriptor open for reading on the regular file at *path*, opened without waiting
    (the one way :func:`read_regular` and :func:`log_in_use` open a file anyone may have put
    there): the path is looked at first, so no device is even opened, and what was opened
    is looked at again (the path may have changed in between). With *follow* False, a link
    is refused too. Raises :class:`NotRegular`, :class:`OSError`, or :class:`ValueError` (a
    NUL in the path)."""
    if not stat.S_ISREG(os.stat(path, follow_symlinks=follow).st_mode):
        raise NotRegular(str(path))
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
    fd = os.open(path, flags if follow else flags | os.O_NOFOLLOW)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # what was opened
            raise NotRegular(str(path))
    except BaseException:
        os.close(fd)
        raise
    return fd


def _not_a_log(path: Path, error: OSError | ValueError) -> NotALog:
    """Why the file at *path* cannot be a log, as :func:`read_log` says it: *error* from
    :func:`read_regular` or :func:`_open_regular`."""
    if isinstance(error, NotRegular):
        return NotALog(Clause.of(N_("{path} is not a regular file: not a match log"),
                                 path=str(path)))  # fmt: skip
    if isinstance(error, TooLarge):
        return NotALog(Clause.of(N_("{path} is over {size} bytes: too large to be a match log"),
                                 path=str(path), size=MAX_LOG_BYTES))  # fmt: skip
    if isinstance(error, OSError):
        return NotALog(Clause.of(N_("cannot read {path}: {reason}"), path=str(path),
                                 reason=os_reason(error)))  # fmt: skip
    no_nul = Clause.of(N_("a file's name holds no NUL character"))  # what a ValueError is here
    return NotALog(Clause.of(N_("cannot read {path}: {reason}"), path=repr(str(path)),
                             reason=no_nul))  # fmt: skip


def parse_log(data: bytes, *, name: str | None = None) -> LogContents:
    """Like :func:`read_log`, for bytes already in memory (*name*: the file's, if any).

    Bounded whatever *data* holds: the header is decoded from its first
    :data:`MAX_HEADER_BYTES` only, and each record is framed by its own length, refused
    beyond :data:`~protocol.codec.MAX_MESSAGE_BYTES` before any of it is touched (a record is
    a signed wire message): no object is built but the header's and the records' bytes.
    """
    header_limits = Limits(MAX_HEADER_BYTES, MAX_STR_LEN, MAX_BIN_LEN, MAX_ARRAY_LEN, MAX_MAP_LEN)
    unpacker = msgpack.Unpacker(**header_limits.options())
    unpacker.feed(memoryview(data)[:MAX_HEADER_BYTES])
    try:
        setup = _read_header(unpacker, data, name)
    except LogError:
        raise
    except Exception as error:  # whatever its type: the header is what this cannot handle
        raise CorruptLog(_bad_header(unhandled(error)), record=None, offset=0) from None
    records: list[bytes] = []
    offsets: list[int] = []
    problem: CorruptLog | None = None
    offset = unpacker.tell()
    size = len(data)
    while offset < size:
        width = _BIN_WIDTH.get(data[offset])
        start = offset + 1 + (width or 0)
        length = int.from_bytes(data[offset + 1 : start], "big")
        if width is None or (start <= size and length > MAX_MESSAGE_BYTES):
            problem = CorruptLog(_GARBLED, record=len(records), offset=offset)
            break
        if start + length > size:
            cut = size - offset
            problem = CorruptLog(Clause.of(plural("truncated: the last {count} byte is an "
                                                  "incomplete record",
                                                  "truncated: the last {count} bytes are an "
                                                  "incomplete record"), cut, count=cut),
                                 record=len(records), offset=offset)  # fmt: skip
            break
        if width != (1 if length < 256 else 2):
            problem = CorruptLog(_NOT_CANONICAL, record=len(records), offset=offset)
            break
        records.append(data[start : start + length])
        offsets.append(offset)
        offset = start + length
    end = size if problem is None else problem.offset
    digest = hashlib.sha256(memoryview(data)[:end]).digest()
    return LogContents(setup, tuple(records), tuple(offsets), problem, end, digest)


_NOT_CANONICAL: Final = Clause.of(N_("not in its one canonical encoding (a shorter msgpack form "
                                     "exists)"))  # fmt: skip
_GARBLED: Final = Clause.of(N_("garbled bytes, not a record"))


def _read_header(unpacker: msgpack.Unpacker, data: bytes, name: str | None) -> MatchSetup:
    if name is None:
        not_a_log = Clause.of(N_("the log is not a Tablier match log"))
    else:
        not_a_log = Clause.of(N_("{name} is not a Tablier match log"), name=name)
    try:
        header = unpacker.unpack()
    except Exception:
        raise NotALog(not_a_log) from None
    if not isinstance(header, list) or len(header) != 4 or header[0] != LOG_FORMAT:
        raise NotALog(not_a_log)
    if pack(header) != data[: unpacker.tell()]:
        raise CorruptLog(_bad_header(_NOT_CANONICAL), record=None, offset=0)
    if header[1] != LOG_VERSION:
        raise CorruptLog(Clause.of(N_("log format version {version}, expected {expected}"),
                                   version=repr(header[1]), expected=LOG_VERSION),
                         record=None, offset=0)  # fmt: skip
    try:
        setup = MatchSetup.from_fields(header[2])
    except ProtocolError as error:
        raise CorruptLog(_bad_header(error.message), record=None, offset=0) from None
    if header[3] != setup.match_id:
        raise CorruptLog(_bad_header(Clause.of(N_("the match id does not match the setup"))),
                         record=None, offset=0)  # fmt: skip
    return setup


def _bad_header(problem: Value) -> Clause:
    return Clause.of(N_("bad header: {problem}"), problem=problem)


def parse_log_path(text: str) -> Path | None:
    """*text* as the path of a log kept in a seat file (written by the program, but the file
    is outside data: anyone may have changed it); None unless it is absolute, at most
    :data:`MAX_LOG_PATH_CHARS` characters, and printable (no NUL, no line break, no escape
    sequence: it is shown in sentences about the log). It may lie anywhere: ``--log`` puts a
    log where its player chose.

    >>> parse_log_path("/home/ada/matches/m.tablier")
    PosixPath('/home/ada/matches/m.tablier')
    >>> [parse_log_path(text) for text in ("m.tablier", "/m\\x1b]2;PWNED\\x07", "/m\\0", "")]
    [None, None, None, None]
    """
    if not 1 <= len(text) <= MAX_LOG_PATH_CHARS or not text.isprintable():
        return None
    path = Path(text)
    return path if path.is_absolute() else None


def default_log_path(setup: MatchSetup, data_dir: Path | None = None) -> Path:
    """``<data dir>/matches/<date>T<time>-<game>-<players>.tablier`` (never an existing file).

    *data_dir* defaults to the XDG data dir (``~/.local/share/tablier``).
    """
    if data_dir is None:
        data_dir = default_data_dir()
    moment = datetime.fromtimestamp(setup.proposal.start_time // 1000, tz=UTC)
    players = "-".join(_slug(name) for name in setup.names)[:80]
    stem = f"{moment:%Y-%m-%dT%H%M%S}-{setup.game}-{players}"
    directory = data_dir / "matches"
    path = directory / f"{stem}{LOG_SUFFIX}"
    counter = 2
    while path.exists():
        path = directory / f"{stem}-{counter}{LOG_SUFFIX}"
        counter += 1
    return path


def default_data_dir() -> Path:
    """``~/.local/share/tablier`` on Linux (platformdirs' user data dir)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("tablier"))


def _slug(name: str) -> str:
    """*name* for a file name: accents dropped ("Élise" → "elise", not "lise")."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "_", plain.lower()).strip("_") or "player"
