"""Complete matches between computer seats, through real in-memory sessions.

Used by ``tablier selfplay``, the tests and the benchmark: real keys, real chains, real
encoded and signed bytes, a real log. Goose seats just throw; Jacquet seats play the
computer player's choice (:func:`engine.bot.choose_play`, level 1). Each action is
``step_ms`` after the previous one, so the same seed and start time give the same bytes.

>>> match = selfplay("jacquet", {}, seed="doc", start_time=0)
>>> match.ended.reason, len({session.records.__len__() for session in match.sessions})
('finished', 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from engine.awaiting import ChoosePlay, ThrowDice
from protocol.games import OptionValue
from protocol.identity import seeded_source
from protocol.local import LocalMatch

DEFAULT_NAMES = (
    "Anne", "Bastien", "Camille", "Denis", "Élise", "Fanny", "Gaspard", "Hélène",
    "Isidore", "Jeanne", "Katell", "Louis", "Margot", "Noé", "Odile",
)  # fmt: skip


def default_names(count: int) -> tuple[str, ...]:
    """The first *count* of a list of fifteen French names."""
    return DEFAULT_NAMES[:count]


def selfplay(
    game: str,
    options: Mapping[str, OptionValue],
    *,
    seed: str | int,
    start_time: int,
    names: Sequence[str] | None = None,
    players: int = 2,
    log_path: Path | None = None,
    step_ms: int = 1_000,
    max_turns: int = 100_000,
) -> LocalMatch:
    """Play a whole match between computer seats and return it (its log closed)."""
    from engine.bot import choose_play

    names = tuple(names) if names is not None else default_names(players)
    match = LocalMatch.create(
        game, options, names=names, random_source=seeded_source(seed), now=start_time,
        log_path=log_path,
    )  # fmt: skip
    now = start_time
    try:
        for _ in range(max_turns):
            awaiting = match.awaiting
            now += step_ms
            if isinstance(awaiting, ThrowDice):
                match.throw(awaiting.seat, now)
            elif isinstance(awaiting, ChoosePlay):
                state = match.state
                chosen = choose_play(
                    state.position, awaiting.dice, level=1, bearoff=state.options.bearoff
                )
                match.play(awaiting.seat, chosen, now)
            else:
                break
    finally:
        match.close()
    return match
