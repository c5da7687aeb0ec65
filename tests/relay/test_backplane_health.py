"""Whether a relay process can serve rooms through Redis (:mod:`relay.backplane_health`),
without Redis: failures, connections and looks at the link in, with their times; states,
losses and log lines out."""

from __future__ import annotations

import doctest

from hypothesis import given
from hypothesis import strategies as st

from relay import backplane_health
from relay.backplane_health import (
    PING,
    TIMEOUT,
    Conflict,
    Health,
    Lose,
    Refusal,
    Say,
    Unreachable,
    safe_url,
)
from relay.redis_library import NAME, VERSION_ERROR

URL = "redis://relay:hunter2@redis.example:6379/0"
SHOWN = "redis://relay:***@redis.example:6379/0"


def up() -> Health:
    health = Health(URL)
    health.up("ab12cd34")
    return health


def test_the_doctests_hold() -> None:
    assert doctest.testmod(backplane_health).failed == 0


def test_a_process_starts_down_until_redis_is_reached() -> None:
    health = Health(URL)
    assert health.unavailable == "not connected to Redis yet"
    assert health.up("ab12cd34") == Say("backplane_up", {"redis": SHOWN, "process": "ab12cd34"})
    assert health.unavailable is None
    assert health.stats.reconnects == 0  # the first time is no reconnection


def test_trying_again_says_why_only_when_the_reason_changes() -> None:
    health = Health(URL)
    refused = ConnectionRefusedError(111, "Connection refused")
    said = health.not_reached(Unreachable(refused))
    reason = f"Redis at {SHOWN} cannot be reached (ConnectionRefusedError: {refused})"
    assert said == Say("backplane_down", {"reason": reason})
    assert health.not_reached(Unreachable(refused)) is None  # the same: said already
    assert health.unavailable == reason
    assert health.not_reached(Refusal("LOADING Redis is loading")) == Say(
        "backplane_refused",
        {"reason": f"Redis at {SHOWN} refuses the relay's writes (LOADING Redis is loading)"},
    )
    conflict = "Redis holds the functions of another relay version (tablier_3)"
    assert health.not_reached(Conflict(conflict)) == Say("backplane_refused", {"reason": conflict})
    assert health.stats.errors == 3  # another version's functions are no failed command


def test_losing_redis_is_decided_once_until_it_is_reached_again() -> None:
    health = up()
    lost = health.failed(Unreachable(ConnectionResetError("reset by peer")))
    reason = f"Redis at {SHOWN} cannot be reached (ConnectionResetError: reset by peer)"
    assert lost == Lose(reason)
    assert health.failed(Unreachable(TimeoutError())) is None  # every member went already
    assert health.unavailable == reason
    assert health.stats.errors == 2
    health.up("ab12cd34")
    assert health.stats.reconnects == 1
    assert health.failed(Unreachable(TimeoutError())) == Lose(
        f"Redis at {SHOWN} cannot be reached (TimeoutError)"
    )


def test_refused_writes_are_said_once_and_lifted_by_a_write_taken() -> None:
    health = up()
    said = health.failed(Refusal("OOM command not allowed when used memory > 'maxmemory'."))
    assert isinstance(said, Say) and said.event == "backplane_refused"
    assert health.refused is not None and health.down is None
    assert health.unavailable == health.refused
    assert health.failed(Refusal("READONLY You can't write against a read only replica.")) is None
    assert health.writable() == Say("backplane_writable", {"redis": SHOWN})
    assert health.unavailable is None


def test_another_version_serving_redis_takes_the_process_down() -> None:
    health = up()
    lost = health.failed(Refusal(f"{VERSION_ERROR} tablier_9"))
    assert lost == Lose(f"Redis serves the relay version 'tablier_9', not {NAME}")
    assert health.refused is None


def test_nothing_is_lost_while_the_process_closes() -> None:
    health = up()
    health.closing = True
    assert health.failed(Unreachable(ConnectionResetError())) is None
    assert health.lose("Redis no longer holds the relay's functions") is None


def test_a_link_whose_answers_are_overdue_is_lost_and_a_quiet_one_pinged() -> None:
    health = up()
    assert health.beat(now=100.0, busy=True, heard=100.0 - TIMEOUT) is None  # not overdue yet
    assert health.beat(now=100.0, busy=False, heard=100.0 - TIMEOUT / 2) is None
    assert health.beat(now=100.0, busy=False, heard=99.0 - TIMEOUT / 2) == PING
    lost = health.beat(now=100.0, busy=True, heard=99.0 - TIMEOUT)
    assert isinstance(lost, Lose) and "Redis did not answer in 2 s" in lost.reason
    assert health.stats.errors == 1
    assert health.beat(now=200.0, busy=True, heard=0.0) is None  # lost already


def test_round_trips_are_counted_and_summed() -> None:
    health = Health(URL)
    health.round_trip(0.25)
    health.round_trip(0.5)
    assert (health.stats.round_trips, health.stats.round_trip_seconds) == (2, 0.75)


def test_a_reason_holds_at_most_what_a_log_line_should() -> None:
    health = up()
    lost = health.failed(Unreachable(OSError("x" * 5000)))
    assert isinstance(lost, Lose) and len(lost.reason) < 300


def test_no_password_nor_query_is_ever_shown() -> None:
    assert safe_url("redis://localhost:6379/0") == "redis://localhost:6379/0"
    assert safe_url("redis://:pw@host/0?password=pw#x") == "redis://:***@host/0"
    assert safe_url("unix:///run/redis.sock?db=1").endswith("/run/redis.sock")
    assert "hunter2" not in Health(URL).redis


ERRORS = st.sampled_from([ConnectionResetError("reset"), TimeoutError(), OSError("unread")])
HAPPENINGS = st.lists(
    st.one_of(
        st.builds(Unreachable, ERRORS),
        st.builds(Refusal, st.sampled_from(["OOM", "READONLY", f"{VERSION_ERROR} t9"])),
        st.sampled_from(["up", "writable"]),
        st.floats(0, 10).map(lambda late: ("beat", late)),
    ),
    max_size=40,
)


@given(HAPPENINGS)
def test_each_loss_is_decided_once_and_the_state_says_why(happenings: list[object]) -> None:
    """Whatever happens: between two connections every member is let go at most once; a
    process is available exactly when Redis was reached and takes writes; every error
    is counted."""
    health = Health(URL)
    losses, errors, was_down = 0, 0, True
    for happening in happenings:
        before = health.stats.errors
        if happening == "up":
            health.up("ab12cd34")
            losses, was_down = 0, False
        elif happening == "writable":
            if health.down is None:
                health.writable()
        elif isinstance(happening, tuple):
            decided = health.beat(now=100.0, busy=True, heard=100.0 - TIMEOUT - happening[1])
            losses += isinstance(decided, Lose)
            errors += health.stats.errors - before
        else:
            assert isinstance(happening, Unreachable | Refusal)
            decided = health.failed(happening)
            losses += isinstance(decided, Lose)
            errors += 1
        assert losses <= 1 and not (was_down and losses)
        assert (health.unavailable is None) == (health.down is None and health.refused is None)
        assert health.stats.errors == errors
