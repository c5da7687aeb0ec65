"""``tablier engine goose``: play a Goose game from given dice, or simulate many (JSON out).

``play`` is a public contract other programs depend on: one JSON line per turn taken or
missed, then one final line. ``simulate`` draws its dice from a seeded PRNG that lives here,
never in ``engine/``. Only :mod:`argparse` is imported at import time, so ``tablier --help``
stays fast; the engine is imported by the functions that run the commands.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from client.commands.argparse_words import integer, reflow
from client.commands.scripting import OneLineErrorParser, answer_batch, fail, reader_left
from client.i18n import N_, _
from client.setup import RULES_HELP

if TYPE_CHECKING:
    from engine.goose import GooseEvent, GooseOptions

RULE_SETS = ("daumont", "1792")
REQUEST_KEYS = ("rules", "players", "ante", "fee", "dice")

PLAY_EPILOG = N_("""\
output (one JSON object per line):
  every turn taken or missed, in order:
    {"turn": k, "player": seat, "dice": [a, b] or null, "missed": null or "inn"|"well"|"prison",
     "positions": [square of each seat], "status": ["free"|"inn"|"well"|"prison", ...],
     "pot": tokens in the pot, "paid": [tokens each seat has put in, ante included],
     "events": [{"type": "Moved", "seat": 0, "start": 0, "end": 7, ...}, ...]}
  then the final line:
    {"result": "win"|"blocked"|"unfinished", "winner": seat or null, "pot": ...,
     "paid": [...], "payouts": [...], "throws_used": n}
  Missed turns are reported until a throw is needed; "unfinished" means the throws ran out.

--batch reads one JSON request per line on standard input, e.g.
  {"rules": "1792", "players": 3, "ante": 4, "fee": 1, "dice": ["6-3", "4-5"]}
and answers each with one line {"turns": [...], "final": {...}}, or {"error": "..."} for
a bad request (the batch goes on). Keys a request omits take the command-line values.

example:
  tablier engine goose play --rules daumont --players 2 --dice 6-3,5-4,3-3
""")

SIMULATE_EPILOG = N_("""\
output: one JSON object
  {"players": N, "games": G, "seed": S, "rules": R, "ante": A, "fee": F, "lots": false,
   "mean_turns": ..., "max_turns": ..., "blocked_rate": ..., "wins_by_seat": [...],
   "mean_pot": ...}
The same arguments always print the same summary.

example:
  tablier engine goose simulate --players 4 --games 1000 --seed 7
