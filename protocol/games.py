"""The two games as the protocol drives them: options, a fresh state, and transitions.

This is the only module that knows the engines' names; everything else in
:mod:`protocol` asks a :class:`Game` for what it needs.

>>> game = GAMES["goose"]
>>> state = game.new_state(game.options(3, {"rules": "1792"}))
>>> state.options.rules, state.awaiting
('1792', ThrowDice(seat=0, count=2))
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypeAlias

from engine.clause import ENGLISH, N_, Clause, Words, plural
from engine.errors import InvalidOptionsError
from protocol.bounds import MAX_SEATS
from protocol.errors import LocalProtocolError

if TYPE_CHECKING:  # the engines are imported when a game is first played, not before
    from engine.goose import GooseEvent, GooseOptions, GooseState
    from engine.jacquet import JacquetEvent, JacquetOptions, JacquetState
    from protocol.events import MatchEnded

OptionValue = int | str
# The games' own types, one entry each: everything past this seam narrows them (a state of
# the wrong game is a caller's mistake, said as one: see :meth:`Game.mismatched`).
EngineOptions: TypeAlias = "GooseOptions | JacquetOptions"
EngineState: TypeAlias = "GooseState | JacquetState"
EngineEvent: TypeAlias = "GooseEvent | JacquetEvent"


@dataclass(frozen=True, slots=True)
class Transition:
    """A new engine state and the engine events that led to it."""

    state: EngineState
    events: tuple[EngineEvent, ...]


class Game(ABC):
    """What the protocol needs of a game; :data:`GAMES` holds the two."""

    name: str = ""
    proper_name: str = ""
    """The game's name as a heading writes it, the same in every language."""
    title: str = ""
    """The game as a sentence names it (a pattern marked ``N_``)."""
    seats_rule: str = ""
    """How many play it, a pattern of ``{low}``, ``{high}`` and ``{count}`` (those asked)."""
    min_seats: int = 2
    max_seats: int = 2
    option_types: Mapping[str, type] = {}
    has_plays: bool = False

    def options(self, seats: int, options: Mapping[str, OptionValue]) -> EngineOptions:
        """Engine options for *seats* players; :class:`~engine.errors.InvalidOptionsError`
        (a ValueError in plain words) when invalid."""
        if not self.min_seats <= seats <= self.max_seats:
            raise InvalidOptionsError(Clause.of(self.seats_rule, low=self.min_seats,
                                                high=self.max_seats, count=seats))  # fmt: skip
        for key, value in options.items():
            expected = self.option_types.get(key)
            if expected is None:
                known = ", ".join(sorted(self.option_types))
                raise InvalidOptionsError(Clause.of(N_("{game} has no option {option} "
                                                       "(options: {known})"),
                                                    game=Clause.of(self.title), option=repr(key),
                                                    known=known))  # fmt: skip
            if type(value) is not expected:
                kind = N_("a whole number") if expected is int else N_("a word")
                raise InvalidOptionsError(Clause.of(N_("option {option} must be {kind}, not "
                                                       "{value}"), option=key,
                                                    kind=Clause.of(kind),
                                                    value=repr(value)))  # fmt: skip
        return self._options(seats, dict(options))

    @abstractmethod
    def _options(self, seats: int, options: dict[str, OptionValue]) -> EngineOptions:
        """The engine's options object, from options already checked by :meth:`options`
        (each of its declared type); the engine's own checks say what else is wrong."""

    @abstractmethod
    def new_state(self, options: EngineOptions) -> EngineState:
        """The engine state a match starts from."""

    @abstractmethod
    def throw(self, state: EngineState, dice: tuple[int, ...]) -> Transition:
        """Apply a throw the state awaits."""

    # A game without missed turns or plays never awaits them; the sessions check what the
    # state awaits first, so reaching these defaults is a caller's mistake.
    def miss_turn(self, state: EngineState) -> Transition:
        raise LocalProtocolError(Clause.of(N_("{game} has no missed turns"),
                                           game=Clause.of(self.title)))  # fmt: skip

    def play(self, state: EngineState, notation: str) -> Transition:
        """Apply the play written *notation*; EngineError when illegal or unreadable."""
        raise LocalProtocolError(Clause.of(N_("{game} has no plays"), game=Clause.of(self.title)))

    def format_play(self, play: object) -> str:
        """*play*, one of the game's own plays, as its notation writes it."""
        raise LocalProtocolError(Clause.of(N_("{game} has no plays"), game=Clause.of(self.title)))

    def final_score(self, state: EngineState, ended: MatchEnded | None) -> tuple[int, ...] | None:
        """The match's score as every screen tells it; None for a game without points."""
        return None

    @abstractmethod
    def result(self, state: EngineState, winner: int, names: tuple[str, ...]) -> Clause:
        """How a match that *winner* won outright says so (a score, a pot…)."""

    def mismatched(self, value: object) -> LocalProtocolError:
        """The error for *value* handed to this game while it is another game's (a state,
        options or a play): the caller mixed two matches up."""
        return LocalProtocolError(Clause.of(N_("{game} was handed another game's {kind}"),
                                            game=Clause.of(self.title),
                                            kind=type(value).__name__))  # fmt: skip


