"""What a local game is started with: plain data shared by the CLI, the lobby and the app.

Nothing here imports Textual or the engines, so ``tablier play`` can parse and validate its
options before the app loads.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from client.i18n import N_, _

# The engines' rules and defaults, copied so that `tablier --help` and the lobby's first
# paint need not import the engines; tests/client/test_setup.py ties each copy to its source.
GOOSE_MIN_PLAYERS = 2
GOOSE_MAX_PLAYERS = 15
GOOSE_RULE_SETS: tuple[str, ...] = ("daumont", "1792")
GOOSE_DEFAULT_RULES = "daumont"
GOOSE_DEFAULT_ANTE = 4
GOOSE_DEFAULT_FEE = 1
GOOSE_MAX_ANTE = 1_000  # engine.goose.options.MAX_ANTE
GOOSE_MAX_FEE = 1_000  # engine.goose.options.MAX_FEE
GOOSE_DEFAULT_PLAYERS = 3  # the lobby's and `play`, `host` and `selfplay goose`'s
JACQUET_BEAROFF_RULES: tuple[str, ...] = ("backgammon", "trictrac")
JACQUET_DEFAULT_MATCH_TO = 1
JACQUET_MAX_MATCH_TO = 99  # engine.jacquet.game.MAX_MATCH_TO
JACQUET_DEFAULT_BEAROFF = "backgammon"
JACQUET_LEVELS: tuple[int, ...] = (1, 2, 3, 4)
RULES_HELP = N_("rule set: daumont (a player met pays and takes the arriver's start square) "
                "or 1792 (squares may be shared); default: %(default)s")  # fmt: skip
BEAROFF_HELP = N_("bear-off rule, docs/rules.md 2.6 (default: %(default)s)")
"""The help of ``--rules`` and ``--bearoff``, wherever a command takes them."""
DEFAULT_GOOSE_NAMES: tuple[str, ...] = (
    "Alice", "Bruno", "Chloé", "Denis", "Élise", "Fanny", "Gaston", "Hugo",
    "Inès", "Jules", "Karim", "Léa", "Marc", "Nina", "Oscar",
)  # fmt: skip
DEFAULT_JACQUET_NAMES: tuple[str, str] = ("Blanc", "Noir")


class SetupError(ValueError):
    """A game setting a person typed is not usable; the message says why and what to do."""


def name_refusal(name: str) -> str | None:
    """Why *name* (its spaces around dropped) cannot be a player's, in the reader's words:
    the players' name rule (:func:`protocol.names.name_problem`), which every other player's
    program holds it to as well. None: it can."""
    from client.i18n import say
    from protocol.names import name_problem  # loaded once a game is set up, not before

    problem = name_problem(name.strip())
    if problem is None:
        return None
    return _("{name!r} cannot be a player's name: {problem}").format(
        name=name.strip(), problem=say(problem)
    )


def _check_names(names: tuple[str, ...]) -> None:
    for seat, name in enumerate(names, start=1):
        if not name.strip():
            raise SetupError(_("player {seat} needs a name").format(seat=seat))
        if len(name) > 20:
            raise SetupError(
                _("the name {name!r} is too long: 20 characters at most").format(name=name)
            )
        refusal = name_refusal(name)
        if refusal is not None:
            raise SetupError(refusal)
    from protocol.names import first_clash

    clash = first_clash([name.strip() for name in names])
    if clash is not None:
        raise SetupError(
            _("two players are called {name!r}: give each a different name").format(
                name=names[clash[1]].strip()
            )
        )


def _check_computer_seats(seats: frozenset[int], players: int) -> None:
    for seat in seats:
        if not 0 <= seat < players:
            raise SetupError(
                _("there is no seat {seat}: seats run from 1 to {players}").format(
                    seat=seat + 1, players=players
                )
            )


@dataclass(frozen=True, slots=True)
class GooseSetup:
    """A local Jeu de l'oie: one name per seat, which seats the computer throws for."""

    names: tuple[str, ...]
    computer_seats: frozenset[int] = frozenset()
    rules: str = GOOSE_DEFAULT_RULES
    ante: int = GOOSE_DEFAULT_ANTE
    fee: int = GOOSE_DEFAULT_FEE
    game: Literal["goose"] = "goose"

    def __post_init__(self) -> None:
        if not GOOSE_MIN_PLAYERS <= len(self.names) <= GOOSE_MAX_PLAYERS:
            raise SetupError(
                _("the Goose is played by {low} to {high} players, not {count}").format(
                    low=GOOSE_MIN_PLAYERS, high=GOOSE_MAX_PLAYERS, count=len(self.names)
                )
            )
        _check_names(self.names)
        _check_computer_seats(self.computer_seats, len(self.names))
        if self.rules not in GOOSE_RULE_SETS:
            raise SetupError(
                _("unknown rule set {rules!r}: choose {choices}").format(
                    rules=self.rules, choices=_(" or ").join(GOOSE_RULE_SETS)
                )
            )
        if self.ante < 0:
            raise SetupError(_("the ante cannot be negative ({ante})").format(ante=self.ante))
        if self.ante > GOOSE_MAX_ANTE:
            raise SetupError(_("the ante is at most {most} tokens, not {ante}").format(
                most=GOOSE_MAX_ANTE, ante=self.ante))  # fmt: skip
        if self.fee < 0:
            raise SetupError(_("the fee cannot be negative ({fee})").format(fee=self.fee))
        if self.fee > GOOSE_MAX_FEE:
            raise SetupError(_("the fee is at most {most} tokens, not {fee}").format(
                most=GOOSE_MAX_FEE, fee=self.fee))  # fmt: skip


