"""``GET /metrics``: the relay's counters in the Prometheus text exposition format."""

from __future__ import annotations

from relay.core import RelayCore
from relay.envelope import ErrorCode

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def _metric(name: str, kind: str, help_text: str, samples: list[tuple[str, int]]) -> str:
    lines = [f"# HELP {name} {help_text}", f"# TYPE {name} {kind}"]
    lines += [f"{name}{labels} {value}" for labels, value in samples]
    return "\n".join(lines)


def render(core: RelayCore) -> str:
    stats = core.stats
    # Every reason is listed, zeros included, so a dashboard sees each series from the start.
    refusals = [(f'{{reason="{code}"}}', stats.refusals[code]) for code in ErrorCode]
    blocks = [
        _metric(
            "tablier_relay_connections",
            "gauge",
            "Open websocket connections.",
            [("", len(core.sessions))],
        ),
        _metric("tablier_relay_rooms", "gauge", "Rooms held.", [("", len(core.rooms))]),
        _metric(
            "tablier_relay_connections_total",
            "counter",
            "Websocket connections accepted.",
            [("", stats.connections_total)],
        ),
        _metric(
            "tablier_relay_messages_forwarded_total",
            "counter",
            "Payloads delivered to room members (one per recipient).",
            [("", stats.messages_forwarded)],
        ),
        _metric(
            "tablier_relay_bytes_forwarded_total",
            "counter",
            "Bytes of stamped payload frames delivered to room members.",
            [("", stats.bytes_forwarded)],
        ),
        _metric("tablier_relay_refusals_total", "counter", "Refusals sent, by reason.", refusals),
    ]
    return "\n".join(blocks) + "\n"
