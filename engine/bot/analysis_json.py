"""The analysis as JSON: language-neutral data, and back (a round trip gives equal objects).

Equities, losses and luck are written in points (micro-points / 10**6, so six decimals are
exact) and probabilities as fractions of 1, keyed by outcome name; a position is the
engine's JSON (:func:`engine.jacquet.position_to_json`). :func:`analysis_from_json` checks
the shape of everything it reads and raises :class:`AnalysisFormatError` naming the field.

>>> from engine.bot.analysis import Turn, analyse_turn
>>> from engine.jacquet import Position, parse_play
>>> turn = analyse_turn(Turn(1, 0, Position.initial(), (6, 5), parse_play("1/7 7/12")))
>>> turn_from_json(turn_to_json(turn)) == turn
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.bot.analysis import MARKS, MatchAnalysis, PlayerSummary, RankedPlay, TurnAnalysis
from engine.bot.equity import ONE
from engine.bot.net import OUTCOMES
from engine.errors import EngineError
from engine.jacquet import position_from_json, position_to_json


class AnalysisFormatError(EngineError):
    """A JSON analysis that does not have the shape :func:`analysis_from_json` needs."""


def points(micro: int) -> float:
    """Micro-points as points (exact to six decimals in JSON)."""
    return round(micro / ONE, 6)


def micro(value: object, field: str) -> int:
    """Points read from JSON, back to micro-points."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise AnalysisFormatError(f"{field} must be a number of points, not {value!r}")
    return round(value * ONE)


def _get(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise AnalysisFormatError(f"{key!r} is missing or not a {getattr(kind, '__name__', kind)}")
    return value


def _ranked_to_json(ranked: RankedPlay) -> dict[str, Any]:
    return {
        "play": ranked.play,
        "equity": points(ranked.equity),
        "ply": ranked.ply,
        "probabilities": {
            name: p / ONE for name, p in zip(OUTCOMES, ranked.probabilities, strict=True)
        },
    }


def _ranked_from_json(data: object) -> RankedPlay:
    if not isinstance(data, dict):
        raise AnalysisFormatError("a candidate is a JSON object")
    chances = _get(data, "probabilities", dict)
    return RankedPlay(
        play=_get(data, "play", str),
        probabilities=tuple(micro(chances.get(name), f"probability {name}") for name in OUTCOMES),
        equity=micro(data.get("equity"), "equity"),
        ply=_get(data, "ply", int),
    )


def turn_to_json(turn: TurnAnalysis) -> dict[str, Any]:
    """One object per turn (``"decision": false`` when the play was forced)."""
    return {
        "game": turn.game,
        "seat": turn.seat,
        "position": position_to_json(turn.position),
        "dice": list(turn.dice),
        "decision": not turn.forced,
        "played": turn.played,
        "best": turn.best,
        "loss": points(turn.loss),
        "mark": turn.mark or None,
        "luck": points(turn.luck),
        "candidates": [_ranked_to_json(c) for c in turn.candidates],
    }


def turn_from_json(data: object) -> TurnAnalysis:
    if not isinstance(data, dict):
        raise AnalysisFormatError("a turn is a JSON object")
    dice = _get(data, "dice", list)
    if len(dice) != 2 or not all(type(d) is int and 1 <= d <= 6 for d in dice):
        raise AnalysisFormatError(f"'dice' must be two dice, not {dice!r}")
    mark = data.get("mark") or ""
    if mark not in MARKS:
        raise AnalysisFormatError(f"'mark' must be one of {MARKS[1:]} or null, not {mark!r}")
    candidates = tuple(_ranked_from_json(c) for c in _get(data, "candidates", list))
    try:
        position = position_from_json(_get(data, "position", dict))
    except EngineError as error:
        raise AnalysisFormatError(f"'position': {error}") from None
    return TurnAnalysis(
        game=_get(data, "game", int),
        seat=_get(data, "seat", int),
        position=position,
        dice=(dice[0], dice[1]),
        played=_get(data, "played", str),
        best=_get(data, "best", str),
        loss=micro(data.get("loss"), "loss"),
        mark=mark,
        forced=not _get(data, "decision", bool),
        luck=micro(data.get("luck"), "luck"),
        candidates=candidates,
    )


_SUMMARY_POINTS = ("total_loss", "mean_loss", "luck", "luck_adjusted")
_SUMMARY_COUNTS = ("seat", "decisions", "doubtful", "bad", "very_bad", "rolls", "points")


def summary_to_json(summary: PlayerSummary) -> dict[str, Any]:
    out: dict[str, Any] = {name: getattr(summary, name) for name in _SUMMARY_COUNTS}
    out.update({name: points(getattr(summary, name)) for name in _SUMMARY_POINTS})
    out["rating"] = summary.rating
    return out


def summary_from_json(data: object) -> PlayerSummary:
    if not isinstance(data, dict):
        raise AnalysisFormatError("a player's summary is a JSON object")
    fields: dict[str, Any] = {name: _get(data, name, int) for name in _SUMMARY_COUNTS}
    fields.update({name: micro(data.get(name), name) for name in _SUMMARY_POINTS})
    fields["rating"] = _get(data, "rating", str)
    return PlayerSummary(**fields)


FORMAT = "tablier-analysis/1"


def analysis_to_json(analysis: MatchAnalysis) -> dict[str, Any]:
    """The whole analysis: ``{"format", "log", "players", "plies", "turns", "summary"}``."""
    return {
        "format": FORMAT,
        "log": {"file": analysis.log_name, "sha256": analysis.log_sha256},
        "game": "jacquet",
        "players": list(analysis.players),
        "plies": analysis.plies,
        "turns": [turn_to_json(turn) for turn in analysis.turns],
        "summary": [summary_to_json(summary) for summary in analysis.summary],
    }


def analysis_from_json(data: object) -> MatchAnalysis:
    """The :class:`MatchAnalysis` a JSON analysis describes (its shape checked)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise AnalysisFormatError(f"not a {FORMAT} document")
    log = _get(data, "log", dict)
    players = _get(data, "players", list)
    if len(players) != 2 or not all(isinstance(name, str) for name in players):
        raise AnalysisFormatError("'players' must be two names")
    return MatchAnalysis(
        log_name=_get(log, "file", str),
        log_sha256=_get(log, "sha256", str),
        players=(players[0], players[1]),
        plies=_get(data, "plies", int),
        turns=tuple(turn_from_json(turn) for turn in _get(data, "turns", list)),
        summary=tuple(summary_from_json(s) for s in _get(data, "summary", list)),
    )
