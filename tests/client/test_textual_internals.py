"""The two private names of Textual the client leans on, held here so that an upgrade that
renames or drops one fails loudly in one place, not by a toast that never goes or a worker
that draws on a screen being removed (each use says why no public name does the job)."""

from __future__ import annotations

import inspect

from textual.app import App
from textual.dom import DOMNode
from textual.notifications import Notification
from textual.widget import Widget


def test_a_toast_can_still_be_taken_down_alone() -> None:
    """``client.screens.game`` takes an offence's toast down to show its count anew:
    Textual's public API clears every toast at once (``clear_notifications``)."""
    unnotify = App._unnotify
    assert list(inspect.signature(unnotify).parameters)[:2] == ["self", "notification"]
    app: App[None] = App()
    notification = Notification("said", "title")
    app._notifications.add(notification)
    app._unnotify(notification, refresh=False)
    assert notification not in app._notifications


def test_a_node_being_removed_still_says_so() -> None:
    """``client.lifecycle.closing`` reads ``_pruning``: set on a node and its children the
    moment their removal begins, while their workers and timers still run; no public name
    says it (``is_attached`` stays true until the end)."""
    widget = Widget()
    assert isinstance(widget, DOMNode) and widget._pruning is False
