"""The analysis report as text or JSON. Every sentence of the text report is in :data:`TEXT`.

The report is built from the analysis data alone (:mod:`engine.bot.analysis_json` is its
JSON form), so translating it (issue 18) means translating :data:`TEXT` and nothing else:
the templates take named fields, numbers are formatted by :func:`signed` and
:func:`points`, and no sentence is assembled from pieces elsewhere.
"""

from __future__ import annotations

from typing import Any, Final

from client.commands.analyze_log import Analysed, GooseLuck
from client.game.marks import MARK_NAMES
from client.i18n import N_, _, decimal_symbol, ngettext, path_shown
from engine.bot.analysis import MARK_THRESHOLDS, MatchAnalysis, PlayerSummary, TurnAnalysis
from engine.bot.analysis_json import analysis_to_json
from engine.jacquet import format_dice
from protocol.export import safe_json

TEXT: Final = {
    "title": N_("Analysis of {log}\nSHA-256 {sha256}"),
    "jacquet_players": N_("Jacquet: {white} (white) against {black} (black). "
    "Plays judged by the equity network at {depth}; equity in points."),
    "goose_players": N_("Jeu de l'oie: {players}. The Goose has no decisions, only luck."),
    "game": N_("Game {game}"),
    "turn": N_("{number:>4}. {name:<{width}} {dice}  {played:<24} {verdict}"),
    "forced": N_("forced"),
    "best": N_("best"),
    "error": N_("{mark}: loses {loss} (best {best})"),
    "small_error": N_("loses {loss} (best {best})"),
    "luck": N_("luck {luck}"),
    "summary": N_("Summary"),
    "decisions": N_("decisions (turns with a choice)"),
    "total_loss": N_("equity lost in all"),
    "mean_loss": N_("equity lost per decision"),
    "marks": N_("doubtful / bad / very bad"),
    "rating": N_("rating"),
    "rolls": N_("rolls"),
    "luck_total": N_("luck of the dice"),
    "points": N_("points scored"),
    "luck_adjusted": N_("luck-adjusted result"),
    "goose_turns": N_("turns thrown"),
    "goose_missed": N_("turns lost (inn, well, prison)"),
    "goose_hazards": N_("hazards landed on"),
    "goose_paid": N_("tokens paid into the pot"),
    "goose_won": N_("tokens taken from the pot"),
    "goose_net": N_("balance"),
    "no_ending": N_(
        "THIS LOG HAS NO ENDING: the match is unfinished, or the log was cut short (whoever "
        "hands a log out may keep only his good stretch). What follows covers the turns it "
        "holds, not a whole match."
    ),
    "cut": N_(
        "ONLY THE FIRST {analysed} OF ITS {turns} TURNS ARE JUDGED (at most {analysed} a "
        "report: tablier analyze --max-turns N)."
    ),
    "thresholds": N_(
        "Marks: doubtful from {doubtful}, bad from {bad}, very bad from {very_bad} points lost."
    ),
}

"""The marks as shown (the data keeps the English keys)."""

RATING_NAMES: Final = {
    "Supernatural": N_("Supernatural"),
    "World class": N_("World class"),
    "Expert": N_("Expert"),
    "Advanced": N_("Advanced"),
    "Intermediate": N_("Intermediate"),
    "Casual player": N_("Casual player"),
    "Beginner": N_("Beginner"),
    "Awful!": N_("Awful!"),
}
"""The ratings as shown (:data:`engine.bot.analysis.RATINGS` keeps gnubg's English names,
which the JSON report carries)."""

SIDE_WORDS: Final = (N_("white"), N_("black"))
""":data:`engine.jacquet.SIDE_NAMES` as shown in the text report."""


def text(key: str) -> str:
    """The sentence *key* of :data:`TEXT` in the language in use."""
    return _(TEXT[key])


def points(micro: int) -> str:
    """Micro-points as points with three decimals: ``0.123``."""
    return f"{micro / 1_000_000:.3f}".replace(".", decimal_symbol())


def signed(micro: int) -> str:
    """Micro-points with their sign: ``+0.123``, ``-1.000``."""
    return f"{micro / 1_000_000:+.3f}".replace(".", decimal_symbol())


def format_report(analysed: Analysed, fmt: str) -> str:
    """The report, as text or as JSON (one object per turn, then the summary)."""
    if fmt == "json":
        return safe_json(_json(analysed), indent=1) + "\n"  # a file's name may hold controls
    title = text("title").format(log=path_shown(analysed.log_name), sha256=analysed.log_sha256)
    lines = [title, *_notes(analysed), ""]
    if analysed.analysis is not None:
        lines += _jacquet_text(analysed.analysis)
    elif analysed.goose is not None:
        lines += _goose_text(analysed.players, analysed.goose)
    return "\n".join(lines) + "\n"


