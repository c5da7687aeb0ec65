"""Durations the app shows are said in the player's language (issue 18): the protocol gives
them as clauses, its own errors keep their English."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from client import i18n
from client.net.catchup import Waiting
from client.net.playing import Playing
from client.net.roster import Roster
from client.net.spectators import Arrival
from protocol.clock import duration, seconds

NBSP = "\u00a0"
DAY_MS = 24 * 60 * 60 * 1000


@pytest.fixture(autouse=True)
def speak_french() -> Iterator[None]:
    i18n.use("fr")
    yield
    i18n.use("en")


@pytest.mark.parametrize(
    ("ms", "english", "french"),
    [
        (6_000, "6 s", f"6{NBSP}s"),
        (250_000, "4 min 10 s", f"4{NBSP}min 10{NBSP}s"),
        (120_000, "2 min", f"2{NBSP}min"),
        (10_920_000, "3 h 2 min", f"3{NBSP}h 2{NBSP}min"),
        (DAY_MS, "more than a day", "plus d'un jour"),
    ],
)
def test_a_duration_is_said_in_the_language_in_use(ms: int, english: str, french: str) -> None:
    assert i18n.say(duration(ms)) == french
    assert seconds(ms) == english  # what the protocol's errors carry


def test_a_resumed_seat_says_how_long_it_waited_in_french() -> None:
    note = Waiting(seats=(1,), since=0, until=3 * DAY_MS).note(("Ada", "Bob"), now=DAY_MS + 61_000)
    assert "plus d'un jour" in note
    assert "more than a day" not in note


def test_a_late_spectator_says_how_long_it_waited_in_french() -> None:
    nobody_connected = Playing(Roster("Eve"), lambda payload: None)
    note = Arrival(since=0).note(nobody_connected, now=2 * DAY_MS)
    assert "plus d'un jour" in note and "more than a day" not in note