class GooseGame(Game):
    name = "goose"
    proper_name = "Jeu de l'oie"
    title = N_("the Goose")
    seats_rule = N_("the Goose is played by {low} to {high} players, not {count}")
    max_seats = MAX_SEATS
    option_types: Mapping[str, type] = {"rules": str, "ante": int, "fee": int}

    def _options(self, seats: int, options: dict[str, OptionValue]) -> EngineOptions:
        from engine.goose import GooseOptions
        from engine.goose.options import check_rules

        plain = GooseOptions(players=seats)  # the engine's defaults, for what is not given
        rules = check_rules(_word(options, "rules", plain.rules))
        ante, fee = _number(options, "ante", plain.ante), _number(options, "fee", plain.fee)
        return GooseOptions(players=seats, rules=rules, ante=ante, fee=fee)

    def new_state(self, options: EngineOptions) -> EngineState:
        from engine.goose import GooseOptions, new_game

        if not isinstance(options, GooseOptions):
            raise self.mismatched(options)
        return new_game(options)

    def throw(self, state: EngineState, dice: tuple[int, ...]) -> Transition:
        from engine.goose import throw

        outcome = throw(self._state(state), dice)
        return Transition(outcome.state, outcome.events)

    def miss_turn(self, state: EngineState) -> Transition:
        from engine.goose import miss_turn

        outcome = miss_turn(self._state(state))
        return Transition(outcome.state, outcome.events)

    def result(self, state: EngineState, winner: int, names: tuple[str, ...]) -> Clause:
        return Clause.of(N_("{winner} wins the pot of {pot}"), winner=names[winner],
                         pot=self._state(state).pot)  # fmt: skip

    def _state(self, state: EngineState) -> GooseState:
        from engine.goose import GooseState

        if not isinstance(state, GooseState):
            raise self.mismatched(state)
        return state


def _number(options: Mapping[str, OptionValue], key: str, plain: int) -> int:
    """Option *key*, declared a whole number (:meth:`Game.options` checked it), or *plain*."""
    value = options.get(key, plain)
    assert isinstance(value, int)
    return value


def _word(options: Mapping[str, OptionValue], key: str, plain: str) -> str:
    """Option *key*, declared a word (:meth:`Game.options` checked it), or *plain*."""
    value = options.get(key, plain)
    assert isinstance(value, str)
    return value


COACH_OPTION: Final = "coach"
"""The Jacquet proposal option allowing hints and the tutor (``1``) in a networked match.

It is the players' agreement, not a rule of the game: the engine never sees it. Being in
the proposal, it is in what every player's join signs and in the match id, so no client
can claim it was allowed when the others did not agree (docs/analysis.md)."""


def coach_allowed(options: Mapping[str, OptionValue]) -> bool:
    """Whether a Jacquet proposal's (checked) options allow hints and the tutor.

    >>> coach_allowed({"match_to": 3}), coach_allowed({"coach": 1})
    (False, True)
    """
    return options.get(COACH_OPTION) == 1


OPTION_WORDS: Final[Mapping[str, str | tuple[str, str]]] = {
    "rules": N_("rules {value}"), "ante": N_("ante {value}"), "fee": N_("fee {value}"),
    "match_to": plural("match to {value} point", "match to {value} points"),
    "bearoff": N_("bear-off {value}"),
}  # fmt: skip
"""The match options as a person reads them, a pattern of their ``{value}`` each (the
protocol's keys otherwise)."""


def said_options(options: Iterable[tuple[str, OptionValue]], words: Words = ENGLISH) -> str:
    """A match's options as a person reads them, in the language of *words*: the room's
    heading and ``tablier verify`` say them so. An option this client does not know keeps
    its key (a newer peer's; the signed proposal holds it whatever it is).

    >>> said_options((("ante", 4), ("fee", 1), ("rules", "daumont")))
    'ante 4, fee 1, rules daumont'
    >>> said_options((("match_to", 1), ("coach", 1), ("colour", "red")))
    'match to 1 point, hints allowed, colour red'
    """
    said = []
    for key, value in options:
        pattern = OPTION_WORDS.get(key)
        if key == COACH_OPTION and value == 1:
            said.append(Clause.of(N_("hints allowed")).say(words))
        elif pattern is None:
            said.append(f"{key} {value}")
        else:
            count = value if isinstance(value, int) else 1
            said.append(Clause.of(pattern, count, value=value).say(words))
    return ", ".join(said)


