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

from engine.errors import InvalidOptionsError

BearOff: TypeAlias = Literal["backgammon", "trictrac"]
BEAROFF_RULES: Final[tuple[BearOff, ...]] = ("backgammon", "trictrac")


def check_bearoff(name: str) -> BearOff:
    """*name* as a bear-off rule, or :class:`InvalidOptionsError` naming the choices."""
    for rule in BEAROFF_RULES:
        if name == rule:
            return rule
    raise InvalidOptionsError(
        f"unknown bear-off rule {name!r}; choose {' or '.join(BEAROFF_RULES)}"
    )
