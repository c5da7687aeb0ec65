"""Hostile match logs: signed with real keys and chains, built on extreme values.

Most are built on the extremes *within* the protocol's bounds (:mod:`protocol.bounds`:
an ante of 1000, a start a day before the end of time, names the name rule just takes), so
that their header is read and their records are replayed; the rest on values beyond them
(2^63, a start time past year 9999, a filler for a name), which the header's parse refuses.

A :class:`Recipe` says what a hostile writer chose — the proposal's options, seats, times
and names (the :class:`~protocol.setup.Proposal` built by its constructor, past
``Proposal.create``'s checks; every join signed by its player's real key), how long the
honest sessions play, which extra records he signs (any seat, any index, any time, any
text), and what he then does to the file: records dropped, duplicated, swapped or cut,
bytes flipped, the tail truncated. :func:`build` makes the log's bytes; :func:`recipes` is
the Hypothesis strategy that generates them. Used by ``tests/protocol/test_hostile_logs.py``
(a quick run in the suite) and ``scripts/fuzz_logs.py`` (the long one).
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from engine.awaiting import ChoosePlay, ThrowDice
from engine.goose.options import MAX_ANTE, MAX_FEE
from engine.jacquet.game import MAX_MATCH_TO
from protocol.bounds import MAX_TIME
from protocol.chain import HashChain
from protocol.identity import Identity, seeded_source
from protocol.logfile import encode_log
from protocol.messages import Chat, Claim, GameMessage, Play, Resign, Seen, Share, seal
from protocol.names import name_problem
from protocol.session import MatchSession
from protocol.setup import Join, MatchSetup, Proposal

EXTREMES = (0, -1, 1, 2, 3, 2**31 - 1, 2**31, 2**32, 2**62, 2**63 - 1, 2**63, 2**64 - 1,
            -(2**31), -(2**63))  # fmt: skip
"""The integers a hostile writer tries first (msgpack holds nothing beyond 2^64-1 or
below -2^63: no file can carry them)."""
NOW = 1_764_500_000_000  # December 2025, in ms
DAY = 86_400_000
TIMES = (0, 1, NOW, NOW + 10 * 365 * DAY, MAX_TIME - DAY, MAX_TIME, MAX_TIME + 1, 2**53, 2**62,
         2**63 - 10**6, 2**63 - 1)  # fmt: skip
"""Start times and record times: the first six within :data:`~protocol.bounds.MAX_TIME`."""
IN_BOUNDS_TIMES = tuple(time for time in TIMES if time <= MAX_TIME)
ODD_NAMES = ("ㅤ", "⠀", "e\u0301\u0301\u0301\u0301", "\ufdfd" * 32, "\u202eevil", "a\u200db",
             "[b]x[/b]", "Ada", "ada", "\U0001d504da", "\U0010fffd", "x" * 33, "", " ", "a\nb",
             "\x00", "e\u0301\u0301\u0301", "\ufdfd", "山田太郎", "\u05d3\u05d5\u05d3",
             "\u0634\u0645\u0633", "\uff26\uff55\uff4c\uff4c")  # fmt: skip
"""Names a hostile writer tries: fillers, stacked marks, the widest character, bidi
controls, markup, look-alikes, too long, empty, control characters."""
VALID_ODD_NAMES = tuple(name for name in ODD_NAMES if name_problem(name) is None)
"""The odd names the name rule takes (three stacked marks, U+FDFD, a wide CJK name, Hebrew
and Arabic, markup-looking text as plain text, look-alike letters): the header is read."""
IN_BOUNDS = {"ante": (0, 1, MAX_ANTE - 1, MAX_ANTE), "fee": (0, 1, MAX_FEE - 1, MAX_FEE),
             "match_to": (1, 2, MAX_MATCH_TO - 1, MAX_MATCH_TO)}  # fmt: skip
"""Each numeric option's extremes within its bound."""
TEXTS = ("gg", "\u202e" * 5, "[@click=app.quit]", "x" * 500, "x" * 501, "\x1b[2J", "", "ⅳ")
OPTION_NAMES = {
    "goose": ("ante", "fee", "rules"),
    "jacquet": ("match_to", "bearoff", "coach"),
}
OPTION_WORDS = ("daumont", "1792", "backgammon", "no", "", "x" * 70, "ⅳ")