class JacquetGame(Game):
    name = "jacquet"
    proper_name = "Jacquet"
    title = N_("jacquet")
    seats_rule = N_("jacquet is played by 2 players, not {count}")
    option_types: Mapping[str, type] = {"match_to": int, "bearoff": str, COACH_OPTION: int}
    has_plays = True

    def _options(self, seats: int, options: dict[str, OptionValue]) -> EngineOptions:
        from engine.jacquet import JacquetOptions
        from engine.jacquet.bearoff import check_bearoff

        coach = options.pop(COACH_OPTION, 1)
        if coach != 1:
            # Only "allowed" is written: a proposal without the option has it off, so every
            # match set up before it existed keeps its bytes, its id and its dice.
            raise InvalidOptionsError(Clause.of(N_("option {option} is 1 (hints allowed) or "
                                                   "absent, not {value}"), option=COACH_OPTION,
                                                value=coach))  # fmt: skip
        plain = JacquetOptions()  # the engine's defaults, for what is not given
        bearoff = check_bearoff(_word(options, "bearoff", plain.bearoff))
        return JacquetOptions(match_to=_number(options, "match_to", plain.match_to),
                              bearoff=bearoff)  # fmt: skip

    def new_state(self, options: EngineOptions) -> EngineState:
        from engine.jacquet import JacquetOptions, new_match

        if not isinstance(options, JacquetOptions):
            raise self.mismatched(options)
        return new_match(options)

    def throw(self, state: EngineState, dice: tuple[int, ...]) -> Transition:
        from engine.jacquet import throw

        first, second = dice
        outcome = throw(self._state(state), (first, second))
        return Transition(outcome.state, outcome.events)

    def play(self, state: EngineState, notation: str) -> Transition:
        from engine.jacquet import parse_play, play

        outcome = play(self._state(state), parse_play(notation))
        return Transition(outcome.state, outcome.events)

    def format_play(self, play: object) -> str:
        from engine.jacquet import Move, format_play

        if not (isinstance(play, tuple) and all(isinstance(move, Move) for move in play)):
            raise self.mismatched(play)
        return str(format_play(play))

    def final_score(self, state: EngineState, ended: MatchEnded | None) -> tuple[int, ...] | None:
        """As played; once a player resigned or was claimed abandoned, the winner has the
        match — the points he lacked to reach its length, as a conceded backgammon match
        does.

        >>> from engine.jacquet import JacquetOptions, new_match
        >>> from protocol.events import MatchEnded
        >>> state, game = new_match(JacquetOptions(match_to=3)), GAMES["jacquet"]
        >>> game.final_score(state, None), game.final_score(state, MatchEnded("resigned", 1, 0))
        ((0, 0), (0, 3))
        >>> game.final_score(state, MatchEnded("stopped"))  # no winner: the score as it stood
        (0, 0)
        """
        mine = self._state(state)
        won = list(mine.score)
        if ended is not None and ended.winner is not None and ended.reason != "finished":
            won[ended.winner] = max(won[ended.winner], mine.options.match_to)
        return tuple(won)

    def result(self, state: EngineState, winner: int, names: tuple[str, ...]) -> Clause:
        score = self._state(state).score
        return Clause.of(N_("{winner} wins the match {won}-{lost}"), winner=names[winner],
                         won=score[winner], lost=score[1 - winner])  # fmt: skip

    def _state(self, state: EngineState) -> JacquetState:
        from engine.jacquet import JacquetState

        if not isinstance(state, JacquetState):
            raise self.mismatched(state)
        return state


GAMES: Final[dict[str, Game]] = {"goose": GooseGame(), "jacquet": JacquetGame()}


def game_named(name: str) -> Game:
    """The game called *name*; InvalidOptionsError listing the games otherwise."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise InvalidOptionsError(Clause.of(N_("unknown game {name}: choose goose or jacquet"),
                                            name=repr(name))) from None  # fmt: skip


__all__ = [
    "GAMES",
    "EngineEvent",
    "EngineOptions",
    "EngineState",
    "Game",
    "OptionValue",
    "Transition",
    "game_named",
]
