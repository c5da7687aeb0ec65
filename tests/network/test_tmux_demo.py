"""scripts/demo-two-terminals, driven as a person would: tmux send-keys into each player's
pane, capture-pane to read what they see. A few turns of Jacquet, then both panes must show
the same position (pip counts, borne-off checkers, score) and both logs must agree."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

from protocol.logfile import read_log

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "demo-two-terminals"
HOST, GUEST = "demo.1", "demo.2"
PIPS = re.compile(r"pips (\d+) · off (\d+)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Demo:
    def __init__(self, session: str) -> None:
        self.session = session

    def tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", *args], capture_output=True, text=True, check=True)
        return done.stdout

    def screen(self, pane: str) -> str:
        return self.tmux("capture-pane", "-p", "-t", f"{self.session}:{pane}")

    def side(self, pane: str) -> str:
        """The side panel's words, one line: what is right of the board on each row."""
        rows = [
            row.rsplit("│", 1)[-1].removeprefix("off") for row in self.screen(pane).splitlines()
        ]
        return " ".join(" ".join(rows).split())

    def keys(self, pane: str, *keys: str) -> None:
        self.tmux("send-keys", "-t", f"{self.session}:{pane}", *keys)

    def wait(self, pane: str, condition: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.side(pane)
            if condition.lower() in text.lower():
                return text
            time.sleep(0.1)
        raise AssertionError(f"{pane} never showed {condition!r}; it shows:\n{self.screen(pane)}")

    def settle(self, pane: str, before: str, timeout: float = 1.0) -> None:
        """Until the pane changes from *before* (or a while passes: a refused key may not)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.screen(pane) == before:
            time.sleep(0.05)

    def position(self, pane: str) -> list[tuple[str, str]]:
        return PIPS.findall(self.screen(pane))


def same_records(first: Path, second: Path, timeout: float = 20.0) -> bool:
    """Whether the two logs come to hold the same records. A player logs his own message when
    the relay echoes it back in its order, so the last key press of the test may be in the
    other player's log a moment before it is in his own (on a loaded machine, more than a
    moment): the logs must converge, not be equal at one instant."""
    deadline = time.monotonic() + timeout
    while True:
        if read_log(first).records == read_log(second).records:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)


def test_two_terminals_side_by_side_show_the_same_jacquet_position(tmp_path: Path) -> None:
    assert shutil.which("tmux"), "the demo needs tmux"
    session = f"tablier-test-{free_port()}"
    env = {"TMPDIR": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    started = subprocess.run(
        [str(SCRIPT), "jacquet", "--detach", "--session", session, "--port", str(free_port()),
         "--", "--no-animation"],
        capture_output=True, text=True, env={**env, "TMUX": ""}, timeout=30,
    )  # fmt: skip
    assert started.returncode == 0, started.stderr
    demo = Demo(session)
    try:
        demo.wait(HOST, "Press r")
        demo.wait(GUEST, "Waiting for Ada")
        switches, refusals = 0, 0
        active, last = HOST, HOST
        for _ in range(300):
            if switches >= 4:  # the opening and a play or two each way
                break
            text = demo.side(active).lower()
            if "waiting for" in text:  # the other one's turn (or this screen lags behind)
                active = GUEST if active == HOST else HOST
                time.sleep(0.05)
                continue
            if active != last:
                switches, last = switches + 1, active
            before = demo.screen(active)
            if "press r" in text:
                demo.keys(active, "r")
            elif any(cue in text for cue in ("Press enter", "press enter", "may go to",
                                                "pick a checker to move")):  # fmt: skip
                demo.keys(active, "Enter")
            else:  # a refusal: the cursor is off the movable checkers; walk it along
                refusals += 1
                demo.keys(active, "l" if (refusals // 13) % 2 == 0 else "h")
                if refusals % 13 == 0:
                    demo.keys(active, "k" if (refusals // 13) % 2 else "j")
                demo.keys(active, "Enter")
            demo.settle(active, before)
        assert switches >= 4, "the game did not get through a few turns"
        # Both sides at rest (one waits for the other): the same position on both screens.
        time.sleep(0.5)
        host_view, guest_view = demo.position(HOST), demo.position(GUEST)
        assert len(host_view) == 2 and host_view == guest_view
        assert host_view != [("360", "0"), ("360", "0")], "nobody has moved"
        logs = [next(tmp_path.glob(f"tablier-demo.*/{who}/tablier/matches/*.tablier"))
                for who in ("ada", "bob")]  # fmt: skip
        assert same_records(*logs), "the two players' logs differ"
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
