"""What every test starts from: Tablier speaking English (the tests' sentences are English)
whatever the locale of the machine that runs them. The tests of the French say so
themselves (``--lang fr``, or their own ``TABLIER_LANG``); the processes tests start inherit
this environment. And no Hypothesis test fails because the machine is slow: the ``tablier``
profile has no per-example deadline."""

from __future__ import annotations

import os

from hypothesis import settings

os.environ["TABLIER_LANG"] = "en"

settings.register_profile("tablier", deadline=None)
settings.load_profile("tablier")
"""No wall clock in any test: a loaded machine (other suites beside it) makes examples slow,
never wrong. A test's own ``@settings(...)`` starts from the loaded profile, so it keeps
``deadline=None`` unless it sets one (none does)."""
