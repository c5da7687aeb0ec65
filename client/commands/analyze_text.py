"""The analysis report as text or JSON. Every sentence of the text report is in :data:`TEXT`.

The report is built from the analysis data alone (:mod:`engine.bot.analysis_json` is its
JSON form), so translating it (issue 18) means translating :data:`TEXT` and nothing else:
the templates take named fields, numbers are formatted by :func:`signed` and
:func:`points`, and no sentence is assembled from pieces elsewhere.
"""

from __future__ import annotations

import json
from typing import Any, Final

from client.commands.analyze_log import Analysed, GooseLuck
from engine.bot.analysis import MatchAnalysis, PlayerSummary, TurnAnalysis
from engine.bot.analysis_json import analysis_to_json
from engine.jacquet import SIDE_NAMES, format_dice

TEXT: Final = {
    "title": "Analysis of {log}\nSHA-256 {sha256}",
    "jacquet_players": "Jacquet: {white} (white) against {black} (black). "
    "Plays judged by the equity network at {plies} ply; equity in points.",
    "goose_players": "Jeu de l'oie: {players}. The Goose has no decisions, only luck.",
    "game": "Game {game}",
    "turn": "{number:>4}. {name:<{width}} {dice}  {played:<24} {verdict}",
    "forced": "forced",
    "best": "best",
    "error": "{mark}: loses {loss} (best {best})",
    "small_error": "loses {loss} (best {best})",
    "luck": "luck {luck}",
    "summary": "Summary",
    "decisions": "decisions (turns with a choice)",
    "total_loss": "equity lost in all",
    "mean_loss": "equity lost per decision",
    "marks": "doubtful / bad / very bad",
    "rating": "rating",
    "rolls": "rolls",
    "luck_total": "luck of the dice",
    "points": "points scored",
    "luck_adjusted": "luck-adjusted result",
    "goose_turns": "turns thrown",
    "goose_missed": "turns lost (inn, well, prison)",
    "goose_hazards": "hazards landed on",
    "goose_paid": "tokens paid into the pot",
    "goose_won": "tokens taken from the pot",
    "goose_net": "balance",
    "thresholds": "Marks: doubtful from 0.040, bad from 0.080, very bad from 0.160 points lost.",
}

MARK_NAMES: Final = {"doubtful": "doubtful", "bad": "bad", "very bad": "very bad"}
"""The marks as shown (the data keeps the English keys)."""


def points(micro: int) -> str:
    """Micro-points as points with three decimals: ``0.123``."""
    return f"{micro / 1_000_000:.3f}"


def signed(micro: int) -> str:
    """Micro-points with their sign: ``+0.123``, ``-1.000``."""
    return f"{micro / 1_000_000:+.3f}"


def format_report(analysed: Analysed, fmt: str) -> str:
    """The report, as text or as JSON (one object per turn, then the summary)."""
    if fmt == "json":
        return json.dumps(_json(analysed), indent=1, ensure_ascii=False) + "\n"
    lines = [TEXT["title"].format(log=analysed.log_name, sha256=analysed.log_sha256), ""]
    if analysed.analysis is not None:
        lines += _jacquet_text(analysed.analysis)
    elif analysed.goose is not None:
        lines += _goose_text(analysed.players, analysed.goose)
    return "\n".join(lines) + "\n"


def _json(analysed: Analysed) -> dict[str, Any]:
    if analysed.analysis is not None:
        return analysis_to_json(analysed.analysis)
    assert analysed.goose is not None
    return {
        "format": "tablier-analysis/1",
        "log": {"file": analysed.log_name, "sha256": analysed.log_sha256},
        "game": "goose",
        "players": list(analysed.players),
        "summary": [
            {
                "seat": g.seat,
                "turns": g.turns,
                "missed_turns": g.missed,
                "hazards": g.hazards,
                "paid": g.paid,
                "won": g.won,
            }
            for g in analysed.goose
        ],
    }


def _verdict(turn: TurnAnalysis) -> str:
    if turn.forced:
        return TEXT["forced"]
    if turn.loss == 0:
        return TEXT["best"]
    key = "error" if turn.mark else "small_error"
    return TEXT[key].format(mark=MARK_NAMES.get(turn.mark, ""), loss=points(turn.loss),
                            best=turn.best)  # fmt: skip


def _jacquet_text(analysis: MatchAnalysis) -> list[str]:
    white, black = analysis.players
    lines = [TEXT["jacquet_players"].format(white=white, black=black, plies=analysis.plies)]
    width = max(len(white), len(black))
    game = None
    for number, turn in enumerate(analysis.turns, start=1):
        if turn.game != game:
            game = turn.game
            lines += ["", TEXT["game"].format(game=game)]
        verdict = _verdict(turn) + "  " + TEXT["luck"].format(luck=signed(turn.luck))
        lines.append(TEXT["turn"].format(
            number=number, name=analysis.players[turn.seat], width=width,
            dice=format_dice(turn.dice), played=turn.played, verdict=verdict,
        ))  # fmt: skip
    lines += ["", TEXT["summary"], *_summary_table(analysis.players, analysis.summary), "",
              TEXT["thresholds"]]  # fmt: skip
    return lines


def _row(label: str, values: list[str], width: int) -> str:
    return f"  {label:<34}" + "".join(f"{value:>{width}}" for value in values)


def _summary_table(players: tuple[str, str], summary: tuple[PlayerSummary, ...]) -> list[str]:
    width = max(14, *(len(name) + 2 for name in players))
    rows = [
        ("", [f"{name} ({SIDE_NAMES[seat]})" for seat, name in enumerate(players)]),
        (TEXT["decisions"], [str(s.decisions) for s in summary]),
        (TEXT["total_loss"], [points(s.total_loss) for s in summary]),
        (TEXT["mean_loss"], [points(s.mean_loss) for s in summary]),
        (TEXT["marks"], [f"{s.doubtful} / {s.bad} / {s.very_bad}" for s in summary]),
        (TEXT["rating"], [s.rating or "-" for s in summary]),
        (TEXT["rolls"], [str(s.rolls) for s in summary]),
        (TEXT["luck_total"], [signed(s.luck) for s in summary]),
        (TEXT["points"], [str(s.points) for s in summary]),
        (TEXT["luck_adjusted"], [signed(s.luck_adjusted) for s in summary]),
    ]
    width = max(width, *(len(value) + 2 for _label, values in rows for value in values))
    return [_row(label, values, width) for label, values in rows]


def _goose_text(players: tuple[str, ...], luck: tuple[GooseLuck, ...]) -> list[str]:
    lines = [TEXT["goose_players"].format(players=", ".join(players)), ""]
    width = max(8, *(len(name) + 2 for name in players))
    rows = [
        ("", list(players)),
        (TEXT["goose_turns"], [str(g.turns) for g in luck]),
        (TEXT["goose_missed"], [str(g.missed) for g in luck]),
        (TEXT["goose_hazards"], [str(g.hazards) for g in luck]),
        (TEXT["goose_paid"], [str(g.paid) for g in luck]),
        (TEXT["goose_won"], [str(g.won) for g in luck]),
        (TEXT["goose_net"], [f"{g.won - g.paid:+d}" for g in luck]),
    ]
    return [*lines, *(_row(label, values, width) for label, values in rows)]
