"""One log line per connection event or refusal, as plain text or as a JSON object."""

from __future__ import annotations

import json
import logging
import time

from relay.core import Log

logger = logging.getLogger("tablier.relay")


def render(entry: Log, as_json: bool) -> str:
    if as_json:
        record: dict[str, object] = {"ts": round(time.time(), 3), "event": entry.event}
        if entry.conn is not None:
            record["conn"] = entry.conn
        record.update(entry.details)
        return json.dumps(record, separators=(",", ":"))
    parts = [entry.event]
    if entry.conn is not None:
        parts.append(f"conn={entry.conn}")
    parts += [f"{key}={value}" for key, value in entry.details.items()]
    return " ".join(parts)


def configure(as_json: bool) -> None:
    """For the ``tablier relay`` command; an embedding app configures logging itself."""
    handler = logging.StreamHandler()
    handler.setFormatter(
        logging.Formatter("%(message)s" if as_json else "%(asctime)s relay %(message)s")
    )
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
