"""``GET /metrics``: the relay's counters in the Prometheus text exposition format."""

from __future__ import annotations

from typing import TYPE_CHECKING

from relay.core import RelayCore
from relay.envelope import ErrorCode

if TYPE_CHECKING:
    from relay.redis_backplane import RedisBackplane

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def _metric(name: str, kind: str, help_text: str, samples: list[tuple[str, int]]) -> str:
    lines = [f"# HELP {name} {help_text}", f"# TYPE {name} {kind}"]
    lines += [f"{name}{labels} {value}" for labels, value in samples]
    return "\n".join(lines)


def render(core: RelayCore, backplane: RedisBackplane | None = None) -> str:
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
    if backplane is not None:
        blocks += _backplane(core, backplane)
    return "\n".join(blocks) + "\n"


def _backplane(core: RelayCore, backplane: RedisBackplane) -> list[str]:
    stats = backplane.stats
    return [
        _metric(
            "tablier_relay_backplane_up",
            "gauge",
            "1 while the process serves rooms through Redis, 0 while it cannot (Redis "
            "unreachable, refusing writes, or holding another relay version's functions).",
            [("", int(backplane.unavailable is None))],
        ),
        _metric(
            "tablier_relay_backplane_rooms",
            "gauge",
            "Shared rooms this process has members in.",
            [("", len(core.shared))],
        ),
        "\n".join(
            [
                "# HELP tablier_relay_backplane_round_trip_seconds Time Redis took to answer "
                "(one command or one pipeline).",
                "# TYPE tablier_relay_backplane_round_trip_seconds summary",
                f"tablier_relay_backplane_round_trip_seconds_sum {stats.round_trip_seconds:.6f}",
                f"tablier_relay_backplane_round_trip_seconds_count {stats.round_trips}",
            ]
        ),
        _metric(
            "tablier_relay_backplane_reconnects_total",
            "counter",
            "Times Redis was reached again after it could not be.",
            [("", stats.reconnects)],
        ),
        _metric(
            "tablier_relay_backplane_errors_total",
            "counter",
            "Redis commands that failed (unreachable, timed out).",
            [("", stats.errors)],
        ),
    ]
