"""What every test starts from: Tablier speaking English (the tests' sentences are English)
whatever the locale of the machine that runs them. The tests of the French say so
themselves (``--lang fr``, or their own ``TABLIER_LANG``); the processes tests start inherit
this environment."""

from __future__ import annotations

import os

os.environ["TABLIER_LANG"] = "en"
