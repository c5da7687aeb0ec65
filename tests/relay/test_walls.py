"""The relay stands alone: loading every relay module pulls in no game, protocol or UI code."""

from __future__ import annotations

import json
import subprocess
import sys

FORBIDDEN = {"engine", "protocol", "client", "textual"}


def test_relay_imports_nothing_from_the_other_packages() -> None:
    code = (
        "import importlib, json, pkgutil, sys\n"
        "import relay\n"
        "for info in pkgutil.walk_packages(relay.__path__, 'relay.'):\n"
        "    if info.name != 'relay.__main__':\n"
        "        importlib.import_module(info.name)\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert not FORBIDDEN & set(json.loads(result.stdout))


def test_the_command_module_loads_no_websockets_until_the_relay_runs() -> None:
    code = (
        "import json, sys\n"
        "import client.commands.relay\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert not {"websockets", "msgpack"} & set(json.loads(result.stdout))
