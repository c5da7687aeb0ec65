"""Running the relay from a terminal: ``tablier relay`` and ``python -m relay``."""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import signal
import sys
from collections.abc import Callable

from relay import logs
from relay.config import RelayConfig, config_from
from relay.core import Log
from relay.server import CertificateError, RelayServer


def run(args: argparse.Namespace) -> int:
    try:
        config = config_from(args, os.environ)
    except ValueError as exc:
        print(f"tablier relay: {exc}", file=sys.stderr)
        return 2
    logs.configure(config.log_json)
    with asyncio.Runner(loop_factory=fastest_loop()) as runner:
        return runner.run(_serve(config))


def fastest_loop() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop when it is installed (the ``fast`` extra), else asyncio's own."""
    try:
        import uvloop  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


async def _serve(config: RelayConfig) -> int:
    relay = RelayServer(config)
    try:
        await relay.start()
    except CertificateError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"cannot listen on {config.host}:{config.port}: {exc.strerror or exc}")
    _spare_the_collector()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    loop_name = type(loop).__module__.split(".")[0]
    _log("listening", url=relay.url, loop=loop_name, json=config.log_json)
    await stop.wait()
    _log("stopping", timeout=str(config.shutdown_timeout), json=config.log_json)
    await relay.close()
    _log("stopped", json=config.log_json)
    return 0


def _spare_the_collector() -> None:
    """Leave what the relay process holds for its whole life (its modules, classes and
    functions, some 40,000 objects) out of every later garbage collection.

    A full collection walks every tracked object while nothing else runs: in a relay
    holding 1,000 connections, 100,000 objects and a 180-340 ms pause on this project's
    loaded 2-core machine, against 13-75 ms with these left out (docs/relay-benchmark.md).
    Garbage is collected first, so none is frozen; what is frozen and dies later in a
    reference cycle stays until the process ends (only the first connection to Redis, if
    an outage replaces it: a few kilobytes)."""
    gc.collect()
    gc.freeze()


def _fail(sentence: str) -> int:
    print(f"tablier relay: {sentence}", file=sys.stderr)
    return 1


def _log(event: str, *, json: bool, **details: str) -> None:
    logs.logger.info(logs.render(Log(None, event, dict(details)), json))
