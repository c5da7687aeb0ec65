"""Whether a screen or widget is being taken down while its ``Mount`` still arrives.

Textual delivers a node's ``Mount`` even when the app began to quit first — without having
composed the node's children, and refusing to mount new ones (``MountError``). A screen
pushed a moment before the quit (a game started, a rematch's board arriving) would then set
itself up on widgets that are not there. Every ``on_mount`` that queries or mounts asks
:func:`closing` first and, if so, does nothing: the node is about to be removed anyway.
"""

from __future__ import annotations

from textual.message_pump import MessagePump


def closing(node: MessagePump) -> bool:
    """The app is quitting (or *node* is no longer in it): do not set *node* up."""
    return not node.is_attached or not node.app.is_running
