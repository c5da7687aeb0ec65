"""Stopping an asyncio task without swallowing the caller's own cancellation.

``task.cancel()`` followed by ``with suppress(BaseException): await task`` also swallows the
``CancelledError`` meant for the *caller* (the app quitting while a connection closes), which
then carries on as if nothing had happened. :func:`stop` waits for the task with
``asyncio.wait``, which never raises the task's own outcome but does let the caller's
cancellation through.
"""

from __future__ import annotations

import asyncio
from typing import Any


async def stop(task: asyncio.Future[Any]) -> None:
    """Cancel *task* and wait until it is done; its exception, if any, is retrieved and dropped
    (it was being stopped: what it failed with no longer matters)."""
    task.cancel()
    await asyncio.wait({task})
    if not task.cancelled():
        task.exception()
