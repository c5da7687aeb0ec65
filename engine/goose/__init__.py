"""Jeu de l'oie (the Game of the Goose), exactly as docs/rules.md §1 reads the seed texts.

Pure and deterministic: dice are inputs, states are immutable, every transition returns the
new state and the typed events that say what happened, in order.

>>> from engine.goose import GooseOptions, new_game, throw
>>> state = new_game(GooseOptions(players=3), first=0)
>>> state = throw(state, (6, 3)).state       # the opening nine: straight to 26
>>> state.squares, state.awaiting
((26, 0, 0), ThrowDice(seat=1, count=2))
"""

from engine.goose.board import GEESE, GOAL, SQUARE_NAMES, START, is_goose
from engine.goose.events import (
    Blocked,
    Bounced,
    Bridge,
    Death,
    GooseEvent,
    GooseRepeat,
    Hazard,
    Held,
    Inn,
    Labyrinth,
    LotThrown,
    LotTied,
    Met,
    MissedTurn,
    Moved,
    OpeningNine,
    OrderDecided,
    Paid,
    Prison,
    Released,
    Thrown,
    Well,
    Won,
)
from engine.goose.game import miss_turn, new_game, play_out, throw
from engine.goose.notation import format_throw, format_throws, parse_throw, parse_throws
from engine.goose.options import GooseOptions, Rules
from engine.goose.state import GooseState, Outcome, Phase, Result, SeatStatus

__all__ = [
    "GEESE",
    "GOAL",
    "SQUARE_NAMES",
    "START",
    "Blocked",
    "Bounced",
    "Bridge",
    "Death",
    "GooseEvent",
    "GooseOptions",
    "GooseRepeat",
    "GooseState",
    "Hazard",
    "Held",
    "Inn",
    "Labyrinth",
    "LotThrown",
    "LotTied",
    "Met",
    "MissedTurn",
    "Moved",
    "OpeningNine",
    "OrderDecided",
    "Outcome",
    "Paid",
    "Phase",
    "Prison",
    "Released",
    "Result",
    "Rules",
    "SeatStatus",
    "Thrown",
    "Well",
    "Won",
    "format_throw",
    "format_throws",
    "is_goose",
    "miss_turn",
    "new_game",
    "parse_throw",
    "parse_throws",
    "play_out",
    "throw",
]
