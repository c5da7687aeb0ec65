"""Whether a screen or widget is being taken down while its ``Mount`` still arrives.

Textual delivers a node's ``Mount`` even when the app began to quit first — without having
composed the node's children, and refusing to mount new ones (``MountError``). A screen
pushed a moment before the quit (a game started, a rematch's board arriving) would then set
itself up on widgets that are not there. Every ``on_mount`` that queries or mounts asks
:func:`closing` first and, if so, does nothing: the node is about to be removed anyway.

The same holds after the mount: a screen being removed (left with ``esc``, replaced) loses
its children first, while its workers, timers and callbacks still run for a moment. What
updates a screen from one of those asks :func:`closing` too.
"""

from __future__ import annotations

from textual.dom import DOMNode
from textual.worker import NoActiveWorker, get_current_worker

from client.game.budget import Cancelled


def closing(node: DOMNode) -> bool:
    """The app is quitting, or *node* is being removed (its children may be gone already,
    while its workers, timers and callbacks still run), or it is no longer in the app: do not
    set *node* up, or show anything on it."""
    # ``_pruning`` is set on a node and all its children the moment their removal begins;
    # Textual has no public name for it (its own signals read it the same way).
    return not node.is_attached or node._pruning or not node.app.is_running


def stop_if_cancelled() -> None:
    """Between two steps of a long job in a thread worker: raise :class:`Cancelled` once the
    worker is cancelled. Textual cannot interrupt a thread: cancelling a thread worker only
    marks it, and quitting the app waits for its thread — which, without this check between
    records, read a 17 MB log to its end first (51 s). Outside a worker: nothing.

    >>> stop_if_cancelled()
    """
    try:
        worker = get_current_worker()
    except NoActiveWorker:
        return
    if worker.is_cancelled:
        raise Cancelled
