"""Textual's ``Select``, safe to be mounted while the app quits.

``Select``'s own ``_on_mount`` queries its overlay, which Textual never composed when the
app began to quit first (``NoMatches``: ``ctrl+q`` as the lobby's Jacquet tab mounts).
"""

from __future__ import annotations

from typing import TypeVar

from textual import events
from textual.widgets import Select

from client.lifecycle import closing

T = TypeVar("T")


class QuitSafeSelect(Select[T]):
    """A ``Select`` whose set-up is skipped when the app is already quitting."""

    def _on_mount(self, event: events.Mount) -> None:
        if closing(self):
            event.prevent_default()  # Select's handler (after this one) would find no overlay
