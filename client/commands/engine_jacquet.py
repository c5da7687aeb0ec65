"""``tablier engine jacquet``: the Jacquet rules engine from scripts (JSON in, JSON out).

``moves`` is a public contract other programs depend on. Only :mod:`argparse` is imported
at import time, so ``tablier --help`` stays fast; the engine is imported by the function
that runs the command.

More subcommands plug in beside ``moves``: list their modules in :data:`SUBCOMMAND_MODULES`;
each exposes ``register(commands)`` and adds its parser to the ``commands`` group it is given
(``parser_class`` there reports bad arguments on one line).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from client.commands.argparse_words import reflow
from client.commands.scripting import OneLineErrorParser, answer_batch, fail, reader_left
from client.i18n import N_, _
from client.setup import BEAROFF_HELP

if TYPE_CHECKING:
    from engine.jacquet import BearOff, Position

SUBCOMMAND_MODULES: tuple[str, ...] = ("client.commands.engine_jacquet_bot",)
"""Modules adding ``tablier engine jacquet <command>`` (e.g. the computer player's)."""

BEAROFF_RULES = ("backgammon", "trictrac")
"""``engine.jacquet.BEAROFF_RULES``, repeated so ``--help`` need not import the engine."""

MOVES_EPILOG = N_("""\
position (JSON): points on each side's own track (1-24); absent points are empty;
borne-off checkers are 15 minus the checkers on the board:
  {"turn": "white", "white": {"1": 14, "12": 1}, "black": {"1": 15}}

output (one JSON object):
  {"plays": [{"moves": ["1/7", "7/12"], "position": {...}}, ...]}
  one play per distinct resulting position, in the order the engine generates them; each
  "position" is the position after the play, with the turn passed to the opponent. A pass is
  one play with "moves": []. When the player to move has a blocked postillon
  (docs/rules.md 2.4):
  {"plays": [], "winner": "white"|"black", "points": 4}

--batch reads one JSON request per line on standard input:
  {"position": {...}, "dice": "6-5", "bearoff": "trictrac"}      ("bearoff" is optional)
and answers each with one line as above, or {"error": "..."} for a bad request (the batch
goes on).

example:
  tablier engine jacquet moves --dice 6-5 \\
    --position '{"turn": "white", "white": {"1": 15}, "black": {"1": 15}}'
""")


def register(games: Any) -> None:
    parser: argparse.ArgumentParser = games.add_parser(
        "jacquet",
        help=_("Jacquet: the legal plays of a throw, or the computer player's choice"),
        description=_(
            "The Jacquet rules engine (docs/rules.md, section 2), driven from scripts. Points are "
            "numbered on each player's own track: 1 is his talon, 19-24 his last quarter."
        ),
    )
    commands = parser.add_subparsers(
        title=_("commands"), metavar=_("COMMAND"), required=True, parser_class=OneLineErrorParser
    )
    moves = commands.add_parser(
        "moves",
        help=_("every legal play of a throw, with the position each leads to"),
        description=_(
            "List the legal plays for the player to move: one per distinct resulting\n"
            "position, each using as many dice as the rules require (docs/rules.md 2.5)."
        ),
        epilog=_(MOVES_EPILOG),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    reflow(moves)
    add_position_arguments(moves)
    moves.set_defaults(run=run_moves, error_prefix=moves.prog)
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(commands)


def add_position_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments every command about one position and throw takes."""
    parser.add_argument(
        "--position", metavar="JSON", help=_("the position (required unless --batch)")
    )
    parser.add_argument(
        "--dice", metavar="A-B", help=_('the throw, e.g. "6-5" (required unless --batch)')
    )
    parser.add_argument(
        "--bearoff",
        choices=BEAROFF_RULES,
        default="backgammon",
        help=_(BEAROFF_HELP),
    )
    parser.add_argument(
        "--batch", action="store_true", help=_("read one JSON request per line on standard input")
    )


def run_moves(args: argparse.Namespace) -> int:
    return run_position_command(
        args,
        answer_one=lambda position: moves_answer(position, args.dice, args.bearoff),
        answer_request=lambda request: _answer_request(request, args.bearoff),
    )


def run_position_command(
    args: argparse.Namespace,
    answer_one: Callable[[Position], dict[str, Any]],
    answer_request: Callable[[object], dict[str, Any]],
) -> int:
    """Answer ``--position``/``--dice`` once, or every ``--batch`` request line."""
    import json

    from engine.errors import EngineError
    from engine.jacquet import position_from_json

    if args.batch:
        if args.position is not None or args.dice is not None:
            return fail(args, _("--position and --dice cannot be used with --batch"))
        try:
            answer_batch(answer_request)
        except BrokenPipeError:
            return reader_left()
        return 0
    if args.position is None or args.dice is None:
        return fail(args, _("--position and --dice are required (or use --batch)"))
    try:
        position = json.loads(args.position)
    except RecursionError:
        return fail(args, _("the position is not valid JSON: {error}").format(
            error=_("it is nested too deeply")))  # fmt: skip
    except ValueError as error:  # JSONDecodeError, or an integer over 4,300 digits
        return fail(args, _("the position is not valid JSON: {error}").format(error=error))
    try:
        answer = answer_one(position_from_json(position))
    except EngineError as error:
        return fail(args, str(error))
    try:
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        return reader_left()
    return 0


def moves_answer(position: Position, dice_text: str, bearoff: BearOff) -> dict[str, Any]:
    """The JSON answer for one request (raises :class:`engine.errors.EngineError`)."""
    from engine.jacquet import format_move, legal_play_results, parse_dice, position_to_json

    dice = parse_dice(dice_text)
    winner = postillon_blocker(position)
    if winner is not None:
        return {"plays": [], "winner": winner, "points": 4}
    return {
        "plays": [
            {"moves": [format_move(move) for move in play], "position": position_to_json(after)}
            for play, after in legal_play_results(position, dice, bearoff)
        ]
    }


def postillon_blocker(position: Position) -> str | None:
    """The side that wins x4 because the side to move has a blocked postillon, else None.

    Raises :class:`engine.errors.InvalidPositionError` for a game that is already over, which
    has no player to move.
    """
    from engine.errors import InvalidPositionError
    from engine.jacquet import SIDE_NAMES, blocked_postillon

    for side, name in enumerate(SIDE_NAMES):
        if position.borne_off(side) == 15:
            raise InvalidPositionError(f"the game is over: {name} has borne off all 15 checkers")
    return SIDE_NAMES[1 - position.turn] if blocked_postillon(position) else None


def _answer_request(request: object, default_bearoff: BearOff) -> dict[str, Any]:
    fields = position_request(request, default_bearoff, extra_keys=())
    return moves_answer(fields.position, fields.dice, fields.bearoff)


class PositionRequest(NamedTuple):
    """The common part of a Jacquet batch request: where, which dice, which bear-off rule."""

    position: Position
    dice: str
    bearoff: BearOff
    extra: dict[str, Any]


def position_request(
    request: object, default_bearoff: BearOff, extra_keys: tuple[str, ...]
) -> PositionRequest:
    """Check a batch request ``{"position": ..., "dice": "6-5", "bearoff": ...}`` that may
    also carry *extra_keys* (returned as they are, for the command to check)."""
    from engine.errors import InvalidOptionsError, NotationError
    from engine.jacquet import check_bearoff, position_from_json

    if not isinstance(request, dict):
        raise InvalidOptionsError('a request is a JSON object: {"position": ..., "dice": "6-5"}')
    known = ("position", "dice", "bearoff", *extra_keys)
    unknown = sorted(str(key) for key in request if key not in known)
    if unknown:
        raise InvalidOptionsError(f"unknown request key {unknown[0]!r}")
    if "position" not in request:
        raise InvalidOptionsError("the request has no 'position'")
    dice = request.get("dice")
    if not isinstance(dice, str):
        raise NotationError(f'"dice" must be a throw like "6-5", not {dice!r}')
    bearoff = check_bearoff(str(request.get("bearoff", default_bearoff)))
    extra = {key: request[key] for key in extra_keys if key in request}
    return PositionRequest(position_from_json(request["position"]), dice, bearoff, extra)
