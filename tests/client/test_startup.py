"""What bare ``tablier`` loads before the lobby is painted: the lobby's modules, not a game's.

The game screens bring the engines, the protocol and its cryptography (about 100 ms on a
loaded machine); the app imports them where a game, a replay or a room is opened
(docs/client-architecture.md, "Startup"). A module-level import slipping back into the
lobby's path is caught here, by what the interpreter loaded — not by a clock.
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys

from client.app import TablierApp
from client.setup import SessionSettings

GAME_STACK = (
    "engine",
    "protocol",
    "cryptography",
    "msgpack",
    "websockets",
    "client.game",
    "client.screens.game",
    "client.screens.goose",
    "client.screens.jacquet",
    "client.screens.end",
    "client.screens.room",
)

# Modules of those packages that hold only bounds and their words, loaded for the command
# line's help and the lobby's fields (a bound is stated once, in the protocol: the seats a
# room may have, a chat line's length, how many turns an analysis judges): some 5 ms, no
# engine, no cryptography.
BOUNDS_ONLY = frozenset({
    "protocol", "protocol.bounds", "protocol.clock", "engine", "engine.clause",
    "client.game", "client.game.budget",
})  # fmt: skip

# The steps of bare ``tablier`` up to the lobby: the command line is parsed (every command
# registers its options), then the app and its default screen, the lobby, are built.
LOBBY_PATH = """
import json, sys
from client.cli import build_parser
build_parser().parse_args([])
from client.app import TablierApp
TablierApp().get_default_screen()
print(json.dumps(sorted(sys.modules)))
"""


def test_the_lobby_loads_neither_the_engines_nor_the_protocol() -> None:
    result = subprocess.run(
        [sys.executable, "-c", LOBBY_PATH], capture_output=True, text=True, check=True
    )
    loaded = set(json.loads(result.stdout))
    assert {"textual.app", "client.app", "client.screens.lobby"} <= loaded
    early = sorted(
        name for name in loaded - BOUNDS_ONLY
        if any(name == p or name.startswith(p + ".") for p in GAME_STACK)
    )  # fmt: skip
    assert early == []


def test_opening_a_game_loads_its_screen() -> None:
    """The other side of the same list: the modules it names are the ones a game needs."""
    code = LOBBY_PATH.replace(
        "TablierApp().get_default_screen()",
        "from client.screens.jacquet import JacquetScreen\nfrom client.game.local import LocalGame",
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    loaded = set(json.loads(result.stdout))
    assert {"engine.jacquet", "protocol.identity", "cryptography", "client.screens.end"} <= loaded


async def test_the_garbage_collector_is_back_on_once_the_first_screen_is_painted(
    settings: SessionSettings,
) -> None:
    """``tablier`` starts the app with the collector off (client/commands/play.py); left
    off, a long session would never free a cycle."""
    gc.disable()
    try:
        app = TablierApp(settings=settings)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(100):
                if gc.isenabled():
                    break
                await pilot.pause(0.02)
            assert gc.isenabled()
    finally:
        gc.enable()
