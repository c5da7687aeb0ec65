r"""One log line per connection event or refusal, as plain text or as a JSON object.

Values can come from the network (a room id a client asked for, an address from
``X-Forwarded-For``), so nothing reaches the line as it came. In plain text (``key=value``
pairs, as logfmt has them) every character that is not printable ASCII is written as a
backslash escape, so a value can neither end the line nor reach the operator's terminal, and
a value holding a space, a quote or ``=`` is quoted, so it cannot make up fields of its own;
JSON escapes control and non-ASCII characters itself::

    >>> render(Log(7, "refused", {"code": "unknown_room", "room": "a\nb\x1b[2J"}), False)
    'refused conn=7 code=unknown_room room=a\\nb\\x1b[2J'
    >>> render(Log(None, "refused", {"room": 'x ip="1.2.3.4"'}), False)
    'refused room="x ip=\\"1.2.3.4\\""'
"""

from __future__ import annotations

import json
import logging
import time

from relay.core import Log

logger = logging.getLogger("tablier.relay")

_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"'}
_QUOTED_IF = frozenset(' "=')


def escaped(text: str) -> str:
    """``text`` as one plain-text value: printable ASCII, quoted if it holds a separator."""
    if text.isprintable() and text.isascii() and not any(c in _ESCAPES for c in text):
        plain = text  # the common case: an id, a code, an address
    else:
        plain = "".join(_escape(c) for c in text)
    return f'"{plain}"' if _QUOTED_IF.intersection(text) or not text else plain


def _escape(char: str) -> str:
    if char in _ESCAPES:
        return _ESCAPES[char]
    if char.isprintable() and char.isascii():
        return char
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def render(entry: Log, as_json: bool) -> str:
    if as_json:
        record: dict[str, object] = {"ts": round(time.time(), 3), "event": entry.event}
        if entry.conn is not None:
            record["conn"] = entry.conn
        record.update(entry.details)
        return json.dumps(record, separators=(",", ":"))  # ensure_ascii: no raw control bytes
    parts = [entry.event]
    if entry.conn is not None:
        parts.append(f"conn={entry.conn}")
    parts += [f"{key}={_plain(value)}" for key, value in entry.details.items()]
    return " ".join(parts)


def _plain(value: str | int) -> str:
    return escaped(value) if isinstance(value, str) else str(value)


def configure(as_json: bool) -> None:
    """For the ``tablier relay`` command; an embedding app configures logging itself."""
    handler = logging.StreamHandler()
    handler.setFormatter(
        logging.Formatter("%(message)s" if as_json else "%(asctime)s relay %(message)s")
    )
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
