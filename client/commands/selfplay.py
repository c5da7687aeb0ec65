"""``tablier selfplay``: a complete match between computer seats, written to a log."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from client.commands.argparse_words import integer
from client.commands.paths import check_new_file
from client.i18n import _, format_number, ngettext, path_shown, say, say_error
from client.setup import (
    GOOSE_DEFAULT_ANTE,
    GOOSE_DEFAULT_FEE,
    GOOSE_DEFAULT_PLAYERS,
    GOOSE_DEFAULT_RULES,
    GOOSE_MAX_PLAYERS,
    GOOSE_MIN_PLAYERS,
    JACQUET_DEFAULT_BEAROFF,
    JACQUET_DEFAULT_MATCH_TO,
)


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "selfplay",
        help=_("play a whole match between computer seats and write its log"),
        description=_(
            "Play a complete match between computer-controlled seats through real in-memory "
            "protocol sessions (real keys, real dice chains, real signed bytes) and write its "
            "match log. The same --seed and --start-time give the same log, byte for byte."
        ),
    )
    parser.add_argument("game", choices=("goose", "jacquet"), help=_("the game to play"))
    parser.add_argument("--out", required=True, metavar=_("LOG"), help=_("the log file to write"))
    parser.add_argument("--players", type=integer, metavar="N",
                        help=_("goose: number of players, 2-15 (default {default})").format(
                            default=GOOSE_DEFAULT_PLAYERS))  # fmt: skip
    parser.add_argument("--rules", choices=("daumont", "1792"),
                        help=_("goose: rule set (default {default})").format(
                            default=GOOSE_DEFAULT_RULES))  # fmt: skip
    parser.add_argument("--ante", type=integer, metavar=_("TOKENS"),
                        help=_("goose: ante per player (default {default})").format(
                            default=GOOSE_DEFAULT_ANTE))  # fmt: skip
    parser.add_argument("--fee", type=integer, metavar=_("TOKENS"),
                        help=_("goose: fee per hazard (default {default})").format(
                            default=GOOSE_DEFAULT_FEE))  # fmt: skip
    parser.add_argument("--match-to", type=integer, metavar=_("POINTS"),
                        help=_("jacquet: match length in points (default {default})").format(
                            default=JACQUET_DEFAULT_MATCH_TO))  # fmt: skip
    parser.add_argument("--bearoff", choices=("backgammon", "trictrac"),
                        help=_("jacquet: bear-off rule (default {default})").format(
                            default=JACQUET_DEFAULT_BEAROFF))  # fmt: skip
    parser.add_argument("--levels", metavar="A,B",
                        help=_("jacquet: white's and black's player, each random, greedy, pubeval "
                        "or a level 1-4 (default 1,1)"))
    parser.add_argument("--seed", default="0", metavar="S",
                        help=_("seed for keys, chains and dice (default 0)"))
    parser.add_argument("--start-time", type=integer, metavar="MS",
                        help=_("match start, ms since the epoch (default: now)"))
    parser.set_defaults(run=run)


def game_options(args: argparse.Namespace) -> dict[str, int | str]:
    """The game options given on the command line (only those that apply to the game)."""
    names = ("rules", "ante", "fee") if args.game == "goose" else ("match_to", "bearoff")
    wrong = ("match_to", "bearoff") if args.game == "goose" else ("rules", "ante", "fee")
    for name in wrong:
        if getattr(args, name) is not None:
            raise ValueError(_("--{option} is not an option of {game}").format(
                option=name.replace("_", "-"), game=args.game))  # fmt: skip
    return {name: getattr(args, name) for name in names if getattr(args, name) is not None}


def player_count(args: argparse.Namespace) -> int:
    """How many seats: ``--players`` for the Goose (2 to 15), two for Jacquet."""
    if args.game == "jacquet":
        if args.players not in (None, 2):
            raise ValueError(_("jacquet is played by 2 players"))
        return 2
    players: int = GOOSE_DEFAULT_PLAYERS if args.players is None else args.players
    if not GOOSE_MIN_PLAYERS <= players <= GOOSE_MAX_PLAYERS:
        raise ValueError(_("the Goose is played by {low} to {high} players, not {count}").format(
            low=GOOSE_MIN_PLAYERS, high=GOOSE_MAX_PLAYERS, count=players))  # fmt: skip
    return players


def seat_players(spec: str, seed: str) -> Any:
    """The chooser playing each Jacquet seat by ``--levels`` (``"random,3"``); ``seed`` (the
    match's) seeds the random player and the levels' tie-breaks, so a log is reproducible."""
    import hashlib

    from engine.bot.players import PLAYERS, make_player

    names = spec.split(",")
    if len(names) != 2 or any(name not in PLAYERS for name in names):
        raise ValueError(_("--levels takes two of {players} (white,black), not {spec!r}").format(
            players=", ".join(PLAYERS), spec=spec))  # fmt: skip
    base = int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")
    made: dict[int, Any] = {}

    def choose(state: Any, dice: tuple[int, int]) -> Any:
        seat = state.position.turn
        if seat not in made:
            made[seat] = make_player(names[seat], base + seat, state.options.bearoff)
        return made[seat](state.position, dice)

    return choose


def run(args: argparse.Namespace) -> int:
    import time

    try:  # refused before the engines load: a mistyped option is answered at once
        options, players = game_options(args), player_count(args)
        if args.levels is not None and args.game != "jacquet":
            raise ValueError(_("--levels is an option of jacquet"))
        check_new_file(Path(args.out), "--out")
    except ValueError as error:
        print(_("tablier {command}: {error}").format(command="selfplay", error=error),
              file=sys.stderr)  # fmt: skip
        return 2
    from protocol.selfplay import selfplay
    from protocol.verify import result_clause

    start = args.start_time if args.start_time is not None else time.time_ns() // 1_000_000
    try:
        choose = seat_players(args.levels, args.seed) if args.levels else None
        match = selfplay(args.game, options, players=players, seed=args.seed,
                         start_time=start, log_path=Path(args.out), choose=choose)
    except KeyboardInterrupt:  # a log cut short is no match's: it goes (it was ours alone)
        Path(args.out).unlink(missing_ok=True)
        print(_("tablier {command}: interrupted; no log was written").format(command="selfplay"),
              file=sys.stderr)  # fmt: skip
        return 130
    except ValueError as error:  # the engine's or the protocol's refusal of the options
        print(_("tablier {command}: {error}").format(command="selfplay", error=say_error(error)),
              file=sys.stderr)  # fmt: skip
        return 2
    session = match.sessions[0]
    setup = match.setup
    result = say(result_clause(setup.proposal.rules, match.ended, setup.names, match.state))
    turns = ngettext("{count} turn", "{count} turns", session.turns).format(
        count=format_number(session.turns))
    records = ngettext("{count} record", "{count} records", len(session.records)).format(
        count=format_number(len(session.records)))
    print(_("{log}: {game}, {players}; {result}; {turns}, {records}").format(
        log=path_shown(args.out), game=match.setup.proposal.rules.proper_name,
        players=", ".join(match.setup.names), result=result, turns=turns,
        records=records))  # fmt: skip
    return 0