""")


def register(games: Any) -> None:
    parser: argparse.ArgumentParser = games.add_parser(
        "goose",
        help=_("Jeu de l'oie: play a game from given dice, or simulate random games"),
        description=_(
            "The Jeu de l'oie rules engine (docs/rules.md, section 1), driven from scripts. "
            "Seats are numbered from 0; squares run from 0 (off the board) to 63."
        ),
    )
    commands = parser.add_subparsers(
        title=_("commands"), metavar=_("COMMAND"), required=True, parser_class=OneLineErrorParser
    )

    play = commands.add_parser(
        "play",
        help=_("play one game from a list of throws, printing every turn as JSON"),
        description=_(
            "Play seats 0..N-1 in seat order, seat 0 first (no lots), consuming the given\n"
            "throws in order; a missed turn (inn, well, prison) consumes none."
        ),
        epilog=_(PLAY_EPILOG),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    reflow(play)
    _add_option_arguments(
        play, players_help=_("number of players, 2 to 15 (required unless --batch)")
    )
    play.add_argument(
        "--dice",
        metavar=_("THROWS"),
        help=_('the throws in order, comma-separated: "6-3,4-5,1-1" (required unless --batch)'),
    )
    play.add_argument(
        "--batch",
        action="store_true",
        help=_("read one JSON request per line on standard input and answer each on one line"),
    )
    play.set_defaults(run=run_play, error_prefix=play.prog)

    simulate = commands.add_parser(
        "simulate",
        help=_("play many random games from a seeded PRNG and print a JSON summary"),
        description=_(
            "Play G games with dice drawn from a PRNG seeded with S (seat 0 first unless\n"
            "--lots) and summarise them: mean turns, blocked rate, wins by seat, mean pot."
        ),
        epilog=_(SIMULATE_EPILOG),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    reflow(simulate)
    _add_option_arguments(simulate, players_help=_("number of players, 2 to 15"), required=True)
    simulate.add_argument(
        "--games", type=integer, required=True, metavar="G", help=_("how many games to play (≥ 1)")
    )
    simulate.add_argument(
        "--seed", type=integer, required=True, metavar="S", help=_("seed of the dice PRNG")
    )
    simulate.add_argument(
        "--lots",
        action="store_true",
        help=_("decide who plays first by the lots (docs/rules.md 1.3) instead of seat 0"),
    )
    simulate.set_defaults(run=run_simulate, error_prefix=simulate.prog)


def _add_option_arguments(
    parser: argparse.ArgumentParser, *, players_help: str, required: bool = False
) -> None:
    parser.add_argument(
        "--rules",
        choices=RULE_SETS,
        default="daumont",
        help=_(RULES_HELP),
    )
    parser.add_argument("--players", type=integer, metavar="N", required=required,
                        help=players_help)  # fmt: skip
    parser.add_argument(
        "--ante",
        type=integer,
        default=4,
        metavar=_("TOKENS"),
        help=_("tokens each player puts in the pot before play (default: %(default)s)"),
    )
    parser.add_argument(
        "--fee",
        type=integer,
        default=1,
        metavar=_("TOKENS"),
        help=_("tokens paid for each hazard, and by a met player (default: %(default)s)"),
    )


def run_play(args: argparse.Namespace) -> int:
    import json

    from engine.errors import EngineError
    from engine.goose import parse_throws

    if args.batch:
        if args.dice is not None:
            return fail(
                args, _("--dice cannot be used with --batch: each request carries its dice")
            )
        try:
            answer_batch(lambda request: _answer_request(request, args))
        except BrokenPipeError:
            return reader_left()
        return 0
    if args.players is None or args.dice is None:
        return fail(args, _("--players and --dice are required (or use --batch)"))
    try:
        options = _options(args)
        throws = parse_throws(args.dice)
    except EngineError as error:
        return fail(args, str(error))
    try:
        for line in _play_lines(options, throws):
            sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        return reader_left()
    return 0


def _options(args: argparse.Namespace) -> GooseOptions:
    from engine.goose import GooseOptions

    return GooseOptions(players=args.players, rules=args.rules, ante=args.ante, fee=args.fee)


def _answer_request(request: object, args: argparse.Namespace) -> dict[str, Any]:
    options, throws = _parse_request(request, args)
    *turns, final = _play_lines(options, throws)
    return {"turns": turns, "final": final}


def _parse_request(
    request: object, defaults: argparse.Namespace
) -> tuple[GooseOptions, tuple[tuple[int, int], ...]]:
    """One batch request → options and throws; keys it omits take *defaults*."""
    from engine.errors import InvalidOptionsError
    from engine.goose import GooseOptions, parse_throws

    if not isinstance(request, dict):
        raise InvalidOptionsError('a request is a JSON object like {"players": 2, ...}')
    unknown = sorted(set(request) - set(REQUEST_KEYS))
    if unknown:
        raise InvalidOptionsError(
            f"unknown key {unknown[0]!r}: a request has only {', '.join(REQUEST_KEYS)}"
        )
    players = request.get("players", defaults.players)
    if players is None:
        raise InvalidOptionsError("the request does not say how many players")
    dice = request.get("dice")
    if not isinstance(dice, list):
        raise InvalidOptionsError('"dice" must be a list of throws like ["6-3", "4-5"]')
    options = GooseOptions(
        players=players,
        rules=request.get("rules", defaults.rules),
        ante=request.get("ante", defaults.ante),
        fee=request.get("fee", defaults.fee),
    )
    return options, parse_throws(dice)


def _play_lines(
    options: GooseOptions, throws: Sequence[tuple[int, int]]
) -> Iterator[dict[str, Any]]:
    """The ``play`` output: one object per turn taken or missed, then the final object."""
    from engine.awaiting import MissTurn, ThrowDice
    from engine.goose import miss_turn, new_game, throw

    state = new_game(options, first=0)
    used = 0
    while True:
        awaiting = state.awaiting
        if isinstance(awaiting, MissTurn):
            outcome = miss_turn(state)
            dice = None
        elif isinstance(awaiting, ThrowDice) and used < len(throws):
            dice = throws[used]
            used += 1
            outcome = throw(state, dice)
        else:
            break
        seat = state.to_move
        state = outcome.state
        yield {
            "turn": state.turn_number,
            "player": seat,
            "dice": None if dice is None else list(dice),
            "missed": awaiting.reason if isinstance(awaiting, MissTurn) else None,
            "positions": list(state.squares),
            "status": list(state.status),
            "pot": state.pot,
            "paid": list(state.paid),
            "events": [_event_json(event) for event in outcome.events],
        }
    yield {
        "result": state.result or "unfinished",
        "winner": state.winner,
        "pot": state.pot,
        "paid": list(state.paid),
        "payouts": list(state.payouts),
        "throws_used": used,
    }


def _event_json(event: GooseEvent) -> dict[str, Any]:
    """An event as a JSON object: its type name, its fields, and a hazard's square and name."""
    from dataclasses import fields

    from engine.goose import Hazard

    obj: dict[str, Any] = {"type": type(event).__name__}
    for field in fields(event):
        value = getattr(event, field.name)
        obj[field.name] = list(value) if isinstance(value, tuple) else value
    if isinstance(event, Hazard):
        obj["square"] = event.SQUARE
        obj["name"] = event.NAME
    return obj


def run_simulate(args: argparse.Namespace) -> int:
    import json

    from engine.errors import EngineError
    from engine.goose import new_game, play_out

    if args.games < 1:
        return fail(args, _("--games must be at least 1, not {games}").format(games=args.games))
    try:
        options = _options(args)
    except EngineError as error:
        return fail(args, str(error))
    dice = _seeded_dice(args.seed)

    wins = [0] * options.players
    blocked = total_turns = max_turns = total_pot = 0
    for _game in range(args.games):
        state = play_out(new_game(options, first=None if args.lots else 0), dice)
        if state.winner is not None:
            wins[state.winner] += 1
        else:
            blocked += 1
        total_turns += state.turn_number
        max_turns = max(max_turns, state.turn_number)
        total_pot += state.pot
    summary = {
        "players": options.players,
        "games": args.games,
        "seed": args.seed,
        "rules": options.rules,
        "ante": options.ante,
        "fee": options.fee,
        "lots": args.lots,
        "mean_turns": round(total_turns / args.games, 3),
        "max_turns": max_turns,
        "blocked_rate": round(blocked / args.games, 4),
        "wins_by_seat": wins,
        "mean_pot": round(total_pot / args.games, 3),
    }
    sys.stdout.write(json.dumps(summary) + "\n")
    return 0


def _seeded_dice(seed: int) -> Iterator[tuple[int, int]]:
    """An endless stream of throws from a PRNG seeded with *seed*: the same seed, the same dice."""
    import random

    draw = random.Random(seed).randint
    while True:
        yield (draw(1, 6), draw(1, 6))
