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
from relay.config import (
    N_,
    BackplaneURLError,
    RelayConfig,
    SettingsError,
    Words,
    config_from,
)
from relay.outputs import Log
from relay.server import CertificateError, RelayServer

Reason = Callable[[OSError], str]
"""Why the system refused, in the reader's words."""


def _strerror(error: OSError) -> str:
    return error.strerror or str(error)


def run(args: argparse.Namespace, words: Words = str, reason: Reason = _strerror) -> int:
    """Run the relay until SIGINT or SIGTERM. What goes wrong before it listens is said in
    the language of *words* (``tablier relay`` passes the client's; its operator log stays
    English), a system error's reason by *reason*."""
    try:
        config = config_from(args, os.environ)
    except SettingsError as exc:
        return _fail(words, exc.say(words), status=2)
    logs.configure(config.log_json)
    with asyncio.Runner(loop_factory=fastest_loop()) as runner:
        return runner.run(_serve(config, words, reason))


def fastest_loop() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop when it is installed (the ``fast`` extra), else asyncio's own."""
    try:
        import uvloop  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


async def _serve(config: RelayConfig, words: Words, reason: Reason) -> int:
    try:
        relay = RelayServer(config)
    except BackplaneURLError as exc:
        return _fail(words, words(N_("the backplane URL cannot be used: {reason}")).format(
            reason=exc), status=2)  # fmt: skip
    try:
        await relay.start()
    except CertificateError as exc:
        files = {"certfile": config.certfile, "keyfile": config.keyfile}
        if exc.unreadable is None:
            return _fail(
                words,
                words(
                    N_(
                        "{certfile} and {keyfile} are not a PEM certificate "
                        "chain and its matching private key"
                    )
                ).format(**files),
            )
        return _fail(words, words(N_("cannot read {certfile} or {keyfile}: {reason}")).format(
            reason=reason(exc.unreadable), **files))  # fmt: skip
    except OSError as exc:
        return _fail(words, words(N_("cannot listen on {address}: {reason}")).format(
            address=f"{config.host}:{config.port}", reason=reason(exc)))  # fmt: skip
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


def _fail(words: Words, sentence: str, *, status: int = 1) -> int:
    print(words(N_("tablier relay: {error}")).format(error=sentence), file=sys.stderr)
    return status


def _log(event: str, *, json: bool, **details: str) -> None:
    logs.logger.info(logs.render(Log(None, event, dict(details)), json))
