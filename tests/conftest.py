"""What every test starts from: Tablier speaking English (the tests' sentences are English)
whatever the locale of the machine that runs them. The tests of the French say so
themselves (``--lang fr``, or their own ``TABLIER_LANG``); the processes tests start inherit
this environment. And no Hypothesis test fails because the machine is slow: the ``tablier``
profile has no per-example deadline."""

from __future__ import annotations

import os

from hypothesis import settings
from textual.pilot import Pilot

os.environ["TABLIER_LANG"] = "en"

settings.register_profile("tablier", deadline=None)
settings.load_profile("tablier")
"""No wall clock in any test: a loaded machine (other suites beside it) makes examples slow,
never wrong. A test's own ``@settings(...)`` starts from the loaded profile, so it keeps
``deadline=None`` unless it sets one (none does)."""


PILOT_WAIT_SECONDS = 150.0
"""How long Textual's Pilot waits for a screen to process its messages (each key, each
pause) before raising WaitForScreenTimeout: Textual's 30 s is a budget, which a busy machine
(load 25 on 2 cores) ran out while nothing was wrong. Longer than pytest-timeout's 120 s
(pyproject), the hang guard, which stops a real hang first at the line that waited."""

_textuals_wait_for_screen = Pilot._wait_for_screen


async def _wait_for_screen(self: Pilot[object], timeout: float = PILOT_WAIT_SECONDS) -> bool:
    return await _textuals_wait_for_screen(self, timeout)


Pilot._wait_for_screen = _wait_for_screen  # type: ignore[method-assign,assignment]
