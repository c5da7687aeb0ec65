"""Jacquet (docs/rules.md §2): positions, legal plays, notation and the match flow.

Everything callers need is importable from here; see docs/engine-api.md.
"""

from engine.jacquet.bearoff import BEAROFF_RULES, BearOff, check_bearoff
from engine.jacquet.events import (
    GameWon,
    JacquetEvent,
    MatchWon,
    Moved,
    OpeningThrown,
    Passed,
    PostillonBlocked,
    Rolled,
)
from engine.jacquet.explain import explain_illegal
from engine.jacquet.game import (
    JacquetOptions,
    JacquetState,
    Outcome,
    new_match,
    play,
    throw,
    win_multiplier,
)
from engine.jacquet.json_format import position_from_json, position_to_json
from engine.jacquet.legal import (
    apply_play,
    blocked_postillon,
    legal_play_results,
    legal_plays,
    must_pass,
)
from engine.jacquet.move import OFF, Move, Play
from engine.jacquet.notation import (
    format_dice,
    format_move,
    format_play,
    parse_dice,
    parse_move,
    parse_play,
)
from engine.jacquet.position import BLACK, SIDE_NAMES, WHITE, Position, to_physical

__all__ = [
    "BEAROFF_RULES",
    "BLACK",
    "OFF",
    "SIDE_NAMES",
    "WHITE",
    "BearOff",
    "GameWon",
    "JacquetEvent",
    "JacquetOptions",
    "JacquetState",
    "MatchWon",
    "Move",
    "Moved",
    "OpeningThrown",
    "Outcome",
    "Passed",
    "Play",
    "Position",
    "PostillonBlocked",
    "Rolled",
    "apply_play",
    "blocked_postillon",
    "check_bearoff",
    "explain_illegal",
    "format_dice",
    "format_move",
    "format_play",
    "legal_play_results",
    "legal_plays",
    "must_pass",
    "new_match",
    "parse_dice",
    "parse_move",
    "parse_play",
    "play",
    "position_from_json",
    "position_to_json",
    "throw",
    "to_physical",
    "win_multiplier",
]
