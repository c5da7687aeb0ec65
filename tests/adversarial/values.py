"""The values a hostile peer writes into the fields the decoder accepts (and a few it must
refuse): integers at their extremes, times far past and future, seats out of range, odd
Unicode. Each is drawn by Hypothesis, so a failure shrinks to the plainest value that breaks.
"""

from __future__ import annotations

from hypothesis import strategies as st

from protocol.clock import CLOCK_TOLERANCE_MS

# The integers at every boundary a fixed-width number can overflow at: the ones the decoder
# takes (a message's integers are 0 to 2^63 - 1), and the ones past it, which it must refuse.
ACCEPTED_INTS: tuple[int, ...] = (0, 1, 2**31 - 1, 2**31, 2**32, 2**53 + 1, 2**63 - 1)
REFUSED_INTS: tuple[int, ...] = (-1, -(2**63), 2**63, 2**64 - 1)
EXTREME_INTS: tuple[int, ...] = ACCEPTED_INTS + REFUSED_INTS
TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000

extreme_ints = st.sampled_from(EXTREME_INTS)


def near(value: int) -> st.SearchStrategy[int]:
    """*value* and its neighbours (an index off by one, a count one past)."""
    return st.sampled_from((value - 1, value, value + 1, value + 2))


def times(now: int, floor: int) -> st.SearchStrategy[int]:
    """A message's time as a hostile peer dates it: at the edges of the receiver's clock
    tolerance (*now*) and of the match's latest time (*floor*), far past and future, and
    at the integer extremes."""
    tolerance = CLOCK_TOLERANCE_MS
    edges = (now, now + tolerance, now + tolerance + 1, floor, floor - tolerance,
             floor - tolerance - 1, now - TEN_YEARS_MS, now + TEN_YEARS_MS)  # fmt: skip
    return st.one_of(st.sampled_from(edges), extreme_ints, st.integers(0, now + 2 * tolerance))


# Text a peer may send as a chat line, a play's notation or a name: invisible and format
# characters, fillers, marks with no base, right-to-left overrides, the widest character
# (U+FDFD) and very long runs; and plain words, so a shrunk example says which one it was.
ODD_CHARS = (
    "\u200b", "\u200d", "\u2060", "\ufeff", "\u3164", "\u2800", "\u115f", "\u0301", "\u0336",
    "\u20dd", "\u202e", "\u202d", "\u061c", "\ufdfd", "\U0001f600", "\U000e0001", "\u00ad",
    "\ud7ff", "A", " ", "/", "\\", "[", "]", "\x1b", "\n", "\x00",
)  # fmt: skip
odd_text = st.one_of(
    st.text(st.sampled_from(ODD_CHARS), min_size=0, max_size=12),
    st.builds(
        lambda c, k: c * k,
        st.sampled_from(ODD_CHARS),
        st.sampled_from((32, 33, 64, 500, 501, 2048)),
    ),
    st.text(max_size=40),
)
names = st.one_of(
    st.sampled_from(
        (
            "Mallory",
            "ada",
            "ADA",
            "Ada ",
            "A\u0301da",
            "\u3164",
            "\u2800" * 3,
            "\ufdfd" * 32,
            "\u202eyrollaM",
            "\u0301\u0301\u0301",
        )
    ),
    st.text(st.sampled_from(ODD_CHARS), min_size=1, max_size=32),
)

digests = st.sampled_from(("real", "zero", "ones", "stale"))
"""A 32-byte field: the value an honest peer would write there, zeros, ones, or an older one."""
