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

from engine.clause import ENGLISH, N_, Clause, Words, plural
from protocol.clock import duration
from protocol.errors import ProtocolError
from protocol.gate import signed_by_its_seat
from protocol.logfile import LogContents
from protocol.messages import Chat, Claim, GameMessage, Play, Resign, Seen, Share, decode_message
from protocol.progress import first_digest, next_digest
from protocol.verify import when


@dataclass(frozen=True, slots=True)
class Comparison:
    """What two logs of one match say against each other; ``agree`` when nothing."""

    agree: bool
    lines: tuple[Clause, ...]
    parted_at: int | None = None  # the first record where they differ
    liars: tuple[int, ...] = ()  # seats that signed both sides

    def summary(self, words: Words = ENGLISH) -> str:
        """What ``tablier verify`` prints of the comparison, in the language of *words*."""
        return "\n".join(line.say(words) for line in self.lines)


def compare(first: LogContents, second: LogContents) -> Comparison:
    """Compare two logs, both parsed (each is verified on its own by :mod:`protocol.verify`)."""
    say = Clause.of
    if first.setup.match_id != second.setup.match_id:
        return Comparison(False, (say(N_("these are logs of two different matches")),))
    names = first.setup.names
    a, b = first.records, second.records
    common = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
    if common is None:
        if len(a) == len(b):
            same = plural(
                "agree: the same {count} record, byte for byte",
                "agree: the same {count} records, byte for byte",
            )
            return Comparison(True, (say(same, len(a), count=len(a)),))
        extra, stop = abs(len(a) - len(b)), min(len(a), len(b)) - 1
        if len(a) < len(b):
            agree = plural("agree: the second log is the first with {extra} more record "
                           "(the first stops after record {record})",
                           "agree: the second log is the first with {extra} more records "
                           "(the first stops after record {record})")  # fmt: skip
        else:
            agree = plural("agree: the first log is the second with {extra} more record "
                           "(the second stops after record {record})",
                           "agree: the first log is the second with {extra} more records "
                           "(the second stops after record {record})")  # fmt: skip
        return Comparison(True, (say(agree, extra, extra=extra, record=stop),))
    lines = [
        say(N_("the logs part at record {record}:"), record=common),
        say(N_("  first:  {record}"), record=_describe(a[common], names)),
        say(N_("  second: {record}"), record=_describe(b[common], names)),
    ]
    game_a, game_b = _game(a), _game(b)
    split = next(
        (p for p, (x, y) in enumerate(zip(game_a, game_b, strict=False)) if x[1] != y[1]), None
    )
    liars: list[int] = []
    twice = _signed_twice(first, second)
    for seat, name in enumerate(names):
        if seat in twice:
            (k_a, raw_a), (k_b, raw_b) = twice[seat]
            liars.append(seat)
            lines.append(say(
                N_("{name} signed two different records for one place: {first} (first log, "
                   "record {first_record}) and {second} (second log, record "
                   "{second_record}) — the match allows one, so one of them is a lie"),
                name=name, first=_describe(raw_a, names), first_record=k_a,
                second=_describe(raw_b, names), second_record=k_b,
            ))  # fmt: skip
    if split is None and len(game_a) == len(game_b):
        if not liars:
            lines.append(say(N_("the game records are the same in both: only chat lines sit in "
                                "other places (the relay gave the two players different "
                                "orders)")))  # fmt: skip
        return Comparison(False, tuple(lines), common, tuple(liars))
    split = min(len(game_a), len(game_b)) if split is None else split
    for seat, name in enumerate(names):
        if seat in twice:
            continue
        mine_a = _committed(first, game_a, split, seat)
        mine_b = _committed(second, game_b, split, seat)
        pair = next(
            ((x, y) for x, past_x in mine_a for y, past_y in mine_b
             if a[x] != b[y] and (past_x or past_y)),
            None,
        )  # fmt: skip
        if pair is not None:
            liars.append(seat)
            lines.append(say(
                N_("{name} signed both: {first} (first log, record {first_record}) and "
                   "{second} (second log, record {second_record}), each after a different "
                   "match — one of them is a lie"),
                name=name, first=_describe(a[pair[0]], names), first_record=pair[0],
                second=_describe(b[pair[1]], names), second_record=pair[1],
            ))  # fmt: skip
    if not liars:
        lines.append(say(N_("no player signed both sides, so neither log proves the other "
                            "wrong (the relay may have given the two players different "
                            "orders)")))  # fmt: skip
        lines.extend(_claim_against_answer(game_a, game_b, split, names))
    return Comparison(False, tuple(lines), common, tuple(sorted(liars)))


