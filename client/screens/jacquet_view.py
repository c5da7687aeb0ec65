"""From engine states to what the Jacquet widgets draw, and the end screen's summary.

Shared by the live Jacquet screen and the replay, so both show a position the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from client.i18n import _, ngettext, say
from client.screens.end import GameSummary
from client.widgets.jacquet_board import BoardView
from client.widgets.jacquet_status import JacquetStatusView, SeatLine
from engine.jacquet import OFF, JacquetState, Move, Position
from protocol.events import MatchEnded
from protocol.games import GAMES
from protocol.verify import result_clause

JACQUET = GAMES["jacquet"]


def to_viewer(point: int) -> int:
    """The opponent's point *point* in the viewer's numbering (and back: it is symmetric)."""
    return (point - 1 + 12) % 24 + 1


def seen_points(moves: Iterable[Move], mover: int, viewer: int) -> frozenset[int]:
    """The points *moves* (on *mover*'s track) touch, in *viewer*'s numbering.

    The viewer's own bear-offs mark his tray (``OFF``); the opponent's leave the board past
    the viewer's 12 and mark nothing more than the point they left.
    """
    points = {point for move in moves for point in (move.from_point, move.to_point)}
    if mover == viewer:
        return frozenset(points)
    return frozenset(to_viewer(point) for point in points if point != OFF)


def board_view(position: Position, viewer: int) -> BoardView:
    theirs = [0] * 24
    for point, count in enumerate(position.points(1 - viewer), start=1):
        theirs[to_viewer(point) - 1] = count
    return BoardView(
        viewer=viewer,
        mine=position.points(viewer),
        theirs=tuple(theirs),
        off=(position.borne_off(viewer), position.borne_off(1 - viewer)),
    )


def pip_count(position: Position, side: int) -> int:
    """Points *side* still has to travel to bear everything off."""
    return sum(count * (25 - point) for point, count in enumerate(position.points(side), 1))


def status_view(
    state: JacquetState,
    names: Sequence[str],
    position: Position,
    dice: tuple[int, ...],
    spent: tuple[bool, ...],
    ended: MatchEnded | None = None,
) -> JacquetStatusView:
    """The side panel's picture; its score is the end screen's once the match ended
    (*ended*: a resignation scored the match)."""
    score = JACQUET.final_score(state, ended) or state.score
    seats = tuple(
        SeatLine(names[side], pip_count(position, side), score[side], position.borne_off(side))
        for side in (0, 1)
    )
    to_move = None if state.phase != "play" else state.position.turn
    return JacquetStatusView(
        seats=(seats[0], seats[1]),
        match_to=state.options.match_to,
        to_move=to_move,
        dice=dice,
        spent=spent,
        game_number=state.game,
    )


def game_summary(
    state: JacquetState,
    names: Sequence[str],
    ended: MatchEnded | None,
    log_path: Path | None,
    *,
    last_game: str | None = None,
) -> GameSummary:
    """What the end-of-game screen says: the protocol's one-line result, how the last game
    was won (*last_game*, told: its value, simple to quadruple, and its points) and the
    score."""
    title = say(result_clause(JACQUET, ended, tuple(names), state))
    white, black = JACQUET.final_score(state, ended) or state.score
    lines = [] if last_game is None else [last_game]
    lines.append(_("Final score: {white} {white_points}, {black} {black_points}.").format(
        white=names[0], white_points=white, black=names[1], black_points=black
    ))
    if state.options.match_to > 1:
        lines.append(ngettext(
            "A match to {points} points, over {games} game.",
            "A match to {points} points, over {games} games.", state.game,
        ).format(points=state.options.match_to, games=state.game))
    return GameSummary(title[0].upper() + title[1:], tuple(lines), log_path)
