"""What travels between machines is codes and data, never sentences in someone's language:
a French and an English player of one match hold the same log, byte for byte, whatever
their clients show (issue 18 translates the client, not the protocol)."""

from __future__ import annotations

import re
from typing import Any

import msgpack  # type: ignore[import-untyped]

from protocol.logfile import parse_log
from protocol.selfplay import selfplay

NOTATION = re.compile(r"-|(\d+/(\d+|off))( \d+/(\d+|off))*")
CODES = {"tablier-log", "tablier-dice/1", "goose", "jacquet", "rules", "ante", "fee",
         "match_to", "bearoff", "daumont", "1792", "backgammon", "trictrac"}  # fmt: skip


def strings(value: Any) -> list[str]:
    """Every string inside a decoded msgpack value (map keys included)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple):
        return [text for item in value for text in strings(item)]
    if isinstance(value, dict):
        return [text for pair in value.items() for text in strings(list(pair))]
    return []


def test_every_string_a_log_holds_is_a_code_a_name_a_play_or_a_players_own_words() -> None:
    said = {"bonne chance", "good luck"}
    logs = []
    for game, options, players in (("jacquet", {"match_to": 1, "bearoff": "trictrac"}, 2),
                                   ("goose", {"rules": "1792"}, 3)):  # fmt: skip
        match = selfplay(game, options, seed="neutral", start_time=0, players=players)
        for seat, text in enumerate(sorted(said)):
            match.chat(seat, text, 10**7)
        logs.append((match, match.log_bytes()))
    for match, data in logs:
        names = set(match.setup.names)
        contents = parse_log(data)
        unpacker = msgpack.Unpacker(raw=False)
        unpacker.feed(data)
        found = strings(next(unpacker))
        for record in contents.records:
            found.extend(strings(msgpack.unpackb(record, raw=False)))
        strange = [text for text in found if text not in CODES | names | said
                   and not NOTATION.fullmatch(text)]  # fmt: skip
        assert strange == [], strange
        assert any(NOTATION.fullmatch(text) for text in found) == (match.setup.game == "jacquet")