def _signed_twice(
    first: LogContents, second: LogContents
) -> dict[int, tuple[tuple[int, bytes], tuple[int, bytes]]]:
    """The seats that signed two different records for one numbered place — a dice share,
    a play or a chat line with the same index (the live session stops the match on the
    second, protocol.referee): for each, the first such pair (index and bytes in each log).

    Only records whose seat is in the match and whose signature holds count: a record
    altered by whoever holds a log proves nothing against its seat."""
    numbered: dict[tuple[int, int, int], tuple[int, bytes]] = {}
    for k, raw in enumerate(first.records):
        message = _decode(raw)
        if _numbered(message) and _signed(first, message):
            assert message is not None
            numbered.setdefault((message.KIND, message.seat, message.n), (k, raw))
    found: dict[int, tuple[tuple[int, bytes], tuple[int, bytes]]] = {}
    for k, raw in enumerate(second.records):
        message = _decode(raw)
        if message is None or not _numbered(message) or message.seat in found:
            continue
        mine = numbered.get((message.KIND, message.seat, message.n))
        if mine is not None and mine[1] != raw and _signed(second, message):
            found[message.seat] = (mine, (k, raw))
    return found


def _numbered(message: GameMessage | None) -> bool:
    """Whether *message* holds a numbered place of its seat: one record each, by the rules."""
    return isinstance(message, Share | Play | Chat)


def _signed(contents: LogContents, message: GameMessage | None) -> bool:
    """Whether *message* names a seat of the match and that seat's key signed it."""
    return (
        message is not None
        and 0 <= message.seat < contents.setup.seats
        and signed_by_its_seat(contents.setup, message)
    )


def _claim_against_answer(
    game_a: list[tuple[int, bytes]],
    game_b: list[tuple[int, bytes]],
    split: int,
    names: tuple[str, ...],
) -> list[Clause]:
    """Where one side claims a seat abandoned and the other holds that seat's answer there:
    what each is dated (by its own signer), which only the relay's order could settle."""
    for mine, theirs in ((game_a, game_b), (game_b, game_a)):
        claim = _decode(mine[split][1]) if split < len(mine) else None
        answer = _decode(theirs[split][1]) if split < len(theirs) else None
        if (
            isinstance(claim, Claim)
            and answer is not None
            and answer.seat == claim.accused
            and max(claim.seat, claim.accused) < len(names)  # records no check has passed
        ):
            ahead = claim.time - answer.time
            if ahead > 0:
                return [Clause.of(
                    N_("{answerer}'s record there is dated {ahead} before the time {claimant} "
                       "says their time was up"),
                    answerer=names[answer.seat], ahead=duration(ahead),
                    claimant=names[claim.seat],
                )]  # fmt: skip
    return []


def _game(records: tuple[bytes, ...]) -> list[tuple[int, bytes]]:
    """The game records (every kind but chat), with their indices in the log."""
    return [(k, raw) for k, raw in enumerate(records) if not isinstance(_decode(raw), Chat)]


def _committed(
    contents: LogContents, game: list[tuple[int, bytes]], split: int, seat: int
) -> list[tuple[int, bool]]:
    """The indices of *seat*'s records in *game* that prove it signed this side of *split*,
    each with whether its history holds this log's record at the split.

    A record proves that only if *seat* signed it (its signature holds: a record altered by
    whoever holds the log proves nothing against its seat) and it commits to this log's
    history past the split: its history is this log's, longer than *split* records — or, for
    a claim, exactly *split* records, since a claim says no record came after those. A
    resignation dated back to before the split commits to nothing after it. Two claims of
    one history do not part: a seat is named only when one of its two records holds a record
    at the split the other log does not have there.
    """
    digest, place = first_digest(contents.setup.match_id), {}
    for position, (_k, raw) in enumerate(game):
        place[digest] = position
        digest = next_digest(digest, raw)
    found = []
    for position, (k, raw) in enumerate(game[split:], start=split):
        message = _decode(raw)
        if message is None or isinstance(message, Chat) or message.seat != seat:
            continue
        covers = place.get(message.history)
        if covers is None or covers > position:
            continue  # a history this log does not hold there
        if (covers > split or (covers == split and isinstance(message, Claim))) and (
            _signed(contents, message)
        ):
            found.append((k, covers > split))
    return found


def _decode(raw: bytes) -> GameMessage | None:
    try:
        return decode_message(raw)
    except ProtocolError:
        return None


def _describe(raw: bytes, names: tuple[str, ...]) -> Clause:
    say = Clause.of
    message = _decode(raw)
    if message is None or message.seat >= len(names):
        return say(N_("bytes that are not a record"))
    name = names[message.seat]
    match message:
        case Share(n=n):
            what = say(N_("{name}'s dice share for throw {throw}"), name=name, throw=n)
        case Play(notation=notation):
            what = say(N_("{name}'s play {play}"), name=name, play=notation)
        case Chat():
            what = say(N_("{name}'s chat line {line}"), name=name, line=message.n)
        case Resign():
            what = say(N_("{name}'s resignation"), name=name)
        case Claim(accused=accused):
            if accused < len(names):
                what = say(N_("{name}'s claim that {accused} abandoned"), name=name,
                           accused=names[accused])  # fmt: skip
            else:
                what = say(N_("{name}'s claim that seat {seat} abandoned"), name=name,
                           seat=accused)  # fmt: skip
        case Seen():
            what = say(N_("{name}'s word that they saw their turn"), name=name)
    return say(N_("{what}, dated {date}"), what=what, date=when(message.time))
