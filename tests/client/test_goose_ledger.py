"""The Goose ledger in its 30-column side panel: a held player's plight keeps its hazard."""

from __future__ import annotations

import dataclasses

from rich.console import Console

from client.widgets.ledger import GooseLedger
from client.widgets.tokens import seat_tokens
from engine.goose import GooseOptions, new_game

NAMES = ("Alice", "Bruno", "Chloé")


def test_a_player_held_in_prison_shows_where_even_when_the_line_is_cut() -> None:
    state = new_game(GooseOptions(players=3), first=0)
    state = dataclasses.replace(state, squares=(52, 31, 0), status=("prison", "well", "free"))
    ledger = GooseLedger(NAMES, seat_tokens(NAMES))
    ledger.show(state)
    lines = Console(width=29).render_lines(ledger.render(), pad=False)
    shown = ["".join(segment.text for segment in line) for line in lines]
    assert "prison" in shown[1] and "well" in shown[2]
