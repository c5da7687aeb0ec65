"""Level 3 rules a candidate out only when it is worse: the search's choice is the full one's.

``_reply_value`` judges a candidate's replies roll by roll and stops as soon as the value is
sure to be below the best one so far. Here every reply is judged the plain way alongside,
and the bound is put just below, at and just above the exact value.
"""

from __future__ import annotations

from engine.bot import sides_of
from engine.bot.board import apply_moves
from engine.bot.evaluate import evaluate
from engine.bot.rolls import ROLLS
from engine.bot.search import _replies, _reply_value, _settled
from engine.bot.weights import TUNED
from engine.jacquet import legal_plays
from tests.bot.positions import random_positions


def test_a_candidate_is_ruled_out_exactly_when_it_is_below_the_bound() -> None:
    checked = ruled_out = 0
    for index, (position, dice) in enumerate(random_positions(seed=19, games=2)):
        plays = legal_plays(position, dice)
        if index % 6 or len(plays) < 2:
            continue
        mover, other = sides_of(position)
        children = [
            apply_moves(mover, [(move.from_point, move.to_point) for move in play])
            for play in plays[:3]
        ]
        probes: list[tuple[int, ...]] = []
        for child in children:
            if _settled(child, other) is not None:
                continue
            replies = _replies(child, other, "backgammon", [10**9])
            assert replies is not None
            lows = [min(evaluate(child, reply, TUNED) for reply in answers) for answers in replies]
            exact = sum(weight * low for (_roll, weight), low in zip(ROLLS, lows, strict=True))
            for bound in (None, exact - 1, exact, exact + 1):
                found = _reply_value(child, replies, TUNED, bound, probes)
                if bound is not None and bound > exact:
                    assert found is None
                    ruled_out += 1
                    continue
                assert found is not None
                value, best_replies = found
                assert value == exact
                # ... with his best reply to each roll (the next candidate's first guesses).
                assert [evaluate(child, reply, TUNED) for reply in best_replies] == lows
                assert all(r in answers for r, answers in zip(best_replies, replies, strict=True))
                probes = best_replies
            checked += 1
    assert checked > 20 and ruled_out == checked
