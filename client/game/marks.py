"""The analysis marks (``engine.bot.analysis.mark``: its codes) as a person reads them,
for the ``analyze`` text report and the Jacquet screen's coach alike."""

from __future__ import annotations

from typing import Final

from client.i18n import N_

MARK_NAMES: Final = {"doubtful": N_("doubtful"), "bad": N_("bad"), "very bad": N_("very bad")}
"""Translate with :func:`client.i18n._` where shown."""