@dataclass(frozen=True, slots=True)
class JacquetSetup:
    """A local Jacquet match: white's and black's names, computer seats and its level;
    ``coach``: a networked match's players all agree to hints and the tutor (its signed
    proposal says so, :func:`protocol.games.coach_allowed`)."""

    names: tuple[str, str] = DEFAULT_JACQUET_NAMES
    computer_seats: frozenset[int] = frozenset()
    level: int = 1
    match_to: int = JACQUET_DEFAULT_MATCH_TO
    bearoff: str = JACQUET_DEFAULT_BEAROFF
    game: Literal["jacquet"] = "jacquet"
    coach: bool = False

    def __post_init__(self) -> None:
        if len(self.names) != 2:
            raise SetupError(_("Jacquet is played by exactly two players"))
        _check_names(self.names)
        _check_computer_seats(self.computer_seats, 2)
        if self.level not in JACQUET_LEVELS:
            levels = ", ".join(str(level) for level in JACQUET_LEVELS)
            raise SetupError(
                _("the computer's level is one of {levels}, not {level}").format(
                    levels=levels, level=self.level
                )
            )
        if not 1 <= self.match_to <= JACQUET_MAX_MATCH_TO:
            raise SetupError(
                _("a match is played to 1 to {most} points, not {points}").format(
                    most=JACQUET_MAX_MATCH_TO, points=self.match_to
                )
            )
        if self.bearoff not in JACQUET_BEAROFF_RULES:
            raise SetupError(
                _("unknown bear-off rule {rule!r}: choose {choices}").format(
                    rule=self.bearoff, choices=_(" or ").join(JACQUET_BEAROFF_RULES)
                )
            )


GameSetup = GooseSetup | JacquetSetup


def setup_for_match(
    game: str,
    names: Sequence[str],
    options: Mapping[str, int | str],
    *,
    computer_seats: frozenset[int] = frozenset(),
    level: int = 1,
) -> GameSetup:
    """The screens' view of a match set up elsewhere (over the network, in a log file): a
    local setup with its names and options. Names the protocol allows but a local game would
    refuse (twins, more than 20 characters) are cut and numbered so each seat stays apart."""
    try:
        return _setup(game, tuple(names), options, computer_seats, level)
    except SetupError:
        unique = tuple(f"{name[:16]} {seat + 1}" for seat, name in enumerate(names))
        return _setup(game, unique, options, computer_seats, level)


def _setup(
    game: str,
    names: tuple[str, ...],
    options: Mapping[str, int | str],
    computer: frozenset[int],
    level: int,
) -> GameSetup:
    if game == "goose":
        return GooseSetup(
            names,
            computer,
            rules=str(options.get("rules", GOOSE_DEFAULT_RULES)),
            ante=int(options.get("ante", GOOSE_DEFAULT_ANTE)),
            fee=int(options.get("fee", GOOSE_DEFAULT_FEE)),
        )
    if len(names) != 2:
        raise SetupError(_("Jacquet is played by exactly two players"))
    return JacquetSetup(
        (names[0], names[1]),
        computer,
        level,
        match_to=int(options.get("match_to", JACQUET_DEFAULT_MATCH_TO)),
        bearoff=str(options.get("bearoff", JACQUET_DEFAULT_BEAROFF)),
        coach=_coach_allowed(options),
    )


def _coach_allowed(options: Mapping[str, int | str]) -> bool:
    from protocol.games import coach_allowed  # the commands load the protocol when run

    return coach_allowed(options)


def game_options(setup: GameSetup) -> dict[str, int | str]:
    """The protocol's options for *setup*'s game (what a match proposal records)."""
    if isinstance(setup, GooseSetup):
        return {"rules": setup.rules, "ante": setup.ante, "fee": setup.fee}
    options: dict[str, int | str] = {"match_to": setup.match_to, "bearoff": setup.bearoff}
    if setup.coach:  # written only when allowed: an older match's proposal is unchanged
        from protocol.games import COACH_OPTION  # the commands load the protocol when run

        options[COACH_OPTION] = 1
    return options


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass(frozen=True, slots=True)
class SessionSettings:
    """How this terminal runs games, whichever game: the same for every game it starts.

    ``random_source(n) -> n random bytes`` feeds the protocol's dice (tests pass a seeded one
    so a game is reproducible); ``log_path`` is where the first game's match log is written
    (``None``: a new file in the protocol's default folder, under ``data_dir`` when given —
    tests pass a temporary one); ``computer_pause`` is how many seconds a computer seat
    waits before acting, so people can follow it; ``clock() -> milliseconds since the epoch``
    stamps the match and its records (the dice depend on the match, so tests fix it too).
    ``tutor`` (micro-points; ``None``: off) is the loss from which the Jacquet tutor asks
    before a play is sent, in games played on this terminal (docs/analysis.md).
    ``config_dir`` is where the lobby keeps the language chosen there (``None``: Tablier's
    config folder, :func:`client.i18n.config_dir`).
    """

    animation: bool = True
    log_path: Path | None = None
    data_dir: Path | None = None
    config_dir: Path | None = None
    # The system's CSPRNG, as secrets.token_bytes draws it (whose module brings hashlib,
    # which the lobby does not otherwise need before its first paint).
    random_source: Callable[[int], bytes] = os.urandom
    computer_pause: float = 0.6
    clock: Callable[[], int] = wall_clock_ms
    tutor: int | None = None
