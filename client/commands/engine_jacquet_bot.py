"""``tablier engine jacquet bot``: the computer player's choice, from scripts (JSON out).

Plugs into ``tablier engine jacquet`` (listed in its ``SUBCOMMAND_MODULES``) and reuses that
command's position loading, error reporting and batch conventions. Only :mod:`argparse` is
imported at import time; the engine and the bot are imported when the command runs.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from client.commands.argparse_words import integer, reflow
from client.commands.engine_jacquet import (
    add_position_arguments,
    position_request,
    postillon_blocker,
    run_position_command,
)
from client.i18n import N_, _

if TYPE_CHECKING:
    from engine.jacquet import BearOff, Position

LEVELS = (1, 2, 3, 4)
DEFAULT_LEVEL = 3

EPILOG = N_("""\
output (one JSON object), in the format of one entry of `jacquet moves`:
  {"moves": ["1/7", "7/12"], "position": {...}}
  "position" is the position after the play, turn passed on; a pass is "moves": [].
  When the player to move has a blocked postillon (docs/rules.md 2.4), there is nothing
  to play:
  {"moves": null, "position": null, "winner": "white"|"black", "points": 4}

levels: 1 quick heuristic, 2 best position by evaluation, 3 two-ply expectimax over the 21
rolls, 4 the equity network at one ply, then two plies within a node budget (3 and 4: tens
of milliseconds a move; docs/bot.md has their measured strength). The same position, dice,
level, seed and bear-off rule always give the same play; the seed only breaks ties.

--batch reads one JSON request per line on standard input:
  {"position": {...}, "dice": "6-5", "level": 3, "seed": 0, "bearoff": "trictrac"}
("level", "seed" and "bearoff" are optional and default to the command's options) and answers
each with one line as above, or {"error": "..."} for a bad request (the batch goes on).

example:
  tablier engine jacquet bot --dice 6-5 --level 3 \\
    --position '{"turn": "white", "white": {"1": 15}, "black": {"1": 15}}'
""")


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "bot",
        help=_("the computer player's play for a throw"),
        description=_("Ask the computer player (engine.bot) which legal play it makes."),
        epilog=_(EPILOG),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    reflow(parser)
    add_position_arguments(parser)
    parser.add_argument(
        "--level",
        type=integer,
        choices=LEVELS,
        default=DEFAULT_LEVEL,
        help=_("strength, 1-4 (default: %(default)s)"),
    )
    parser.add_argument(
        "--seed", type=integer, default=0, metavar="S",
        help=_("breaks ties between equal plays (default: 0)"),
    )
    parser.set_defaults(run=run_bot, error_prefix=parser.prog)


def run_bot(args: argparse.Namespace) -> int:
    return run_position_command(
        args,
        answer_one=lambda position: bot_answer(
            position, args.dice, args.level, args.seed, args.bearoff
        ),
        answer_request=lambda request: _answer_request(request, args),
    )


def bot_answer(
    position: Position, dice_text: str, level: int, seed: int, bearoff: BearOff
) -> dict[str, Any]:
    """The JSON answer for one request (raises :class:`engine.errors.EngineError`)."""
    from engine.bot import choose_play
    from engine.jacquet import apply_play, format_move, parse_dice, position_to_json

    dice = parse_dice(dice_text)
    winner = postillon_blocker(position)
    if winner is not None:
        return {"moves": None, "position": None, "winner": winner, "points": 4}
    play = choose_play(position, dice, level=level, seed=seed, bearoff=bearoff)
    return {
        "moves": [format_move(move) for move in play],
        "position": position_to_json(apply_play(position, play)),
    }


def _answer_request(request: object, args: argparse.Namespace) -> dict[str, Any]:
    from engine.errors import InvalidOptionsError

    fields = position_request(request, args.bearoff, extra_keys=("level", "seed"))
    level = fields.extra.get("level", args.level)
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise InvalidOptionsError(f'"level" must be 1, 2, 3 or 4, not {level!r}')
    seed = fields.extra.get("seed", args.seed)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidOptionsError(f'"seed" must be a whole number, not {seed!r}')
    return bot_answer(fields.position, fields.dice, level, seed, fields.bearoff)