@dataclass(frozen=True)
class Forged:
    """One extra record the writer signs: ``kind`` (share, play, chat, resign, claim,
    seen), the seat it names (its key signs it, or seat 0's when there is no such seat),
    its index, its time, one more number (the accused, a renewal), a text, and whether it
    carries the real history so far (else zeros)."""

    kind: str
    seat: int
    n: int
    time: int
    number: int
    text: str
    history: bool


@dataclass(frozen=True)
class Recipe:
    game: str
    options: tuple[tuple[str, Any], ...]
    seats: int
    players: int
    time_limit_ms: int
    start_time: int
    names: tuple[str, ...]
    turns: int
    step_ms: int
    forged: tuple[Forged, ...]
    edits: tuple[tuple[str, int, int], ...]
    flips: tuple[tuple[int, int], ...]
    cut: int


@dataclass(frozen=True)
class Built:
    """A hostile log's bytes, and the secrets that signed it (each seat's private key and
    dice chain seed: what a local seat file keeps)."""

    data: bytes
    keys: tuple[bytes, ...]
    chain_seeds: tuple[bytes, ...]
    match_id: bytes


def build(recipe: Recipe) -> bytes:
    """The log's bytes (a header, honest records, forged ones, edits, flips, a cut)."""
    return build_with_secrets(recipe).data


def build_with_secrets(recipe: Recipe) -> Built:
    source = seeded_source(f"hostile {recipe.game} {recipe.seats} {recipe.players}")
    proposal = Proposal(recipe.game, recipe.options, recipe.seats, recipe.time_limit_ms,
                        recipe.start_time, source(16))  # fmt: skip
    keys = [Identity.generate(source) for _ in range(recipe.players)]
    seeds = [source(32) for _ in range(recipe.players)]
    chains = [HashChain.from_seed(seed) for seed in seeds]
    names = [recipe.names[seat % len(recipe.names)] for seat in range(recipe.players)]
    joins = zip(keys, names, chains, strict=True)
    setup = MatchSetup(proposal, tuple(_join(proposal, *join[:2], join[2].tip) for join in joins))
    records, history = _honest(setup, keys, chains, recipe)
    for forged in recipe.forged:
        records.append(_forge(setup, keys, forged, history))
    for edit, first, second in recipe.edits:
        records = _edit(records, edit, first, second)
    data = bytearray(encode_log(setup, records))
    for position, xor in recipe.flips:
        data[position % len(data)] ^= xor or 1
    cut = bytes(data[: len(data) - recipe.cut % max(len(data), 1)])
    secrets = tuple(key.private_bytes() for key in keys), tuple(seeds)
    return Built(cut, *secrets, setup.match_id)


def _join(proposal: Proposal, key: Identity, name: str, tip: bytes) -> Join:
    """A join signed by *key*, whatever *name* is (``Join.create`` checks it: not here)."""
    unsigned = Join(proposal.digest, name, key.public_key, tip, b"")
    return Join(proposal.digest, name, key.public_key, tip, key.sign(unsigned.signed_data()))


