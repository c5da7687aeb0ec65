"""Exports of a match log: JSON lines of the decoded records, or a readable transcript.

Both replay the log through a strict spectator session as they go, so what they print is
what the verified match was; a bad record raises :class:`~protocol.errors.CorruptLog`
after everything before it has been printed.

>>> from protocol.selfplay import selfplay
>>> from protocol.logfile import parse_log
>>> match = selfplay("jacquet", {}, seed="export-doc", start_time=0)
>>> lines = list(export_text(parse_log(match.log_bytes())))
>>> lines[0]
'Jacquet, match to 1 point, bear-off backgammon'
>>> lines[-1].endswith("wins the match 1-0") or lines[-1]
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from engine import jacquet
from engine.clause import ENGLISH, N_, Clause, Words, plural
from protocol.events import ChatReceived, DiceRolled, MatchEnded, PlayMade
from protocol.logfile import LogContents
from protocol.messages import Chat, Claim, Play, Resign, Share
from protocol.narrate import narrate, narrate_turns
from protocol.verify import replay


def safe_json(value: Any, *, indent: int | None = None) -> str:
    """*value* as JSON whose every character shows: JSON escapes only the controls below
    U+0020, so a file's name or other outside text could still write U+0080-U+009F (the C1
    controls: U+009B opens an escape sequence, as ESC [ does) or a format character to a
    terminal; every character that is not printable is written as a ``\\u`` escape (the
    same text to a JSON reader).

    >>> print(safe_json({"file": "a\x85\x9b[31mb", "name": "Élise\u200b"}))
    {"file": "a\\u0085\\u009b[31mb", "name": "Élise\\u200b"}
    >>> json.loads(safe_json(["\U000e0001"])) == ["\U000e0001"]
    True
    """
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return "\n".join(
        line if line.isprintable() else "".join(map(_shown, line)) for line in text.split("\n")
    )


def _shown(char: str) -> str:
    """One character of a JSON text, escaped unless printable (or a space between tokens)."""
    if char.isprintable():
        return char
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # beyond the BMP: JSON writes a surrogate pair
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def export_json(contents: LogContents) -> Iterator[str]:
    """One JSON object per line: the header, then each record with what it caused."""
    setup = contents.setup
    proposal = setup.proposal
    yield safe_json({
        "type": "header",
        "game": setup.game,
        "options": dict(proposal.options),
        "players": [
            {"seat": seat, "name": join.name, "public_key": join.public_key.hex(),
             "chain_tip": join.tip.hex()}
            for seat, join in enumerate(setup.joins)
        ],
        "match_id": setup.match_id.hex(),
        "start_time": proposal.start_time,
        "time_limit_ms": proposal.time_limit_ms,
        "dice_derivation": proposal.dice,
    })  # fmt: skip
    names = setup.names
    for step in replay(contents):
        message = step.message
        entry: dict[str, Any] = {
            "type": type(message).__name__.lower(),
            "record": step.index,
            "seat": message.seat,
            "player": names[message.seat],
            "n": message.n,
            "time": message.time,
        }
        match message:
            case Share(link=link, renew=renew):
                entry["link"] = link.hex()
                if renew is not None:
                    entry["renew"] = renew.hex()
            case Play(notation=notation, state_hash=digest):
                entry["play"] = notation
                entry["state_hash"] = digest.hex()
            case Chat(text=text):
                entry["text"] = text
            case Claim(accused=accused):
                entry["accused"] = accused
            case Resign():
                pass
        for event in step.events:
            if isinstance(event, DiceRolled):
                entry["dice"] = list(event.dice)
        said = [str(clause) for clause in map(lambda e: narrate(e, names), step.events) if clause]
        if said:
            entry["narration"] = said
        entry["signature"] = message.signature.hex()
        yield safe_json(entry)


def export_text(contents: LogContents, words: Words = ENGLISH) -> Iterator[str]:
    """A readable transcript in the language of *words*: gnubg-like for Jacquet, one line
    per throw for Goose."""
    if contents.setup.game == "jacquet":
        yield from _jacquet_text(contents, words)
    else:
        yield from _goose_text(contents, words)


def _goose_text(contents: LogContents, words: Words) -> Iterator[str]:
    setup = contents.setup
    options = dict(setup.proposal.options)
    yield Clause.of(N_("Jeu de l'oie, {players} players, rules {rules}, ante {ante}, fee {fee}"),
                    players=setup.seats, rules=str(options.get("rules", "daumont")),
                    ante=options.get("ante", 4), fee=options.get("fee", 1)).say(words)  # fmt: skip
    players = ", ".join(f"{seat + 1}. {name}" for seat, name in enumerate(setup.names))
    yield Clause.of(N_("Players: {players}"), players=players).say(words)
    for step in replay(contents):
        for sentence in narrate_turns(step.events, setup.names):
            yield sentence.say(words)


class _JacquetTranscript:
    """Collects one game's turns into gnubg-like lines: white's column, then black's."""

    WIDTH = 32

    def __init__(self, names: tuple[str, ...], words: Words) -> None:
        self.names = names
        self.words = words
        self.cells: list[str | None] = [None, None]
        self.number = 0
        self.dice: tuple[int, int] | None = None

    def cell(self, seat: int, text: str) -> Iterator[str]:
        if self.cells[seat] is not None or (seat == 0 and self.cells[1] is not None):
            yield from self.flush()
        self.cells[seat] = text
        if seat == 1:
            yield from self.flush()

    def flush(self) -> Iterator[str]:
        if self.cells == [None, None]:
            return
        self.number += 1
        left, right = (cell or "" for cell in self.cells)
        yield f"{self.number:4d}) {left:<{self.WIDTH}}{right}".rstrip()
        self.cells = [None, None]

    def say(self, pattern: str, **fields: str | int) -> str:
        return Clause.of(pattern, **fields).say(self.words)

    def event(self, event: Any) -> Iterator[str]:
        names, say = self.names, self.say
        match event:
            case jacquet.OpeningThrown(game=game, white_die=w, black_die=b, starter=starter):
                thrown: dict[str, str | int] = {"white": names[0], "w": w, "black": names[1],
                                                "b": b}  # fmt: skip
                if starter is None:
                    yield "      " + say(N_("opening: {white} {w}, {black} {b}: a tie, again"),
                                         **thrown)  # fmt: skip
                    return
                yield ""
                yield say(N_("Game {game}"), game=game)
                white = say(N_("{name} (white)"), name=names[0])
                yield f"      {white:<{self.WIDTH}}" + say(N_("{name} (black)"), name=names[1])
                yield "      " + say(N_("opening: {white} {w}, {black} {b}: {starter} starts"),
                                     starter=names[starter], **thrown)  # fmt: skip
                self.number = 0
            case jacquet.Rolled(dice=dice):
                self.dice = dice
            case PlayMade(seat=seat, notation=notation):
                assert self.dice is not None
                yield from self.cell(seat, f"{self.dice[0]}{self.dice[1]}: {notation}")
            case jacquet.Passed(seat=seat, dice=(a, b)):
                yield from self.cell(seat, f"{a}{b}: -")
            case jacquet.GameWon() | jacquet.PostillonBlocked() | jacquet.MatchWon():
                yield from self.flush()
                yield f"      {self._narrate(event)}"
            case ChatReceived() | MatchEnded(reason="resigned" | "abandoned" | "stopped"):
                yield from self.flush()
                yield f"      ({self._narrate(event)})"

    def _narrate(self, event: Any) -> str:
        clause = narrate(event, self.names)
        return "" if clause is None else clause.say(self.words)


def _jacquet_text(contents: LogContents, words: Words) -> Iterator[str]:
    setup = contents.setup
    options = dict(setup.proposal.options)
    points = int(options.get("match_to", 1))
    bearoff = str(options.get("bearoff", "backgammon"))
    yield Clause.of(plural("Jacquet, match to {points} point, bear-off {bearoff}",
                           "Jacquet, match to {points} points, bear-off {bearoff}"), points,
                    points=points, bearoff=bearoff).say(words)  # fmt: skip
    transcript = _JacquetTranscript(setup.names, words)
    for step in replay(contents):
        for event in step.events:
            yield from transcript.event(event)
    yield from transcript.flush()