def _notes(analysed: Analysed) -> list[str]:
    """What the report must say before anything else: a log without the match's end, and
    turns left unjudged."""
    notes = [] if analysed.ended else ["", text("no_ending")]
    judged = _judged(analysed)
    if judged is not None and judged < analysed.turns:
        notes += ["", text("cut").format(analysed=judged, turns=analysed.turns)]
    return notes


def _judged(analysed: Analysed) -> int | None:
    return None if analysed.analysis is None else len(analysed.analysis.turns)


def _json(analysed: Analysed) -> dict[str, Any]:
    # First, beside the format: whether the match ended in this log, and how many turns it
    # holds and were judged (a report of a cut log must not pass for a whole match's).
    head: dict[str, Any] = {"format": "tablier-analysis/1", "match_ended": analysed.ended}
    judged = _judged(analysed)
    if judged is not None:
        head |= {"turns_in_log": analysed.turns, "turns_judged": judged}
    if analysed.analysis is not None:
        return head | analysis_to_json(analysed.analysis)
    assert analysed.goose is not None
    return head | {
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
        return text("forced")
    if turn.loss == 0:
        return text("best")
    key = "error" if turn.mark else "small_error"
    return text(key).format(mark=_(MARK_NAMES[turn.mark]) if turn.mark else "",
                            loss=points(turn.loss), best=turn.best)  # fmt: skip


def _jacquet_text(analysis: MatchAnalysis) -> list[str]:
    white, black = analysis.players
    depth = ngettext("{count} ply", "{count} plies", analysis.plies).format(count=analysis.plies)
    lines = [text("jacquet_players").format(white=white, black=black, depth=depth)]
    width = max(len(white), len(black))
    game = None
    for number, turn in enumerate(analysis.turns, start=1):
        if turn.game != game:
            game = turn.game
            lines += ["", text("game").format(game=game)]
        verdict = _verdict(turn) + "  " + text("luck").format(luck=signed(turn.luck))
        lines.append(text("turn").format(
            number=number, name=analysis.players[turn.seat], width=width,
            dice=format_dice(turn.dice), played=turn.played, verdict=verdict,
        ))  # fmt: skip
    lines += ["", text("summary"), *_summary_table(analysis.players, analysis.summary), "",
              _thresholds()]  # fmt: skip
    return lines


def _thresholds() -> str:
    bounds = {mark: points(loss) for mark, loss in MARK_THRESHOLDS}
    return text("thresholds").format(doubtful=bounds["doubtful"], bad=bounds["bad"],
                                     very_bad=bounds["very bad"])  # fmt: skip


def _rows(rows: list[tuple[str, list[str]]], width: int) -> list[str]:
    """A table: the labels in one column (as wide as the longest, in whatever language),
    then each player's value right-aligned in *width*."""
    labels = max(34, *(len(label) + 2 for label, _values in rows))
    return [f"  {label:<{labels}}" + "".join(f"{value:>{width}}" for value in values)
            for label, values in rows]  # fmt: skip


def _summary_table(players: tuple[str, str], summary: tuple[PlayerSummary, ...]) -> list[str]:
    width = max(14, *(len(name) + 2 for name in players))
    rows = [
        ("", [f"{name} ({_(SIDE_WORDS[seat])})" for seat, name in enumerate(players)]),
        (text("decisions"), [str(s.decisions) for s in summary]),
        (text("total_loss"), [points(s.total_loss) for s in summary]),
        (text("mean_loss"), [points(s.mean_loss) for s in summary]),
        (text("marks"), [f"{s.doubtful} / {s.bad} / {s.very_bad}" for s in summary]),
        (text("rating"), [_(RATING_NAMES[s.rating]) if s.rating else "-" for s in summary]),
        (text("rolls"), [str(s.rolls) for s in summary]),
        (text("luck_total"), [signed(s.luck) for s in summary]),
        (text("points"), [str(s.points) for s in summary]),
        (text("luck_adjusted"), [signed(s.luck_adjusted) for s in summary]),
    ]
    width = max(width, *(len(value) + 2 for _label, values in rows for value in values))
    return _rows(rows, width)


def _goose_text(players: tuple[str, ...], luck: tuple[GooseLuck, ...]) -> list[str]:
    lines = [text("goose_players").format(players=", ".join(players)), ""]
    width = max(8, *(len(name) + 2 for name in players))
    rows = [
        ("", list(players)),
        (text("goose_turns"), [str(g.turns) for g in luck]),
        (text("goose_missed"), [str(g.missed) for g in luck]),
        (text("goose_hazards"), [str(g.hazards) for g in luck]),
        (text("goose_paid"), [str(g.paid) for g in luck]),
        (text("goose_won"), [str(g.won) for g in luck]),
        (text("goose_net"), [f"{g.won - g.paid:+d}" for g in luck]),
    ]
    return [*lines, *_rows(rows, width)]
