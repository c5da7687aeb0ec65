"""Two players' logs of one match, side by side: where they part, and who signed both sides.

Honest copies of a match log are byte-identical, or one is the other cut short (its writer
left earlier). When two copies part, :func:`compare` names the first record where they do
and what each holds there; and since every signed game record commits to the history before
it (docs/fair-dice.md), a seat that signed game records on both sides of the parting signed
two incompatible matches — which proves that seat lied on one side: an abandonment claim, say,
and then a record that answers the move it claims never came.

>>> from protocol.selfplay import selfplay
>>> from protocol.logfile import parse_log
>>> match = selfplay("goose", {}, seed="compare-doc", start_time=0)
>>> whole = parse_log(match.log_bytes())
>>> cut = parse_log(match.log_bytes()[: whole.offsets[4]])
>>> print(compare(cut, whole).summary())
agree: the second log is the first with 60 more records (the first stops after record 3)
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.clock import seconds
from protocol.errors import ProtocolError
from protocol.logfile import LogContents
from protocol.messages import Chat, Claim, GameMessage, Play, Resign, Seen, Share, decode_message
from protocol.verify import when


@dataclass(frozen=True, slots=True)
class Comparison:
    """What two logs of one match say against each other; ``agree`` when nothing."""

    agree: bool
    lines: tuple[str, ...]
    parted_at: int | None = None  # the first record where they differ
    liars: tuple[int, ...] = ()  # seats that signed both sides

    def summary(self) -> str:
        return "\n".join(self.lines)


def compare(first: LogContents, second: LogContents) -> Comparison:
    """Compare two logs, both parsed (each is verified on its own by :mod:`protocol.verify`)."""
    if first.setup.match_id != second.setup.match_id:
        return Comparison(False, ("these are logs of two different matches",))
    names = first.setup.names
    a, b = first.records, second.records
    common = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
    if common is None:
        if len(a) == len(b):
            return Comparison(True, (f"agree: the same {len(a)} records, byte for byte",))
        shorter, longer = ("first", "second") if len(a) < len(b) else ("second", "first")
        extra, stop = abs(len(a) - len(b)), min(len(a), len(b)) - 1
        return Comparison(True, (
            f"agree: the {longer} log is the {shorter} with {extra} more records "
            f"(the {shorter} stops after record {stop})",
        ))  # fmt: skip
    lines = [
        f"the logs part at record {common}:",
        f"  first:  {_describe(a[common], names)}",
        f"  second: {_describe(b[common], names)}",
    ]
    game_a, game_b = _game(a), _game(b)
    split = next(
        (p for p, (x, y) in enumerate(zip(game_a, game_b, strict=False)) if x[1] != y[1]), None
    )
    if split is None and len(game_a) == len(game_b):
        lines.append(
            "the game records are the same in both: only chat lines sit in other places "
            "(the relay gave the two players different orders)"
        )
        return Comparison(False, tuple(lines), common)
    split = min(len(game_a), len(game_b)) if split is None else split
    liars: list[int] = []
    for seat, name in enumerate(names):
        mine_a = [k for k, raw in game_a[split:] if _seat(raw) == seat]
        mine_b = [k for k, raw in game_b[split:] if _seat(raw) == seat]
        if mine_a and mine_b:
            liars.append(seat)
            lines.append(
                f"{name} signed both: {_describe(a[mine_a[0]], names)} (first log, record "
                f"{mine_a[0]}) and {_describe(b[mine_b[0]], names)} (second log, record "
                f"{mine_b[0]}), each after a different match — one of them is a lie"
            )
    if not liars:
        lines.append(
            "no player signed both sides, so neither log proves the other wrong (the relay "
            "may have given the two players different orders)"
        )
        lines.extend(_claim_against_answer(game_a, game_b, split, names))
    return Comparison(False, tuple(lines), common, tuple(liars))


def _claim_against_answer(
    game_a: list[tuple[int, bytes]],
    game_b: list[tuple[int, bytes]],
    split: int,
    names: tuple[str, ...],
) -> list[str]:
    """Where one side claims a seat abandoned and the other holds that seat's answer there:
    what each is dated (by its own signer), which only the relay's order could settle."""
    for mine, theirs in ((game_a, game_b), (game_b, game_a)):
        claim = _decode(mine[split][1]) if split < len(mine) else None
        answer = _decode(theirs[split][1]) if split < len(theirs) else None
        if isinstance(claim, Claim) and answer is not None and answer.seat == claim.accused:
            ahead = claim.time - answer.time
            if ahead > 0:
                return [
                    f"{names[answer.seat]}'s record there is dated {seconds(ahead)} before "
                    f"the time {names[claim.seat]} says their time was up"
                ]
    return []


def _game(records: tuple[bytes, ...]) -> list[tuple[int, bytes]]:
    """The game records (every kind but chat), with their indices in the log."""
    return [(k, raw) for k, raw in enumerate(records) if not isinstance(_decode(raw), Chat)]


def _seat(raw: bytes) -> int | None:
    message = _decode(raw)
    return None if message is None else message.seat


def _decode(raw: bytes) -> GameMessage | None:
    try:
        return decode_message(raw)
    except ProtocolError:
        return None


def _describe(raw: bytes, names: tuple[str, ...]) -> str:
    message = _decode(raw)
    if message is None or message.seat >= len(names):
        return "bytes that are not a record"
    name = names[message.seat]
    match message:
        case Share(n=n):
            what = f"{name}'s dice share for throw {n}"
        case Play(notation=notation):
            what = f"{name}'s play {notation}"
        case Chat():
            what = f"{name}'s chat line {message.n}"
        case Resign():
            what = f"{name}'s resignation"
        case Claim(accused=accused):
            accused_name = names[accused] if accused < len(names) else f"seat {accused}"
            what = f"{name}'s claim that {accused_name} abandoned"
        case Seen():
            what = f"{name}'s word that they saw their turn"
    return f"{what}, dated {when(message.time)}"
