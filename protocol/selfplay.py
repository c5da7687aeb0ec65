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

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.awaiting import ChoosePlay, ThrowDice
from protocol.games import OptionValue
from protocol.identity import seeded_source
from protocol.local import LocalMatch

DEFAULT_NAMES = (
    "Anne", "Bastien", "Camille", "Denis", "Élise", "Fanny", "Gaspard", "Hélène",
    "Isidore", "Jeanne", "Katell", "Louis", "Margot", "Noé", "Odile",
)  # fmt: skip


Chooser = Callable[[Any, tuple[int, int]], Any]
"""``choose(jacquet_state, dice) -> Play``: one of ``jacquet_state.legal_plays()``."""


def bot_choice(state: Any, dice: tuple[int, int]) -> Any:
    """The computer player's play (:func:`engine.bot.choose_play`, level 1)."""
    from engine.bot import choose_play

    return choose_play(state.position, dice, level=1, bearoff=state.options.bearoff)


def first_legal(state: Any, dice: tuple[int, int]) -> Any:
    """The first of the engine's legal plays: a fast, bot-free chooser for tests."""
    return state.legal_plays()[0]


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
    choose: Chooser | None = None,
) -> LocalMatch:
    """Play a whole match between computer seats and return it (its log closed).

    *choose* picks each Jacquet play (default: :func:`bot_choice`, the level-1 bot).
    """
    choose = choose if choose is not None else bot_choice
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
                match.play(awaiting.seat, choose(match.state, awaiting.dice), now)
            else:
                break
    finally:
        match.close()
    return match