def _honest(
    setup: MatchSetup, keys: Sequence[Identity], chains: Sequence[HashChain], recipe: Recipe
) -> tuple[list[bytes], bytes]:
    """The records honest sessions sign over ``recipe.turns`` actions (as seat 0 logs them,
    then whatever else was signed), and the history after them. Where the engine itself
    cannot go on (an ante it cannot hold), the thrower's share is signed by hand."""
    if recipe.players != recipe.seats or not 2 <= recipe.seats <= 15:
        return [], bytes(32)
    source = seeded_source("hostile play")
    try:
        sessions = [MatchSession(setup, seat=seat, identity=keys[seat], chain=chains[seat],
                                 random_source=source) for seat in range(recipe.seats)]  # fmt: skip
    except Exception:
        return [], bytes(32)
    signed: list[bytes] = []
    now = recipe.start_time
    watcher = sessions[0]
    with contextlib.suppress(Exception):
        for turn in range(recipe.turns):
            awaiting = watcher.awaiting
            if isinstance(awaiting, ThrowDice):
                try:
                    sessions[awaiting.seat].throw(now)
                except Exception:
                    signed.append(_share_by_hand(watcher, keys, chains, awaiting.seat, now))
                    break
            elif isinstance(awaiting, ChoosePlay):
                plays = sessions[awaiting.seat].state.legal_plays()  # type: ignore[union-attr]
                sessions[awaiting.seat].play(plays[turn % len(plays)], now)
            else:
                break
            _deliver(sessions, signed, now)
            now += recipe.step_ms
    for session in sessions:
        signed.extend(session.data_to_send())
    records = list(watcher.records)
    records += [raw for raw in signed if raw not in records]
    try:
        history = watcher.progress.digest
    except Exception:
        history = bytes(32)
    return records, history


def _deliver(sessions: Sequence[MatchSession], signed: list[bytes], now: int) -> None:
    queue = [(seat, raw) for seat, session in enumerate(sessions) for raw in session.data_to_send()]
    while queue:
        sender, raw = queue.pop(0)
        signed.append(raw)
        for receiver, session in enumerate(sessions):
            if receiver != sender:
                session.receive_bytes(raw, now)
                queue.extend((receiver, out) for out in session.data_to_send())


def _share_by_hand(
    watcher: MatchSession, keys: Sequence[Identity], chains: Sequence[HashChain], seat: int,
    now: int,
) -> bytes:  # fmt: skip
    from protocol.messages import decode_message

    revealed = sum(1 for raw in watcher.records
                   if isinstance(m := decode_message(raw), Share) and m.seat == seat)  # fmt: skip
    share = Share(seat, watcher.throw_index, now, chains[seat].link(revealed), None, b"",
                  bytes(32), watcher.progress.share_history())  # fmt: skip
    return seal(share, keys[seat], watcher.setup.match_id).encode()


def _forge(setup: MatchSetup, keys: Sequence[Identity], forged: Forged, history: bytes) -> bytes:
    seat, n, time = forged.seat, forged.n, forged.time
    digest = history if forged.history else bytes(32)
    message: GameMessage
    match forged.kind:
        case "share":
            renew = None if forged.number % 2 else bytes(32)
            message = Share(seat, n, time, bytes(32), renew, b"", None, digest)
        case "play":
            message = Play(seat, n, time, forged.text or "1/7", bytes(32), b"", digest)
        case "chat":
            message = Chat(seat, n, time, forged.text, b"")
        case "resign":
            message = Resign(seat, n, time, b"", digest)
        case "claim":
            message = Claim(seat, n, time, forged.number, b"", digest)
        case _:
            message = Seen(seat, n, time, b"", digest)
    key = keys[seat] if 0 <= seat < len(keys) else keys[0]
    try:
        return seal(message, key, setup.match_id).encode()
    except Exception:  # a value msgpack cannot hold: the writer signs what it can
        return seal(Chat(0, 0, 0, "x", b""), keys[0], setup.match_id).encode()


def _edit(records: list[bytes], edit: str, first: int, second: int) -> list[bytes]:
    if not records:
        return records
    first, second = first % len(records), second % len(records)
    records = list(records)
    if edit == "drop":
        del records[first]
    elif edit == "duplicate":
        records.insert(second, records[first])
    elif edit == "swap":
        records[first], records[second] = records[second], records[first]
    else:  # "cut": the records after *first* go
        del records[first:]
    return records


