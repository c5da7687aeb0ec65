"""A French player and an English player in one networked match (issue 18): each reads the
match in his own language, and both keep the very same match log — the language never
travels between machines."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from tests.client.terminal import Finished, environment, run_in_terminal

CTRL_R = b"\x12"


def test_a_french_host_and_an_english_guest_see_their_own_words_and_write_one_log(
    tmp_path: Path,
) -> None:
    homes = {who: tmp_path / who for who in ("ada", "bob")}
    invites = tmp_path / "invites.txt"
    logs = {who: tmp_path / f"{who}.tablier" for who in homes}
    done: dict[str, Finished] = {}

    def host() -> None:  # Ada, in French, her seat played by the computer
        done["ada"] = run_in_terminal(
            ["--lang", "fr", "host", "goose", "--players", "2", "--name", "Ada", "--computer",
             "--no-animation", "--listen", "127.0.0.1:0", "--invite-file", str(invites),
             "--log", str(logs["ada"])],
            env=environment(homes["ada"]), keys=[("a abandonné", b"q")], timeout=60,
        )  # fmt: skip

    hosting = threading.Thread(target=host)
    hosting.start()
    deadline = time.monotonic() + 30
    while not (invites.exists() and invites.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.05)
    player_invite = invites.read_text().splitlines()[0]
    # Bob, in English: once both have thrown, he resigns (ctrl+r, then yes), then quits.
    done["bob"] = run_in_terminal(
        ["--lang", "en", "join", player_invite, "--name", "Bob", "--computer",
         "--no-animation", "--log", str(logs["bob"])],
        env=environment(homes["bob"]),
        keys=[("Bob throws", CTRL_R), ("Resign this match?", b"y"), ("resigned", b"q")],
        timeout=60,
    )  # fmt: skip
    hosting.join(timeout=60)
    ada, bob = done["ada"], done["bob"]
    assert (ada.code, bob.code) == (0, 0), (ada.output[-2000:], bob.output[-2000:])
    assert "Ada jette" in ada.words and "a abandonné" in ada.words, ada.words[-2000:]
    assert " throws " not in ada.words
    assert "Ada throws" in bob.words and "Bob resigned" in bob.words, bob.words[-2000:]
    assert " jette " not in bob.words
    assert logs["ada"].read_bytes() == logs["bob"].read_bytes()
