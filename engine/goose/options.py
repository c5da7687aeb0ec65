"""A Goose match's options (RULES 1.2, 1.6): recorded in every match header and log.

>>> GooseOptions(players=4).canonical()
('goose-options', 4, 'daumont', 4, 1)
>>> GooseOptions(players=1)
Traceback (most recent call last):
...
engine.errors.InvalidOptionsError: the Goose is played by 2 to 15 players, not 1
>>> GooseOptions(players=2, ante=2**63)
Traceback (most recent call last):
...
engine.errors.InvalidOptionsError: the ante is at most 1000 tokens, not 9223372036854775808
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, get_args

from engine.clause import N_, Clause
from engine.errors import InvalidOptionsError

Rules = Literal["daumont", "1792"]
"""``daumont``: a player who is met pays the fee and takes the arriver's start square;
``1792``: squares may be shared and meeting does nothing (RULES 1.6)."""

RULE_SETS: Final[tuple[Rules, ...]] = get_args(Rules)
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 15
MAX_ANTE: Final = 1_000
"""The largest ante a player may put in: the rules' default is 4 tokens, and no table counts
out more than a thousand for each player. Bounded so that no sum the engine builds can
outgrow the 64-bit integers of its state hash (engine.canonical) or of msgpack; the
arithmetic is in :mod:`protocol.bounds`."""
MAX_FEE: Final = 1_000
"""The largest fee a hazard may cost (the rules' default is 1 token); bounded as the ante."""


def check_rules(name: str) -> Rules:
    """*name* as a rule set, or :class:`InvalidOptionsError` naming the choices.

    >>> check_rules("1792")
    '1792'
    """
    for rules in RULE_SETS:
        if name == rules:
            return rules
    raise InvalidOptionsError(Clause.of(N_("unknown rule set {rules!r}: choose one of "
                                           "{choices}"), rules=name,
                                        choices=", ".join(RULE_SETS)))  # fmt: skip


@dataclass(frozen=True, slots=True)
class GooseOptions:
    """Number of players, rule set, ante each player puts in, and fee each hazard costs."""

    players: int
    rules: Rules = "daumont"
    ante: int = 4
    fee: int = 1

    def __post_init__(self) -> None:
        for name in ("players", "ante", "fee"):
            value = getattr(self, name)
            if type(value) is not int:
                raise InvalidOptionsError(Clause.of(N_("{option} must be a whole number, not "
                                                       "{value}"), option=name,
                                                    value=repr(value)))  # fmt: skip
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise InvalidOptionsError(Clause.of(
                N_("the Goose is played by {low} to {high} players, not {count}"),
                low=MIN_PLAYERS, high=MAX_PLAYERS, count=self.players,
            ))  # fmt: skip
        check_rules(self.rules)
        if self.ante < 0:
            raise InvalidOptionsError(Clause.of(N_("the ante cannot be negative ({ante})"),
                                                ante=self.ante))  # fmt: skip
        if self.ante > MAX_ANTE:
            raise InvalidOptionsError(Clause.of(N_("the ante is at most {most} tokens, not "
                                                   "{ante}"), most=MAX_ANTE,
                                                ante=self.ante))  # fmt: skip
        if self.fee < 0:
            raise InvalidOptionsError(Clause.of(N_("the fee cannot be negative ({fee})"),
                                                fee=self.fee))  # fmt: skip
        if self.fee > MAX_FEE:
            raise InvalidOptionsError(Clause.of(N_("the fee is at most {most} tokens, not {fee}"),
                                                most=MAX_FEE, fee=self.fee))  # fmt: skip

    def canonical(self) -> tuple[str, int, str, int, int]:
        return ("goose-options", self.players, self.rules, self.ante, self.fee)