def _option_value(name: str, hostile: bool) -> st.SearchStrategy[Any]:
    if name in ("rules", "bearoff"):
        words = ("daumont", "1792") if name == "rules" else ("backgammon", "trictrac")
        if not hostile:
            return st.sampled_from(words)
        return st.one_of(st.sampled_from(words + OPTION_WORDS), st.sampled_from(EXTREMES))
    if name == "coach" and not hostile:
        return st.just(1)
    if not hostile:  # an extreme within the bound: the header is read, the replay goes on
        return st.one_of(st.sampled_from(IN_BOUNDS[name]), st.integers(1, 40))
    return st.one_of(st.sampled_from(EXTREMES), st.integers(-3, 40))


@st.composite
def _options(draw: st.DrawFn, game: str, hostile: bool) -> tuple[tuple[str, Any], ...]:
    chosen = draw(st.lists(st.sampled_from(OPTION_NAMES[game]), unique=True, max_size=3))
    if hostile and draw(st.integers(0, 3)) == 0:
        chosen.append(draw(st.sampled_from(("x", "ante", "match_to", "zz"))))
        chosen = sorted(set(chosen))
    return tuple(sorted((name, draw(_option_value(name, hostile))) for name in chosen))


def _numbers() -> st.SearchStrategy[int]:
    return st.one_of(st.sampled_from(EXTREMES), st.integers(0, 40))


_forged = st.builds(
    Forged,
    kind=st.sampled_from(("share", "play", "chat", "resign", "claim", "seen")),
    seat=st.one_of(st.integers(0, 3), st.sampled_from((15, 16, 255, 256, -1, 2**31))),
    n=_numbers(),
    time=st.one_of(st.sampled_from(TIMES), st.sampled_from(EXTREMES)),
    number=_numbers(),
    text=st.one_of(st.sampled_from(TEXTS), st.text(max_size=8)),
    history=st.booleans(),
)


_edits = st.tuples(st.sampled_from(("drop", "duplicate", "swap", "cut")), st.integers(0, 200),
                   st.integers(0, 200))  # fmt: skip
_flips = st.tuples(st.integers(0, 10**6), st.integers(0, 255))


@st.composite
def recipes(draw: st.DrawFn, max_turns: int = 12) -> Recipe:
    """Hostile logs, every value drawn first from the extremes. Three in four are drawn
    with a header a parser accepts (seats, limit, names, option names as a real match has
    them; the option values, start time and names at the extremes within their bounds), so
    that the records are reached (flips and cuts spoil some: about two in three are read);
    the fourth is hostile from its header on (beyond the bounds)."""
    game = draw(st.sampled_from(("goose", "jacquet")))
    hostile = draw(st.integers(0, 7)) in (5, 6)  # not 0: Hypothesis draws it most
    if not hostile:
        seats = 2 if game == "jacquet" else draw(st.integers(2, 5))
        limit = draw(st.sampled_from((30_000, 60_000, 86_400_000)))
        players = seats
        names = tuple(f"{draw(st.sampled_from(VALID_ODD_NAMES))}{seat}" for seat in range(seats))
    else:
        seats = draw(st.one_of(st.sampled_from((0, 1, 3, 15, 16, 2**31, -1)), st.integers(2, 15)))
        limit = draw(st.sampled_from((0, -1, 29_999, 86_400_001, 2**63 - 1, 60_000)))
        players = seats if draw(st.integers(0, 9)) else draw(st.integers(1, 4))
        players = max(1, min(players, 15))
        names = tuple(draw(st.lists(st.one_of(st.sampled_from(ODD_NAMES), st.text(max_size=6)),
                                    min_size=1, max_size=3)))  # fmt: skip
        if len(set(names)) < len(names) or draw(st.booleans()):
            names = tuple(f"{name}{seat}" for seat, name in enumerate(names))
    recipe = Recipe(
        game=game,
        options=draw(_options(game, hostile)),
        seats=seats,
        players=players,
        time_limit_ms=limit,
        start_time=draw(st.sampled_from(TIMES if hostile else IN_BOUNDS_TIMES)),
        names=names,
        turns=draw(st.integers(0, max_turns)),
        step_ms=draw(st.sampled_from((0, 1, 1000, 10**9, 2**62))),
        forged=tuple(draw(st.lists(_forged, max_size=3))),
        edits=tuple(draw(st.lists(_edits, max_size=2))),
        flips=tuple(draw(st.lists(_flips, max_size=draw(st.sampled_from((0, 0, 0, 1, 3)))))),
        cut=draw(st.sampled_from((0, 0, 0, 1, 7, 100))),
    )
    if draw(st.integers(0, 2)) == 0:  # one in three: only the extreme values, well signed
        recipe = replace(recipe, forged=(), edits=(), flips=(), cut=0)
    return recipe


