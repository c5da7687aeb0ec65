"""A game told in words: the sentences the side log, a replay's story and a spectator's
catch-up all show, one line per turn, the same whichever driver the turn came from."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from client.game.turn import TurnEvent
from client.i18n import _, say
from engine.jacquet import Moved, format_play
from protocol.narrate import narrate, narrate_turns


def tell(game: str, events: Iterable[TurnEvent], names: Sequence[str]) -> list[str]:
    """One sentence per thing worth a line: a Goose throw and all it led to, a Jacquet
    play (its moves told together), a game won, the match's end."""
    if game == "goose":
        return [say(sentence) for sentence in narrate_turns(events, names)]
    return _tell_jacquet(events, names)


def _tell_jacquet(events: Iterable[TurnEvent], names: Sequence[str]) -> list[str]:
    sentences: list[str] = []
    moves: list[Moved] = []

    def flush() -> None:
        if moves:
            play = format_play(tuple(moved.move for moved in moves))
            sentences.append(_("{who} plays {play}.").format(who=names[moves[0].seat], play=play))
            moves.clear()

    for event in events:
        if isinstance(event, Moved):
            moves.append(event)
            continue
        flush()
        clause = narrate(event, names)
        if clause is not None:
            sentences.append(_("{sentence}.").format(sentence=say(clause)))
    flush()
    return sentences
