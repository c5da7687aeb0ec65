"""Bearing off (RULES 2.6): the two readings of a die larger than needed.

A die *d* bears off a checker from point ``25 - d``; a larger die may bear off only the
rearmost checker, and only when nothing stands below ``25 - d``. Such a bear-off is an
*excess* bear-off. Under ``trictrac`` the legal plays are those of ``backgammon`` that use
the fewest dice as excess bear-offs.

>>> check_bearoff("trictrac")
'trictrac'
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

from engine.clause import N_, Clause
from engine.errors import InvalidOptionsError

BearOff: TypeAlias = Literal["backgammon", "trictrac"]
BEAROFF_RULES: Final[tuple[BearOff, ...]] = ("backgammon", "trictrac")


def check_bearoff(name: str) -> BearOff:
    """*name* as a bear-off rule, or :class:`InvalidOptionsError` naming the choices."""
    for rule in BEAROFF_RULES:
        if name == rule:
            return rule
    choices = Clause.of(N_("{some} or {last}"), some=", ".join(BEAROFF_RULES[:-1]),
                        last=BEAROFF_RULES[-1])  # fmt: skip
    raise InvalidOptionsError(Clause.of(N_("unknown bear-off rule {rule!r}: choose {choices}"),
                                        rule=name, choices=choices))  # fmt: skip