# ----------------------------------------------------------------- the invariants

COMMANDS: dict[str, tuple[tuple[str, ...], frozenset[int]]] = {
    "verify": (("verify",), frozenset({0, 1, 2, 3})),
    "export-json": (("log", "export", "--format", "json"), frozenset({0, 1, 2})),
    "export-text": (("log", "export", "--format", "text"), frozenset({0, 1, 2})),
    "analyze": (("analyze", "--plies", "1", "--out", "-"), frozenset({0, 1, 2})),
    "replay": (("replay",), frozenset({1, 2})),  # 2 as well: no terminal in a test
    "verify-two": (("verify",), frozenset({0, 1, 2, 3})),  # the log and its first half
}
"""Each log command, its arguments before the log's path, and its documented statuses."""


def command_line(command: str, path: Path) -> list[str]:
    """The arguments of *command* on the log at *path* (``verify-two``: and on its first
    half, written beside it, as another player's copy cut short or forged)."""
    argv, _statuses = COMMANDS[command]
    if command != "verify-two":
        return [*argv, str(path)]
    half = path.with_name(f"{path.name}.half.tablier")
    data = path.read_bytes()
    half.write_bytes(data[: len(data) // 2])
    return [*argv, str(path), str(half)]


MAX_ERROR_LINES = 2
"""What a command says on standard error about one log: a line (verify: its verdict and,
for a header it cannot read, nothing else)."""


def run_in_process(argv: Sequence[str]) -> tuple[int | str, str, str]:
    """``tablier ARGV`` through :func:`client.cli.main`: (status, stdout, stderr); the status
    is the name of what it raised, if it raised."""
    from client.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status: int | str = main(list(argv))
        except BaseException as error:  # the invariant's breach: said, not raised
            status = f"raised {type(error).__name__}: {error}"
    return status, out.getvalue(), err.getvalue()


def breaches(command: str, path: Path, status: int | str, out: str, err: str) -> list[str]:
    """What the invariant says is wrong with one command's answer to one log (none: [])."""
    _argv, statuses = COMMANDS[command]
    wrong = []
    if status not in statuses:
        wrong.append(f"{command}: status {status!r}, documented {sorted(statuses)}")
    if "Traceback" in out + err:
        wrong.append(f"{command}: a traceback")
    lines = err.splitlines()
    if len(lines) > MAX_ERROR_LINES:
        wrong.append(f"{command}: {len(lines)} lines on standard error: {err[:300]!r}")
    terminal = "interactive terminal" in err
    if status in (1, 2) and not terminal and str(path) not in err:
        wrong.append(f"{command}: status {status} without naming the file: {err[:300]!r}")
    return wrong


def check_log(path: Path, commands: Sequence[str] = tuple(COMMANDS)) -> dict[str, Any]:
    """Every command on the log at *path*, in process: each one's status and any breach."""
    statuses: dict[str, int | str] = {}
    wrong: list[str] = []
    for command in commands:
        status, out, err = run_in_process(command_line(command, path))
        statuses[command] = status
        wrong += breaches(command, path, status, out, err)
    return {"statuses": statuses, "breaches": wrong}
