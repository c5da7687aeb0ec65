"""The relay's ledger of counts and rates (relay.budgets), without a relay: its docstring's
example, and a seat's bucket surviving a reclaim from a fresh connection."""

from __future__ import annotations

import doctest

from relay import budgets
from relay.budgets import Budgets
from relay.config import RelayConfig
from relay.limits import TokenBucket


def test_docstring_examples() -> None:
    result = doctest.testmod(budgets)
    assert result.attempted and not result.failed


def test_a_seat_keeps_its_bucket_across_connections_and_a_reclaim_costs_a_token() -> None:
    ledger = Budgets(RelayConfig())
    first = TokenBucket(1.0, 2, 0.0)
    assert ledger.sit("room", 0, first, 0.0) is first
    assert ledger.sit("room", 0, TokenBucket(1.0, 2, 0.0), 0.0) is first  # a new connection
    assert ledger.may_reclaim("room", 0, 0.0)  # one token left of two
    assert ledger.sit("room", 0, TokenBucket(1.0, 2, 0.0), 0.0) is first
    assert not ledger.may_reclaim("room", 0, 0.0)  # both spent by reclaims: refused
    ledger.forget_quiet(0.5)
    assert not ledger.may_reclaim("room", 0, 0.5)  # half a token back: still held
