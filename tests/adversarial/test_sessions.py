"""A hostile player against real protocol sessions: every message correctly signed with his
own seat's key, shapes the decoder accepts with values at their extremes, his honest
messages withheld, reordered and replayed, and the clock driven to the edges of the time
limit. The four invariants of :mod:`tests.adversarial.invariants` hold after every step.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from protocol.bounds import CHAT_AHEAD, HELD_PER_SEAT
from tests.adversarial.arena import (
    LIMIT_MS,
    Arena,
    AttackerMoves,
    Forge,
    HonestMoves,
    Release,
    Replay,
    Rounds,
    Tick,
    Withhold,
)
from tests.adversarial.profiles import bounded, figures
from tests.adversarial.values import ACCEPTED_INTS, REFUSED_INTS, odd_text

TIME_SPECS = ("now", "ahead", "too far ahead", "floor", "before floor", "ten years ago",
              "in ten years", "deadline", "after deadline")  # fmt: skip
ints = st.one_of(
    st.tuples(st.just("near"), st.integers(-1, 2)),
    st.tuples(st.just("int"), st.sampled_from(ACCEPTED_INTS)),
)
seats = st.one_of(ints, st.tuples(st.just("seat"), st.sampled_from(("other", "past", "last",
                                                                   "beyond"))))  # fmt: skip
times = st.one_of(ints, st.tuples(st.just("time"), st.sampled_from(TIME_SPECS)))
digests = st.tuples(st.just("digest"), st.sampled_from(("zero", "ones", "stale", "real")))
texts = st.tuples(st.just("text"), odd_text)
# What the decoder must refuse: a wrong type, an integer out of its range, a wrong size.
refused = st.one_of(
    st.tuples(st.just("raw"), st.sampled_from((None, True, 1.5, [], {}, "x", b"x"))),
    st.tuples(st.just("int"), st.sampled_from(REFUSED_INTS)),
    st.tuples(st.just("digest"), st.sampled_from(("none", "short", "empty"))),
)
# Each kind's fields after the version and the kind, in wire order, and what goes in them.
FIELDS = {
    "share": (seats, ints, times, digests, digests, digests, digests),
    "play": (seats, ints, times, texts, digests, digests),
    "chat": (seats, ints, times, texts),
    "resign": (seats, ints, times, digests),
    "claim": (seats, ints, times, seats, digests),
    "seen": (seats, ints, times, digests),
}


def edits(kind: str) -> st.SearchStrategy[tuple]:
    fields = FIELDS[kind]
    one = st.integers(0, len(fields) - 1).flatmap(
        # one value in ten of a shape the decoder must refuse (the rest, it takes)
        lambda at: st.tuples(
            st.just(at), st.integers(0, 9).flatmap(lambda k: refused if k == 0 else fields[at])
        )
    )
    return st.lists(one, min_size=1, max_size=2).map(tuple)


forges = st.sampled_from(sorted(FIELDS)).flatmap(
    lambda kind: st.builds(Forge, st.just(kind), edits(kind))
)
ticks = st.builds(Tick, st.sampled_from((0, 1, 1_000, 5_000, 5_001, LIMIT_MS // 10,
                                         LIMIT_MS - 1, LIMIT_MS, LIMIT_MS + 5_001)))  # fmt: skip
steps = st.one_of(
    st.builds(Rounds, st.integers(1, 12)),
    st.just(HonestMoves()),
    st.just(AttackerMoves()),
    st.builds(Release, st.integers(0, 2)),
    st.just(Withhold()),
    st.builds(Replay, st.integers(0, 10**6)),
    forges,
    ticks,
)
plans = st.lists(steps, min_size=4, max_size=40)
# Up to four seats, the attacker in any of them: anywhere in the share order (first, between
# honest seats, last), so that honest shares can come before his and wait for it.
tables = st.sampled_from((("goose", 2), ("goose", 3), ("goose", 4), ("jacquet", 2)))
attackers = st.integers(0, 3)


@bounded(60)
@given(table=tables, attacker=attackers, plan=plans)
def test_a_hostile_player_is_named_paced_and_claimable(
    table: tuple[str, int], attacker: int, plan: list
) -> None:
    with figures("sessions: hostile player") as count:
        run(table, attacker, plan)
        count()


def run(table: tuple[str, int], attacker: int, plan: list) -> None:
    game, players = table
    arena = Arena(game, players, attacker % players)
    for step in plan:
        arena.run(step)
    arena.finish()


@bounded(30)
@given(table=tables, attacker=attackers,
       loops=st.lists(st.sampled_from(("release", "replay-all", "forge-seen", "forge-chat")),
                      min_size=1, max_size=40))  # fmt: skip
def test_a_player_repeating_himself_costs_no_more_than_he_sends(
    table: tuple[str, int], attacker: int, loops: list[str]
) -> None:
    """Replays in a loop, the same ``seen`` again and again, chat floods: each honest seat
    queues at most the stated multiple of what the attacker sent (invariant 4)."""
    with figures("sessions: repetition") as count:
        game, players = table
        arena = Arena(game, players, attacker % players)
        arena.honest_moves()
        for loop in loops:
            arena.run(AttackerMoves())
            if loop == "release":
                arena.run(Release())
            elif loop == "replay-all":
                for pick in range(len(arena.seen)):
                    arena.run(Replay(pick))
            elif loop == "forge-seen":
                arena.run(Tick(LIMIT_MS // 10 + 1))
                arena.run(Forge("seen", ()))
            else:
                arena.run(Forge("chat", ((1, ("near", 0)),)))
            arena.honest_moves()
        arena.finish()
        count()


@bounded(60)
@given(table=tables, attacker=attackers, before=st.integers(0, 10),
       forged=st.lists(forges, min_size=1, max_size=3), after=st.integers(0, 3))  # fmt: skip
def test_a_forged_record_in_an_honest_match_is_named_on_the_attacker(
    table: tuple[str, int], attacker: int, before: int, forged: list[Forge], after: int
) -> None:
    """The same, aimed: an honest match up to some point, then one to three forged records
    (each one field or two off what the attacker should have written), then play on."""
    with figures("sessions: one forgery") as count:
        game, players = table
        arena = Arena(game, players, attacker % players)
        arena.run(Rounds(before))
        arena.run(AttackerMoves())
        for forge in forged:
            arena.run(forge)
        arena.run(Rounds(after))
        arena.finish()
        count()


@bounded(40)
@given(table=st.sampled_from((("goose", 3), ("goose", 4), ("jacquet", 2))), attacker=attackers,
       before=st.integers(0, 6), first=st.sampled_from((1, 2, CHAT_AHEAD + 1, 2**31)),
       count=st.integers(1, 3 * HELD_PER_SEAT), release=st.booleans())  # fmt: skip
def test_chat_lines_numbered_ahead_never_take_an_honest_record_s_place(
    table: tuple[str, int], attacker: int, before: int, first: int, count: int, release: bool
) -> None:
    """The attacker numbers chat lines ahead of his next (a few, or far: they can never be
    taken), as many as would fill every seat's room, then holds back his dice share while
    the honest shares after his in the share order go by. Each honest seat still holds
    every honest record it could not take yet (no honest seat is named, I2), and once he
    stalls every honest seat awaits him, so that he can be claimed (I3)."""
    with figures("sessions: chat lines ahead") as count_example:
        game, players = table
        arena = Arena(game, players, attacker % players)
        arena.run(Rounds(before))
        for offset in range(count):
            arena.run(Forge("chat", ((1, ("near", first + offset)),)))
        arena.honest_moves()  # the throw: his share waits in his outbox, the others' go by
        arena.run(AttackerMoves())
        if release:
            while arena.queued:
                arena.run(Release())
            arena.honest_moves()
        live = [seat for seat in arena.honest if arena.running(seat)]
        assert len({tuple(arena.sessions[seat].records) for seat in live}) <= 1, "I2 broken"
        arena.finish()
        count_example()
