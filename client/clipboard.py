"""Copying a line for the person at the terminal, and saying truthfully where it went.

A terminal app has two ways to a clipboard. It can ask the terminal, with the OSC 52 escape
sequence (Textual's ``App.copy_to_clipboard``): many terminals honour it, some ignore it, tmux
by default keeps it from its paste buffers — and none answers, so the app can never know.
Or it can run a program that owns a clipboard and says whether it worked: tmux's own
``load-buffer`` inside tmux, ``wl-copy`` under Wayland, ``xclip``/``xsel`` under X11,
``pbcopy`` on macOS. :func:`copy_text` does both and returns a :class:`Copied` that says
which one, if any, confirmed the copy.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from client.i18n import N_, _

HELPER_SECONDS = 2.0  # a clipboard program that takes longer is not going to answer


@dataclass(frozen=True, slots=True)
class Copied:
    """``where`` names the place that confirmed the copy; None when nothing could."""

    where: str | None

    def sentence(self, what: str) -> str:
        """What to tell the person, e.g. ``Copied.sentence("The player invite")``."""
        if self.where is not None:
            return _("{what} is copied to {where}.").format(what=what, where=_(self.where))
        return _(
            "{what} was sent to the terminal's clipboard, which cannot say whether it took "
            "it. Nothing to paste? Start with --invite-file PATH."
        ).format(what=what)


@dataclass(frozen=True, slots=True)
class _Helper:
    command: tuple[str, ...]
    where: str


def helpers(env: Mapping[str, str] = os.environ) -> list[_Helper]:
    """The clipboard programs worth trying here, most fitting first."""
    found: list[_Helper] = []

    def offer(needs: bool, *command: str, where: str) -> None:
        if needs and shutil.which(command[0]) is not None:
            found.append(_Helper(command, where))

    offer("TMUX" in env, "tmux", "load-buffer", "-w", "-",
          where=N_("tmux's paste buffer (prefix then ] pastes it)"))  # fmt: skip
    offer("TMUX" in env, "tmux", "load-buffer", "-",  # a tmux older than 3.2: no -w
          where=N_("tmux's paste buffer (prefix then ] pastes it)"))  # fmt: skip
    offer("WAYLAND_DISPLAY" in env, "wl-copy", where=N_("the clipboard"))
    offer("DISPLAY" in env, "xclip", "-selection", "clipboard", where=N_("the clipboard"))
    offer("DISPLAY" in env, "xsel", "--clipboard", "--input", where=N_("the clipboard"))
    offer(sys.platform == "darwin", "pbcopy", where=N_("the clipboard"))
    return found


async def copy_text(
    text: str, osc52: Callable[[str], None], env: Mapping[str, str] = os.environ
) -> Copied:
    """Send *text* to the terminal's clipboard (*osc52*), and to the first clipboard program
    that takes it; say which confirmed it."""
    osc52(text)
    for helper in helpers(env):
        if await _run(helper.command, text):
            return Copied(helper.where)
    return Copied(None)


async def _run(command: tuple[str, ...], text: str) -> bool:
    try:
        process = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
    except OSError:
        return False
    try:
        async with asyncio.timeout(HELPER_SECONDS):
            await process.communicate(text.encode())
    except TimeoutError:
        return False
    finally:  # timed out, or the app quit meanwhile: no helper is left behind
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
    return process.returncode == 0
